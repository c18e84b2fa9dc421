import RaspJSON
import Testing

@Suite struct JSONDiffOptionsTests {
  @Test func defaultsToExactComparisonWithNothingIgnored() {
    let options = JSONDiffOptions()
    #expect(options.ignoring.isEmpty)
    #expect(options.tolerance == nil)
    #expect(!options.ignores([]))
    #expect(!options.numbersAreEqual(JSONNumber(1), JSONNumber(1.0000001)))
    #expect(options.numbersAreEqual(JSONNumber(1), JSONNumber(1.0)))
  }

  @Test func ignoresPathsMatchedByAPatternOrBelowOne() throws {
    let options = JSONDiffOptions(ignoring: [
      try JSONPath("**.ts", allowsPatterns: true), try JSONPath("lifecycle"),
    ])
    #expect(options.ignores([.key("ts")]))
    #expect(options.ignores([.key("geo"), .key("ts"), .index(0)]))
    #expect(options.ignores([.key("lifecycle")]))
    #expect(options.ignores([.key("lifecycle"), .key("changedAt")]))
    #expect(!options.ignores([]))
    #expect(!options.ignores([.key("geo")]))
    #expect(!options.ignores([.key("lifecycles")]))
  }

  /// A whole number as JSON text reads it, beyond `Int64`.
  private static func whole(_ text: String) -> JSONNumber {
    guard case .number(let number)? = try? JSONParser.parse(text) else { return JSONNumber(0) }
    return number
  }

  @Test(arguments: [
    (JSONNumber(1.0), JSONNumber(1.005), 0.01, true),
    (JSONNumber(1.0), JSONNumber(1.5), 0.5, true),
    (JSONNumber(1.0), JSONNumber(1.5), 0.4999, false),
    (JSONNumber(-1.0), JSONNumber(1.0), 2.0, true),
    (JSONNumber(10), JSONNumber(12), 1.0, false),
    (JSONNumber(10), JSONNumber(11), 1.0, true),
    (JSONNumber(1.0), JSONNumber(2.0), 0.0, false),
    (JSONNumber(2.0), JSONNumber(2), 0.0, true),
    // Exactly the tolerance apart in decimal, a few units in the last place more in binary.
    (JSONNumber(52.520008), JSONNumber(52.520009), 0.000001, true),
    (JSONNumber(1), JSONNumber(1.1), 0.1, true),
    (JSONNumber(52.520008), JSONNumber(52.5200091), 0.000001, false),
    (JSONNumber(1), JSONNumber(1.1000001), 0.1, false),
    (JSONNumber(1e20), JSONNumber(1.0000000000000002e20), 0.0, false),
    // Whole numbers exactly, past 2^53, where their doubles are equal or a few units apart.
    (JSONNumber(1_795_336_200_000_000_000), JSONNumber(1_795_336_200_000_000_500), 1e-6, false),
    (JSONNumber(1_795_336_200_000_000_000), JSONNumber(1_795_336_200_000_000_500), 500, true),
    (JSONNumber(1_795_336_200_000_000_000), JSONNumber(1_795_336_200_000_000_500), 499.9, false),
    (JSONNumber(9_007_199_254_740_993), JSONNumber(9_007_199_254_740_992), 0.1, false),
    (JSONNumber(9_007_199_254_740_993), JSONNumber(9_007_199_254_740_992), 1, true),
    (JSONNumber(Int64.max), JSONNumber(Int64.min), 1.8446744073709552e19, true),
    (JSONNumber(Int64.max), JSONNumber(Int64.min), 1.844674407370955e19, false),
    (JSONNumber(Int64.max), JSONNumber(Int64.min), 1e300, true),
    (JSONNumber(1), JSONNumber(2), -1, false),
    // Beyond 64 bits, exactly: 12345678901234569999 − 12345678901234567890 = 2109.
    (Self.whole("12345678901234567890"), Self.whole("12345678901234569999"), 0.5, false),
    (Self.whole("12345678901234567890"), Self.whole("12345678901234569999"), 2109, true),
    (Self.whole("12345678901234567890"), Self.whole("12345678901234569999"), 2108.9, false),
    (Self.whole("12345678901234567890"), Self.whole("12345678901234567891"), 0.5, false),
    // 24691357802469135780 apart.
    (Self.whole("-12345678901234567890"), Self.whole("12345678901234567890"), 2.4e19, false),
    (Self.whole("-12345678901234567890"), Self.whole("12345678901234567890"), 2.5e19, true),
    (Self.whole("10000000000000000000"), JSONNumber(1e19), 0, true),
    // Against a double, the nearest to what was written, as doubles: 1e23 is 10^23.
    (Self.whole("10000000000000000001"), JSONNumber(1e19), 0.5, true),
    (Self.whole("100000000000000000000000"), JSONNumber(1e23), 0, true),
    (Self.whole("1000000000000000000000000000000"), JSONNumber(1e30), 1000, true),
    // 2^64 against Int64.max, whose double is 2^63: 2^63 (9223372036854775808) apart.
    (Self.whole("18446744073709551616"), JSONNumber(Int64.max), 0x1p63, true),
    (Self.whole("18446744073709551616"), JSONNumber(Int64.max), 9e18, false),
  ])
  func comparesNumbersWithinTheTolerance(
    a: JSONNumber, b: JSONNumber, tolerance: Double, equal: Bool
  ) {
    let options = JSONDiffOptions(tolerance: tolerance)
    #expect(options.numbersAreEqual(a, b) == equal, "\(a) and \(b) within \(tolerance)")
    #expect(options.numbersAreEqual(b, a) == equal)
  }
}
