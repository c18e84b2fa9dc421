/// Number formatting for the benchmark's tables, without Foundation.
enum BenchFormat {
  /// `value` rounded to `digits` decimals: `decimal(2.4567, digits: 2)` is `2.46`.
  static func decimal(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "—" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + grouped(whole) }
    return sign + grouped(whole) + "." + String(repeating: "0", count: digits - fraction.count)
      + fraction
  }

  /// A whole number with thousands separated by commas: `1,000,000`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }

  /// A count of lines: `1 line`, `3,711 lines`.
  static func lines(_ count: Int) -> String {
    count == 1 ? "1 line" : grouped(count) + " lines"
  }

  /// Seconds with three significant digits or more: `0.243 s`, `2.41 s`, `25.3 s`.
  static func seconds(_ value: Double) -> String {
    let digits = value < 1 ? 3 : value < 10 ? 2 : 1
    return decimal(value, digits: digits) + " s"
  }

  /// Events per second in millions: `0.41 M`, `40.1 M`.
  static func rate(_ perSecond: Double) -> String {
    let millions = perSecond / 1_000_000
    return decimal(millions, digits: millions < 10 ? 2 : 1) + " M"
  }

  /// Kibibytes as mebibytes: `9.8 MiB`.
  static func memory(_ kilobytes: Int) -> String {
    decimal(Double(kilobytes) / 1024, digits: 1) + " MiB"
  }

  /// A ratio with three significant digits or more: `0.0731×`, `0.731×`, `7.31×`, `10.5×`.
  static func ratio(_ value: Double) -> String {
    decimal(value, digits: value < 0.1 ? 4 : value < 1 ? 3 : value < 10 ? 2 : 1) + "×"
  }

  /// A 64-bit hash as sixteen hexadecimal digits: `77ee0ba0f244d6c3`; `-` for none.
  static func hash(_ value: UInt64?) -> String {
    guard let value else { return "-" }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
