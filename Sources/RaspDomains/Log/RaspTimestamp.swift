/// The time of an event: seconds and nanoseconds since the Unix epoch, in UTC.
///
/// A log's `ts` may be an RFC 3339 string with a fraction and an offset
/// (`2026-11-22T09:30:00.250+01:00`) or a number of seconds since the epoch (`1795336200.25`).
/// Both are read exactly to the nanosecond, without Foundation and without rounding through a
/// double, so that merging several logs by time is exact and deterministic.
///
/// ```swift
/// let a = try RaspTimestamp(rfc3339: "2026-11-22T08:30:00.25Z")
/// let b = try RaspTimestamp(epochSeconds: "1795336200.25")
/// a == b   // true
/// ```
public struct RaspTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Whole seconds since 1970-01-01T00:00:00Z.
  public let seconds: Int64
  /// Nanoseconds within the second, 0 ..< 1 000 000 000.
  public let nanoseconds: Int32

  /// Creates a timestamp from seconds and nanoseconds since the epoch.
  ///
  /// ```swift
  /// let t = RaspTimestamp(seconds: 0, nanoseconds: 500_000_000)   // 1970-01-01T00:00:00.5Z
  /// ```
  ///
  /// - Parameters:
  ///   - seconds: Whole seconds since the epoch.
  ///   - nanoseconds: Nanoseconds within the second.
  public init(seconds: Int64, nanoseconds: Int32) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// Whether `a` is earlier than `b`.
  ///
  /// ```swift
  /// RaspTimestamp(seconds: 1, nanoseconds: 0) < RaspTimestamp(seconds: 2, nanoseconds: 0)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - a: A timestamp.
  ///   - b: Another timestamp.
  /// - Returns: `true` when `a` comes first.
  public static func < (a: RaspTimestamp, b: RaspTimestamp) -> Bool {
    (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
  }

  /// The timestamp in RFC 3339, UTC, with as many fraction digits as it needs.
  ///
  /// ```swift
  /// print(RaspTimestamp(seconds: 0, nanoseconds: 250_000_000))   // 1970-01-01T00:00:00.25Z
  /// ```
  public var description: String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = RaspTimestamp.civil(fromDays: days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var text = "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):"
    text += "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
    if nanoseconds > 0 {
      var fraction = String(nanoseconds)
      fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text + "Z"
  }

  /// Days since the epoch of a civil date (proleptic Gregorian calendar).
  package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a number of days since the epoch.
  package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Whether `year` is a leap year.
  static func isLeapYear(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The number of days in a month.
  package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
