import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONScannerNumbersTests {
  private func read(_ text: String) throws(JSONError) -> JSONNumber {
    try withScanner(text) { scanner throws(JSONError) in
      let number = try scanner.readNumber()
      try scanner.expectEnd()
      return number
    }
  }

  @Test(arguments: [
    ("0", Int64(0)), ("-0", 0), ("7", 7), ("-7", -7), ("1234567890", 1_234_567_890),
    ("9223372036854775807", .max), ("-9223372036854775808", .min),
    ("9007199254740993", 9_007_199_254_740_993), ("-9007199254740993", -9_007_199_254_740_993),
    ("1000000000000000000", 1_000_000_000_000_000_000),
  ])
  func keepsIntegersInRangeExact(text: String, value: Int64) throws {
    let number = try read(text)
    #expect(number.isInteger, "\(text)")
    #expect(number.integerValue == value, "\(text)")
    #expect(number.description == String(value))
  }

  /// Whole numbers beyond `Int64` within 128 bits, or past 2^53 with a fraction of zeros,
  /// written without an exponent: kept as the whole number they denote, the digits Python's
  /// `int()` gives, and their double Swift's own `Double(_:)`.
  @Test(arguments: [
    ("9223372036854775808", "9223372036854775808", 9_223_372_036_854_775_808.0),
    ("-9223372036854775809", "-9223372036854775809", -9_223_372_036_854_775_809.0),
    ("9999999999999999999", "9999999999999999999", 9_999_999_999_999_999_999.0),
    ("10000000000000000000", "10000000000000000000", 1e19),
    ("12345678901234567890123", "12345678901234567890123", 1.2345678901234568e22),
    ("9007199254740993.0", "9007199254740993", 9_007_199_254_740_992.0),
    ("-12345678901234567890.000", "-12345678901234567890", -1.2345678901234567e19),
    (
      "170141183460469231731687303715884105727", "170141183460469231731687303715884105727",
      1.7014118346046923e38
    ),
  ])
  func keepsWholeNumbersWrittenWithoutAnExponent(text: String, digits: String, value: Double)
    throws
  {
    let number = try read(text)
    #expect(number.isInteger, "\(text)")
    #expect(number.exactInteger == Int128(digits))
    #expect(number.description == digits)
    #expect(number.doubleValue.bitPattern == value.bitPattern, "\(text)")
  }

  @Test(arguments: [
    ("1.0", 1.0), ("-0.0", -0.0), ("0e0", 0.0), ("1e5", 100_000.0), ("1E+2", 100.0), ("1e-2", 0.01),
    ("0.1", 0.1), ("123.456e-7", 123.456e-7), ("0.000001", 0.000001),
    ("1.7976931348623157e308", 1.7976931348623157e308),
    ("4.9e-324", .leastNonzeroMagnitude), ("2.2250738585072014e-308", 2.2250738585072014e-308),
    ("1e-400", 0.0), ("-1e-400", -0.0), ("0e99999999999", 0.0),
    ("9007199254740993.0000000001", 9_007_199_254_740_994.0),
    // One past Int128.max: the nearest double, as every whole number beyond 128 bits.
    ("170141183460469231731687303715884105728", 1.7014118346046923e38),
    ("0.30000000000000004", 0.30000000000000004),
    ("1e22", 1e22), ("1e23", 1e23),
  ])
  func convertsOtherNumbersToTheNearestDouble(text: String, value: Double) throws {
    let number = try read(text)
    #expect(!number.isInteger, "\(text)")
    #expect(
      number.doubleValue.bitPattern == value.bitPattern,
      "\(text): \(number.doubleValue) != \(value)")
  }

  @Test func readDoubleConvertsIntegers() throws {
    let value = try withScanner(" 9007199254740993 ") { scanner throws(JSONError) in
      try scanner.readDouble()
    }
    #expect(value == 9_007_199_254_740_992.0)
  }

  @Test(arguments: [
    ("-", 0, "invalid number: expected a digit after '-'"),
    ("[-]", 1, "invalid number: expected a digit after '-'"),
    ("- 1", 0, "invalid number: expected a digit after '-'"),
    ("01", 0, "invalid number: leading zeros are not allowed"),
    ("-01", 0, "invalid number: leading zeros are not allowed"),
    ("[00]", 1, "invalid number: leading zeros are not allowed"),
    ("1.", 0, "invalid number: expected a digit after '.'"),
    ("1.e5", 0, "invalid number: expected a digit after '.'"),
    ("[1.]", 1, "invalid number: expected a digit after '.'"),
    ("1e", 0, "invalid number: expected a digit in the exponent"),
    ("1e+", 0, "invalid number: expected a digit in the exponent"),
    ("-2E-x", 0, "invalid number: expected a digit in the exponent"),
    (".5", 0, "expected a value, found '.'"),
    ("+1", 0, "expected a value, found '+'"),
    ("1.5.3", 3, "unexpected '.' after the JSON value"),
    ("1e999", 0, "number '1e999' is out of the range of a double"),
    ("[-1e999]", 1, "number '-1e999' is out of the range of a double"),
    (
      "1.7976931348623159e308", 0, "number '1.7976931348623159e308' is out of the range of a double"
    ),
    ("1e99999999999", 0, "number '1e99999999999' is out of the range of a double"),
  ])
  func rejectsMalformedNumbersAtTheirOffset(text: String, offset: Int, message: String) throws {
    let error = try #require(parseError(text), "\(text) must not parse")
    #expect(error.offset == offset, "\(text)")
    #expect(error.description == message, "\(text)")
    #expect(skipError(bytes: Array(text.utf8)) == error)
  }

  /// Reads `text` and checks it against Swift's own correctly rounded `Double(_:)`, or, for a
  /// whole number written without an exponent, against its digits.
  private func checkAgainstSwift(_ text: String) {
    let isIntegerSyntax = !text.contains(where: { ".eE".contains($0) })
    let parts = text.split(separator: ".", maxSplits: 1)
    let isWhole =
      !text.contains(where: { "eE".contains($0) })
      && (parts.count == 1 || parts[1].allSatisfy { $0 == "0" })
    let reference = Double(text)!
    do {
      let number = try read(text)
      if isIntegerSyntax, let integer = Int64(text) {
        #expect(number.isInteger && number.integerValue == integer, "\(text) must stay exact")
      } else if isWhole, let exact = Int128(String(parts[0])) {
        // The integer as written, within 128 bits.
        #expect(number.exactInteger == exact, "\(text) must stay exact")
        #expect(number.doubleValue.bitPattern == reference.bitPattern, "\(text)")
      } else {
        #expect(!number.isInteger, "\(text)")
        #expect(
          number.doubleValue.bitPattern == reference.bitPattern,
          "\(text): read \(number.doubleValue), Swift reads \(reference)")
      }
    } catch {
      #expect(reference.isInfinite, "\(text): \(error)")
      #expect(error == JSONError(offset: 0, reason: .numberOutOfRange(text)), "\(text)")
    }
  }

  @Test func roundsLikeSwiftOnEdgeCases() {
    let cases = [
      "2.2250738585072011e-308", "2.2250738585072012e-308", "2.4703282292062327e-324",
      "2.4703282292062328e-324", "1.7976931348623158e308", "1.7976931348623158079e308",
      "8.98846567431158e307", "4503599627370496.5", "4503599627370497.5",
      "9007199254740992", "9007199254740992.0", "9007199254740994.0", "9007199254740995.0",
      "0.1000000000000000055511151231257827", "0.1000000000000000055511151231257828",
      "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124",
      "1.00000000000000011102230246251565404236316680908203126",
      "7.3177701707893310e+15", "5e-324", "1e-323", "123456789012345678e-20",
      "1234567890123456789", "12345678901234567890", "-12345678901234567890.5",
      "0.00000000000000000000000000000000000001", "100000000000000000000000e-23",
      "3.141592653589793238462643383279", "1e308", "1e309", "-1e309", "1e-22", "1e-23",
      "9007199254740993e-22", "9007199254740992e-22", "9007199254740992e22", "123e22",
    ]
    for text in cases { checkAgainstSwift(text) }
  }

  @Test func roundsLikeSwiftOnRandomDecimals() {
    var generator = SplitMix64(seed: 2024)
    func digits(_ count: Int, leadingNonZero: Bool) -> String {
      var text = ""
      for index in 0..<count {
        let low = index == 0 && leadingNonZero ? 1 : 0
        text += String(Int.random(in: low...9, using: &generator))
      }
      return text
    }
    for _ in 0..<20_000 {
      var text = Bool.random(using: &generator) ? "-" : ""
      text +=
        Int.random(in: 0..<4, using: &generator) == 0
        ? "0" : digits(Int.random(in: 1...25, using: &generator), leadingNonZero: true)
      if Bool.random(using: &generator) {
        text += "." + digits(Int.random(in: 1...25, using: &generator), leadingNonZero: false)
      }
      if Int.random(in: 0..<5, using: &generator) < 2 {
        text += ["e", "E", "e+", "e-", "E-"].randomElement(using: &generator)!
        text += String(Int.random(in: 0...340, using: &generator))
      }
      checkAgainstSwift(text)
    }
  }

  @Test func roundsLikeSwiftOnTheShortestTextOfRandomDoubles() {
    var generator = SplitMix64(seed: 99)
    for _ in 0..<20_000 {
      let value = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
      guard value.isFinite else { continue }
      checkAgainstSwift(value.description)
      // The same value with extra digits, which takes the long path.
      let parts = value.description.split(separator: "e", maxSplits: 1)
      var mantissa = String(parts[0])
      if !mantissa.contains(".") { mantissa += "." }
      mantissa += "0000000000000000000001"
      checkAgainstSwift(parts.count == 2 ? mantissa + "e" + parts[1] : mantissa)
    }
  }
  /// `plainDecimal` reads what it takes as the scanner and Swift's own `Double(_:)` do, to the
  /// bit and to the byte after, and takes every plain number of at most 15 digits: random
  /// numbers of every shape, plain or not, each followed by a byte that may end or extend it.
  @Test func readsPlainDecimalsAsTheScannerAndSwiftDo() throws {
    var generator = SplitMix64(seed: 38)
    let ends = ["", ",", "}", "e5", "E-2", ".", "x", " "]
    var taken = 0
    for round in 0..<20_000 {
      let negative = generator.next() % 3 == 0
      let integerDigits = Int(generator.next() % 18)
      let fractionDigits = generator.next() % 2 == 0 ? 0 : Int(generator.next() % 18)
      var text = negative ? "-" : ""
      for place in 0..<integerDigits {
        // Mostly no leading zero, sometimes one.
        let digit = place == 0 && round % 7 != 0 ? 1 + generator.next() % 9 : generator.next() % 10
        text += String(digit)
      }
      if round % 5 != 0 || fractionDigits > 0 { text += "." }
      for _ in 0..<fractionDigits { text += String(generator.next() % 10) }
      if text.hasSuffix("."), round % 5 != 0 { text.removeLast() }
      let written = text + ends[Int(generator.next() % UInt64(ends.count))]
      let bytes = Array(written.utf8)
      let plain = bytes.withUnsafeBufferPointer { JSONScanner.plainDecimal(in: $0, from: 0) }
      let digits = text.dropFirst(negative ? 1 : 0)
      let after = written.dropFirst(text.utf8.count)
      let isPlain =
        integerDigits > 0 && (integerDigits == 1 || !digits.hasPrefix("0"))
        && !text.hasSuffix(".") && integerDigits + fractionDigits <= 15
        && !after.hasPrefix("e") && !after.hasPrefix("E")
        && (text.contains(".") || !after.hasPrefix("."))
      #expect((plain != nil) == isPlain, "\(written)")
      guard let plain else { continue }
      taken += 1
      #expect(plain.end == text.utf8.count, "\(written)")
      let scanned = try bytes.withUnsafeBufferPointer { line in
        var scanner = JSONScanner(line)
        let number = try scanner.readNumber()
        return (number.doubleValue, scanner.position)
      }
      #expect(scanned.0.bitPattern == plain.value.bitPattern, "\(written)")
      #expect(scanned.1 == plain.end, "\(written)")
      // Swift's reading, but for `-0`, which the scanner keeps as the integer 0.
      let swift = try #require(Double(text))
      let expected = fractionDigits == 0 && swift == 0 ? 0.0 : swift
      #expect(expected.bitPattern == plain.value.bitPattern, "\(written)")
    }
    #expect(taken > 5_000)
  }
}
