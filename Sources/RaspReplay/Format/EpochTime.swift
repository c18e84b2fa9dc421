import RaspDomains
import RaspJSON

/// Times written as a count of seconds, milliseconds, microseconds or nanoseconds since the
/// Unix epoch, read exactly: from a JSON number (`1795336200250`) or from digits in a string
/// (OTLP's `"1795336200250000000"`), without rounding through a double.
///
/// A count of seconds with no unit given is also checked for size: a number of seconds beyond
/// the year 5138 (more than eleven digits) is almost always milliseconds written by a logger
/// that did not say so, and reading it as seconds would put the event tens of thousands of
/// years ahead, silently. A number written with an exponent (`1.7e12`) is read, and checked,
/// as the digits it stands for.
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
    if let plain = try plainDecimal(text) { return try read(plain[...], unit: unit) }
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
    guard index == text.endIndex else { throw Failure("is not a number of \(name(unit))") }
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
  static func checkUnitlessSeconds<Text: RandomAccessCollection<UInt8>>(
    _ text: Text, isInner: Bool = false
  ) throws(Failure) where Text.Index == Int {
    if let plain = try plainDecimal(text) {
      return try checkUnitlessSeconds(plain[...], isInner: isInner)
    }
    var index = text.startIndex
    if index < text.endIndex, text[index] == UInt8(ascii: "-") { index += 1 }
    var whole: Int64 = 0
    while index < text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
      whole = whole.multipliedReportingOverflow(by: 10).partialValue &+ Int64(text[index] &- 48)
      if whole > largestUnitlessSeconds || whole < 0 {
        let digits = text.prefix { $0 != UInt8(ascii: ".") }.count { $0 &- UInt8(ascii: "0") < 10 }
        let unit: LogFormat.TimeUnit = digits <= 14 ? .ms : digits <= 17 ? .us : .ns
        let side =
          text.first == UInt8(ascii: "-")
          ? "before 1970 (before the year -1199)" : "since 1970 (past the year 5138)"
        // An event in a string has its own map, in the outer map's "innerFormat".
        let map = isInner ? "whose \"innerFormat\" has the \"timeUnit\"" : "whose \"timeUnit\" is"
        throw Failure(
          "is too many seconds \(side): it looks like \(name(unit)); read the log with a map "
            + "file \(map) \"\(unit.rawValue)\" (see docs/formats.md)")
      }
      index += 1
    }
  }

  /// The plain decimal text of a number written with an exponent — `1.7e12` is
  /// `1700000000000`, `15e-1` is `1.5` — so that it is read exactly, and checked for its size
  /// like any other; `nil` for a number without an exponent.
  ///
  /// - Throws: For an exponent that moves the point so far that no time could be that large.
  static func plainDecimal<Text: RandomAccessCollection<UInt8>>(_ text: Text)
    throws(Failure) -> [UInt8]? where Text.Index == Int
  {
    guard
      let e = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    else { return nil }
    var index = text.startIndex
    let negative = index < e && text[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var digits: [UInt8] = []
    var point = -1
    while index < e {
      let byte = text[index]
      if byte == UInt8(ascii: "."), point < 0 {
        point = digits.count
      } else if byte &- UInt8(ascii: "0") < 10 {
        digits.append(byte)
      } else {
        return nil  // not a number: the caller says so
      }
      index += 1
    }
    if point < 0 { point = digits.count }
    index = e + 1
    var exponentNegative = false
    if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
      exponentNegative = text[index] == UInt8(ascii: "-")
      index += 1
    }
    var exponent = 0
    guard index < text.endIndex, !digits.isEmpty else { return nil }
    while index < text.endIndex {
      guard text[index] &- UInt8(ascii: "0") < 10 else { return nil }
      exponent = min(exponent * 10 + Int(text[index] &- 48), 1_000)
      index += 1
    }
    // Digits past the point are dropped beyond what a time keeps; a point that moves past
    // any time is out of range.
    let shifted = point + (exponentNegative ? -exponent : exponent)
    guard shifted <= 40 else { throw Failure("is out of range for a time") }
    // Leading zeros of the whole part go, so that its digits count its size.
    var leading = 0
    while leading < min(shifted, digits.count) - 1, digits[leading] == UInt8(ascii: "0") {
      leading += 1
    }
    digits.removeFirst(leading)
    let wholeDigits = shifted - leading
    var plain: [UInt8] = negative ? [UInt8(ascii: "-")] : []
    if shifted <= 0 {
      plain += Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: min(-shifted, 40))
      plain += digits.prefix(40)
    } else if wholeDigits >= digits.count {
      plain += digits + Array(repeating: UInt8(ascii: "0"), count: wholeDigits - digits.count)
    } else {
      plain += digits[..<wholeDigits] + [UInt8(ascii: ".")] + digits[wholeDigits...].prefix(40)
    }
    return plain
  }

  private static func name(_ unit: LogFormat.TimeUnit) -> String { unit.name }

  /// Why a time cannot be read.
  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

extension LogFormat.TimeUnit {
  /// The unit's name in messages: `milliseconds`.
  var name: String {
    switch self {
    case .ms: return "milliseconds"
    case .us: return "microseconds"
    case .ns: return "nanoseconds"
    case .s, .auto, .rfc3339: return "seconds"
    }
  }
}
