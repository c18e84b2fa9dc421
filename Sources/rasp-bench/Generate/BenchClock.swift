/// The time of a generated log, in milliseconds since the Unix epoch, written as RFC 3339.
///
/// Formatting is done by hand, from the day number (Howard Hinnant's `civil_from_days`), so that
/// the generator needs no Foundation and writes the same bytes everywhere. The date part is
/// computed once per day. ``milliseconds(ofRFC3339:)`` reads such a time back.
///
/// ```swift
/// var clock = BenchClock(milliseconds: 1_795_339_800_000)
/// clock.advance(by: 143)
/// clock.appendRFC3339(to: &bytes)   // 2026-11-22T09:30:00.143Z
/// ```
struct BenchClock {
  private(set) var milliseconds: Int64
  private var day: Int64 = .min
  private var date: [UInt8] = []

  /// Creates a clock at `milliseconds` after 1970-01-01T00:00:00Z.
  ///
  /// - Parameter milliseconds: A time after the epoch.
  init(milliseconds: Int64) {
    precondition(milliseconds >= 0, "the clock starts after the epoch")
    self.milliseconds = milliseconds
  }

  /// Moves the clock forward.
  ///
  /// - Parameter delta: Milliseconds, zero or more.
  mutating func advance(by delta: Int64) {
    milliseconds += delta
  }

  /// Appends the time as `YYYY-MM-DDThh:mm:ss.sssZ`.
  ///
  /// - Parameter bytes: Where to write.
  mutating func appendRFC3339(to bytes: inout [UInt8]) {
    let (today, remainder) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
    if today != day {
      day = today
      date = Self.date(ofDay: today)
    }
    bytes.append(contentsOf: date)
    let seconds = Int(remainder / 1000)
    appendTwoDigits(seconds / 3600, to: &bytes)
    bytes.append(0x3A)
    appendTwoDigits(seconds / 60 % 60, to: &bytes)
    bytes.append(0x3A)
    appendTwoDigits(seconds % 60, to: &bytes)
    bytes.append(0x2E)
    let millisecond = Int(remainder % 1000)
    bytes.append(UInt8(truncatingIfNeeded: 0x30 + millisecond / 100))
    appendTwoDigits(millisecond % 100, to: &bytes)
    bytes.append(0x5A)
  }

  /// Reads a time written as ``appendRFC3339(to:)`` writes it, `YYYY-MM-DDThh:mm:ss.sssZ`.
  ///
  /// ```swift
  /// BenchClock.milliseconds(ofRFC3339: text)   // 1_795_339_800_143 for 2026-11-22T09:30:00.143Z
  /// ```
  ///
  /// - Parameter text: The time's bytes.
  /// - Returns: Milliseconds since 1970-01-01T00:00:00Z (negative before), or `nil` when `text`
  ///   is written otherwise or names no time (a 30 February, a 24th hour, a leap second).
  static func milliseconds(ofRFC3339 text: UnsafeBufferPointer<UInt8>) -> Int64? {
    let layout: StaticString = "0000-00-00T00:00:00.000Z"
    guard text.count == layout.utf8CodeUnitCount else { return nil }
    for index in text.indices {
      let expected = layout.utf8Start[index]
      guard expected == 0x30 ? text[index] &- 0x30 < 10 : text[index] == expected else {
        return nil
      }
    }
    func number(at start: Int, digits: Int) -> Int64 {
      text[start..<start + digits].reduce(0) { $0 * 10 + Int64($1 &- 0x30) }
    }
    let year = number(at: 0, digits: 4)
    let month = number(at: 5, digits: 2)
    let dayOfMonth = number(at: 8, digits: 2)
    let hour = number(at: 11, digits: 2)
    let minute = number(at: 14, digits: 2)
    let second = number(at: 17, digits: 2)
    guard (1...12).contains(month), dayOfMonth >= 1,
      dayOfMonth <= daysInMonth(month, ofYear: year), hour < 24, minute < 60, second < 60
    else { return nil }
    let seconds =
      (day(year: year, month: month, dayOfMonth: dayOfMonth) * 24 + hour) * 3600
      + minute * 60 + second
    return seconds * 1000 + number(at: 20, digits: 3)
  }

  /// The day counted from 1970-01-01 of a date (Howard Hinnant's `days_from_civil`), for years
  /// from 0.
  static func day(year: Int64, month: Int64, dayOfMonth: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + dayOfMonth - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// How many days `month` (1 to 12) has in the Gregorian calendar.
  private static func daysInMonth(_ month: Int64, ofYear year: Int64) -> Int64 {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `YYYY-MM-DDT` for a day counted from 1970-01-01.
  static func date(ofDay day: Int64) -> [UInt8] {
    let shifted = day + 719_468
    let era = shifted / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    var bytes = Array(String(year).utf8)
    bytes.append(0x2D)
    appendTwoDigits(Int(month), to: &bytes)
    bytes.append(0x2D)
    appendTwoDigits(Int(dayOfMonth), to: &bytes)
    bytes.append(0x54)
    return bytes
  }
}

/// Appends a number from 0 to 99 as two digits.
private func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
  bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
  bytes.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
}
