import RaspDomains
import RaspJSON

/// `shift` of a time written as an RFC 3339 string, `2026-12-04T10:00:00.250Z`: `by` seconds
/// added, exactly, and the time written back in the form it had.
///
/// The string is any time rasp reads as a `ts` (``RaspDomains/RaspTimestamp``): a date, `T`
/// (or `t`, or a space), a time with a fraction of any number of digits or none, and `Z` (or
/// `z`) or an offset `±hh:mm`. The shift is done on the time as written, in its own offset,
/// which stays as it was: `+02:00` stays `+02:00` and the local time moves, so the instant
/// moves by `by` too, and times keep their order whatever their offsets. The date rolls over
/// midnight, months, years and leap days by the proleptic Gregorian calendar. The fraction
/// keeps its number of digits, or takes as many as `by` has when it has more (`…00.25Z`
/// shifted by `0.125` is `…00.375Z`, `…00Z` by `0.5` is `…00.5Z`). A leap second, `:60`, is
/// the next minute's `:00`, as rasp reads it, and is written so after a shift other than 0.
///
/// A string of digits (`"1795339800005"`, `"1795339800.005"`) is an epoch time, shifted by
/// `by` in its own unit as a number is (``DigitString``).
///
/// ```swift
/// let moved = RFC3339Shift.shifted("1996-12-19T16:39:57-08:00", by: JSONNumber(3600))
/// // .success("1996-12-19T17:39:57-08:00")
/// ```
enum RFC3339Shift {
  /// Why a string cannot be shifted.
  struct Reason: Error, Equatable {
    let text: String
  }

  /// The years an RFC 3339 time can be written in.
  static let years: ClosedRange<Int64> = 0...9999

  /// The string `text` shifted by `offset` seconds, in the form it had.
  ///
  /// - Parameters:
  ///   - text: The string, decoded.
  ///   - offset: The seconds to add, a `by` of the policy.
  /// - Returns: The new string (`text` itself when `offset` is 0), or why it cannot be made.
  static func shifted(_ text: String, by offset: JSONNumber) -> Result<String, Reason> {
    let bytes = Array(text.utf8)
    let digits = DigitString(bytes)
    let valid =
      digits != nil || bytes.withUnsafeBufferPointer { RaspTimestamp.quickRFC3339($0) != nil }
    guard valid else {
      return .failure(
        Reason(
          text: "cannot shift '\(text)': 'shift' takes numbers (times), strings of digits "
            + "(epoch times) and RFC 3339 times such as '2026-12-04T10:00:00Z'"))
    }
    guard let by = NMEARedactor.decimal(offset), by.decimals <= 18 else {
      return .failure(Reason(text: "cannot shift '\(text)' by \(offset): too many digits"))
    }
    if by.units == 0 { return .success(text) }
    if let digits { return digits.shifted(by: by, text: text) }
    func number(_ range: Range<Int>) -> Int64 {
      bytes[range].reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }
    var zone = 19
    var fractionDigits = 0
    if bytes[19] == UInt8(ascii: ".") {
      zone = 20
      while bytes[zone] &- UInt8(ascii: "0") < 10 { zone += 1 }
      fractionDigits = zone - 20
    }
    let decimals = max(fractionDigits, by.decimals)
    guard decimals <= 18 else {
      return .failure(Reason(text: "cannot shift '\(text)': its fraction has too many digits"))
    }
    let scale = NMEARedactor.power(decimals)
    let days = RaspTimestamp.days(year: number(0..<4), month: number(5..<7), day: number(8..<10))
    let seconds = days * 86_400 + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19)
    let fraction =
      fractionDigits == 0
      ? 0 : Int128(number(20..<zone)) * NMEARedactor.power(decimals - fractionDigits)
    let total =
      Int128(seconds) * scale + fraction + by.units * NMEARedactor.power(decimals - by.decimals)
    var whole = total / scale
    var rest = total % scale
    if rest < 0 {
      rest += scale
      whole -= 1
    }
    var day = whole / 86_400
    var second = whole % 86_400
    if second < 0 {
      second += 86_400
      day -= 1
    }
    guard let dayCount = Int64(exactly: day) else {
      return .failure(Reason(text: "cannot shift '\(text)': the result is out of range"))
    }
    let date = RaspTimestamp.civil(fromDays: dayCount)
    guard years.contains(date.year) else {
      return .failure(
        Reason(
          text: "cannot shift '\(text)': the result is outside the years 0000 to 9999, "
            + "which RFC 3339 writes"))
    }
    func two(_ value: Int128) -> String { NMEARedactor.padded(value, to: 2) }
    var written =
      NMEARedactor.padded(Int128(date.year), to: 4) + "-" + two(Int128(date.month)) + "-"
      + two(Int128(date.day)) + String(UnicodeScalar(bytes[10])) + two(second / 3600) + ":"
      + two(second / 60 % 60) + ":" + two(second % 60)
    if decimals > 0 { written += "." + NMEARedactor.padded(rest, to: decimals) }
    written += String(decoding: bytes[zone...], as: UTF8.self)
    return .success(written)
  }

  /// A time written as a string of digits, `"1795339800005"` or `"1795339800.005"`: an epoch
  /// time in its own unit, as a number is. Shifted exactly, and written in the form it had:
  /// as many fraction digits, or as many as `by` has when it has more, and the whole part
  /// padded with zeros to the width it had (`"0042"` by `1` is `"0043"`).
  struct DigitString {
    let isNegative: Bool
    /// The digits before the point, and after it.
    let whole: ArraySlice<UInt8>
    let fraction: ArraySlice<UInt8>

    /// The digits of `bytes`: an optional `-`, digits, and an optional point with digits
    /// after it; `nil` for anything else.
    init?(_ bytes: [UInt8]) {
      var start = 0
      isNegative = bytes.first == UInt8(ascii: "-")
      if isNegative { start = 1 }
      let point = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
      whole = bytes[start..<point]
      fraction = point < bytes.endIndex ? bytes[(point + 1)...] : []
      func isDigits(_ part: ArraySlice<UInt8>) -> Bool {
        part.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
      }
      guard !whole.isEmpty, isDigits(whole), isDigits(fraction),
        point == bytes.endIndex || !fraction.isEmpty
      else { return nil }
    }

    /// The time shifted by `by` (units of `10^-decimals`), written as it was.
    func shifted(by: (units: Int128, decimals: Int), text: String) -> Result<String, Reason> {
      let decimals = max(fraction.count, by.decimals)
      guard whole.count <= 19, decimals <= 18 else {
        return .failure(Reason(text: "cannot shift '\(text)': too many digits"))
      }
      func number(_ digits: ArraySlice<UInt8>) -> Int128 {
        digits.reduce(0) { $0 * 10 + Int128($1 - UInt8(ascii: "0")) }
      }
      let scale = NMEARedactor.power(decimals)
      let magnitude =
        number(whole) * scale + number(fraction) * NMEARedactor.power(decimals - fraction.count)
      let total =
        (isNegative ? -magnitude : magnitude) + by.units
        * NMEARedactor.power(decimals - by.decimals)
      let absolute = total < 0 ? -total : total
      var written = total < 0 ? "-" : ""
      written += NMEARedactor.padded(absolute / scale, to: whole.count)
      if decimals > 0 { written += "." + NMEARedactor.padded(absolute % scale, to: decimals) }
      return .success(written)
    }
  }
}
