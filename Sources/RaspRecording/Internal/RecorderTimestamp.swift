import RaspDomains

/// Writes times as RFC 3339 in UTC — `2026-11-22T09:30:00.25Z` — fast enough to run for every
/// recorded event.
///
/// The date and time of day up to the second (`2026-11-22T09:30:00`) are worked out once per
/// second and kept; within the same second only the fraction is written. The fraction has as
/// many digits as it needs, none for a whole second. A time outside the years 0000–9999 is
/// written as a number of seconds since the epoch, which `rasp` reads too.
@usableFromInline
struct RecorderTimestamp {
  /// The second whose text ``secondText`` holds, if any yet.
  private var second: Int64?
  /// `YYYY-MM-DDTHH:MM:SS` of ``second``.
  private var secondText: [UInt8] = Array(repeating: 0, count: 19)

  /// Appends `"<time>"`, quotes included, to `bytes`.
  @usableFromInline
  mutating func write(_ time: RaspTimestamp, into bytes: inout [UInt8]) {
    // A clock of the app's own may give nanoseconds out of 0..<1e9: carried into the seconds.
    let time =
      (0..<1_000_000_000).contains(time.nanoseconds)
      ? time
      : RaspTimestamp(
        seconds: time.seconds &+ floorDivide(Int64(time.nanoseconds), 1_000_000_000),
        nanoseconds: Int32(
          Int64(time.nanoseconds) - floorDivide(Int64(time.nanoseconds), 1_000_000_000)
            * 1_000_000_000))
    if time.seconds != second {
      let days = floorDivide(time.seconds, 86_400)
      let (year, month, day) = RaspTimestamp.civil(fromDays: days)
      guard (0...9999).contains(year) else {
        Self.writeEpochSeconds(time, into: &bytes)
        return
      }
      second = time.seconds
      let ofDay = time.seconds - days * 86_400
      Self.put(year, digits: 4, at: 0, in: &secondText)
      secondText[4] = UInt8(ascii: "-")
      Self.put(month, digits: 2, at: 5, in: &secondText)
      secondText[7] = UInt8(ascii: "-")
      Self.put(day, digits: 2, at: 8, in: &secondText)
      secondText[10] = UInt8(ascii: "T")
      Self.put(ofDay / 3600, digits: 2, at: 11, in: &secondText)
      secondText[13] = UInt8(ascii: ":")
      Self.put(ofDay / 60 % 60, digits: 2, at: 14, in: &secondText)
      secondText[16] = UInt8(ascii: ":")
      Self.put(ofDay % 60, digits: 2, at: 17, in: &secondText)
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(contentsOf: secondText)
    Self.writeFraction(time.nanoseconds, into: &bytes)
    bytes.append(UInt8(ascii: "Z"))
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends `.d…` with the fraction's significant digits, or nothing for zero.
  private static func writeFraction(_ nanoseconds: Int32, into bytes: inout [UInt8]) {
    guard nanoseconds > 0 else { return }
    var value = Int64(nanoseconds)
    var digits = 9
    while value % 10 == 0 {
      value /= 10
      digits -= 1
    }
    bytes.append(UInt8(ascii: "."))
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
    var index = start + digits - 1
    while value > 0 {
      bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
      value /= 10
      index -= 1
    }
  }

  /// Appends the time as a number of seconds since the epoch, with its fraction.
  private static func writeEpochSeconds(_ time: RaspTimestamp, into bytes: inout [UInt8]) {
    var seconds = time.seconds
    var nanoseconds = time.nanoseconds
    if seconds < 0 && nanoseconds > 0 {
      // -1.25 s is seconds -2 and 750,000,000 ns: written as -1.25.
      seconds += 1
      nanoseconds = 1_000_000_000 - nanoseconds
      if seconds == 0 { bytes.append(UInt8(ascii: "-")) }
    }
    bytes.append(contentsOf: String(seconds).utf8)
    writeFraction(nanoseconds, into: &bytes)
  }

  /// Writes `value` in `digits` decimal digits, zero-padded, at `offset`.
  private static func put(_ value: Int64, digits: Int, at offset: Int, in bytes: inout [UInt8]) {
    var value = value
    for index in stride(from: offset + digits - 1, through: offset, by: -1) {
      bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
      value /= 10
    }
  }
}

/// `a / b` rounded towards minus infinity, for a positive `b`.
private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  a >= 0 ? a / b : (a + 1) / b - 1
}
