/// The time of a generated log, in milliseconds since the Unix epoch, written as RFC 3339.
///
/// Formatting is done by hand, from the day number (Howard Hinnant's `civil_from_days`), so that
/// the generator needs no Foundation and writes the same bytes everywhere. The date part is
/// computed once per day.
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
