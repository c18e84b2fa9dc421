import RaspDomains
import RaspJSON

/// Times written as a count of seconds, milliseconds, microseconds or nanoseconds since the
/// Unix epoch, read exactly: from a JSON number (`1795336200250`) or from digits in a string
/// (OTLP's `"1795336200250000000"`), without rounding through a double.
///
/// A count of seconds with no unit given is also checked for size: a number of seconds beyond
/// the year 5000 is almost always milliseconds written by a logger that did not say so, and
/// reading it as seconds would put the event tens of thousands of years ahead, silently.
///
/// ```swift
/// let t = try EpochTime.read(Array("1795336200250".utf8)[...], unit: .ms)
/// // 2026-11-22T08:30:00.25Z
/// ```
enum EpochTime {
  /// The largest number of seconds read without a unit: 99,999,999,999 s is in the year 5138.
  static let largestUnitlessSeconds: Int64 = 99_999_999_999

  /// How many of a unit make a second.
  static func perSecond(_ unit: LogFormat.TimeUnit) -> Int64 {
    switch unit {
    case .ms: return 1_000
    case .us: return 1_000_000
    case .ns: return 1_000_000_000
    case .s, .auto, .rfc3339: return 1
    }
  }

  /// Reads a count of `unit` since the epoch from a number's text (an optional `-`, digits, an
  /// optional fraction).
  ///
  /// - Throws: A reason, for text that is not such a number, or a time out of range.
  static func read<Text: RandomAccessCollection<UInt8>>(
    _ text: Text, unit: LogFormat.TimeUnit
  ) throws(Failure) -> RaspTimestamp where Text.Index == Int {
    var index = text.startIndex
    let negative = index < text.endIndex && text[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var whole: Int64 = 0
    let digitsStart = index
    while index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
      let (product, overflow) = whole.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = product.addingReportingOverflow(Int64(text[index] &- 48))
      guard !overflow, !overflowSum else { throw Failure("is out of range for a time") }
      whole = sum
      index += 1
    }
    guard index > digitsStart else { throw Failure("is not a number of \(name(unit))") }
    var fraction: Int64 = 0
    var fractionDigits = 0
    if index < text.endIndex, text[index] == UInt8(ascii: ".") {
      index += 1
      let fractionStart = index
      while index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
        if fractionDigits < 9 {
          fraction = fraction * 10 + Int64(text[index] &- 48)
          fractionDigits += 1
        }
        index += 1
      }
      guard index > fractionStart else { throw Failure("is not a number of \(name(unit))") }
    }
    guard index == text.endIndex else {
      throw Failure("is not written as digits: write the time without an exponent")
    }
    let perSecond = perSecond(unit)
    var seconds = whole / perSecond
    // Nanoseconds: the remainder of the whole count, then the fraction of one unit.
    let nanosecondsPerUnit = 1_000_000_000 / perSecond
    var scale: Int64 = 1
    for _ in fractionDigits..<9 { scale *= 10 }
    var nanoseconds = (whole % perSecond) * nanosecondsPerUnit + fraction * scale / perSecond
    if negative {
      seconds = -seconds
      if nanoseconds > 0 {
        seconds -= 1
        nanoseconds = 1_000_000_000 - nanoseconds
      }
    }
    guard seconds.magnitude <= 9_000_000_000_000 else {
      throw Failure("is out of range for a time")
    }
    return RaspTimestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))
  }

  /// Checks that a number of seconds written without a unit is not milliseconds in disguise.
  ///
  /// - Throws: A reason that names the year it would be and the map's unit to use.
  static func checkUnitlessSeconds<Text: RandomAccessCollection<UInt8>>(_ text: Text)
    throws(Failure) where Text.Index == Int
  {
    var index = text.startIndex
    if index < text.endIndex, text[index] == UInt8(ascii: "-") { index += 1 }
    var whole: Int64 = 0
    while index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
      whole = whole.multipliedReportingOverflow(by: 10).partialValue &+ Int64(text[index] &- 48)
      if whole > largestUnitlessSeconds || whole < 0 {
        let number = String(decoding: text, as: UTF8.self)
        let digits = text.prefix { $0 != UInt8(ascii: ".") }.count { $0 &- UInt8(ascii: "0") < 10 }
        let unit: LogFormat.TimeUnit = digits <= 14 ? .ms : digits <= 17 ? .us : .ns
        throw Failure(
          "\(JSONError.abbreviated(number)) is too many seconds since 1970 (past the year "
            + "5000): it looks like \(name(unit)); read the log with a map file whose "
            + "\"timeUnit\" is \"\(unit.rawValue)\" (see docs/formats.md)")
      }
      index += 1
    }
  }

  private static func name(_ unit: LogFormat.TimeUnit) -> String {
    switch unit {
    case .ms: return "milliseconds"
    case .us: return "microseconds"
    case .ns: return "nanoseconds"
    case .s, .auto, .rfc3339: return "seconds"
    }
  }

  /// Why a time cannot be read.
  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
