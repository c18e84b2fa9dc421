import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONNumberTests {
  @Test func integersAreKeptExact() {
    let id = JSONNumber(9_007_199_254_740_993 as Int64)
    #expect(id.isInteger)
    #expect(id.integerValue == 9_007_199_254_740_993)
    #expect(id.description == "9007199254740993")
    #expect(JSONNumber(Int64.min).integerValue == .min)
    #expect(JSONNumber(Int64.max).integerValue == .max)
    #expect(JSONNumber(3 as Int).integerValue == 3)
  }

  @Test func doublesAreNotIntegersEvenWhenIntegral() {
    #expect(!JSONNumber(3.0).isInteger)
    #expect(JSONNumber(3.0).integerValue == 3)
    #expect(JSONNumber(4.5).integerValue == nil)
    #expect(JSONNumber(1e19).integerValue == nil, "beyond Int64.max")
    #expect(JSONNumber(-9_223_372_036_854_775_808.0).integerValue == .min)
    #expect(
      JSONNumber(9_223_372_036_854_775_808.0).integerValue == nil, "2^63 is one beyond Int64.max")
  }

  /// A number as JSON text reads it.
  private func parsed(_ text: String) throws -> JSONNumber {
    guard case .number(let number) = try JSONParser.parse(text) else {
      throw JSONError(offset: 0, reason: .unexpectedEnd(expected: "a number"))
    }
    return number
  }

  @Test func wholeNumbersBeyondInt64AreKeptExactly() throws {
    let id = try parsed("12345678901234567890")
    #expect(id.isInteger && id.integerValue == nil)
    #expect(id.description == "12345678901234567890")
    #expect(id.doubleValue == 1.2345678901234567e19)
    #expect(try parsed("-12345678901234567890").description == "-12345678901234567890")
    #expect(try parsed("12345678901234567890.000").description == "12345678901234567890")
    #expect(id != (try parsed("12345678901234567891")), "one apart, the same double")
    #expect(id == (try parsed("12345678901234567890.0")))
    // Past 2^53 with a fraction of zeros: the integer it denotes, not the nearest double.
    #expect(try parsed("9007199254740993.0").integerValue == 9_007_199_254_740_993)
    #expect(try parsed("9007199254740993.0") == JSONNumber(9_007_199_254_740_993 as Int64))
    // Written with an exponent, a number is a double, equal to the whole number it is exactly.
    #expect(!(try parsed("1e19")).isInteger)
    #expect(try parsed("1e19") == (try parsed("10000000000000000000")))
    // 12345678901234567890 as a double is exactly 12345678901234567168 (Python's int()).
    #expect(JSONNumber(1.2345678901234567e19) == (try parsed("12345678901234567168")))
    // A double is compared as the double it is, the nearest to the digits written.
    #expect(JSONNumber(1.2345678901234567e19) == id)
    #expect(JSONNumber(1e23) == (try parsed("100000000000000000000000")))
    #expect(Set([JSONNumber(1e23), try parsed("100000000000000000000000")]).count == 1)
    #expect(Set([JSONNumber(1e19), try parsed("10000000000000000000")]).count == 1)
    #expect(try parsed("1.5").exactInteger == nil)
  }

  /// Expected values from Python's `int()` of the same doubles.
  @Test func theExactIntegerOfADoubleIsItsValue() throws {
    #expect(JSONNumber(1e19).exactInteger == Int128("10000000000000000000"))
    #expect(JSONNumber(0x1p64).exactInteger == Int128("18446744073709551616"))
    #expect(JSONNumber(-1.2345678901234567e19).exactInteger == Int128("-12345678901234567168"))
    #expect(JSONNumber(-3.0).exactInteger == -3)
    #expect(JSONNumber(0.5).exactInteger == nil)
    #expect(JSONNumber(1e300).exactInteger == nil, "beyond 128 bits")
    #expect(JSONNumber(Double.infinity).exactInteger == nil)
    let wide = JSONNumber(Int128.min)
    #expect(wide.isInteger && wide.integerValue == nil)
    #expect(wide.description == "-170141183460469231731687303715884105728")
    #expect(JSONNumber(Int128(Int64.max)).integerValue == .max, "stored in 64 bits")
  }

  @Test func doubleValueRoundsLargeIntegers() {
    #expect(JSONNumber(2 as Int64).doubleValue == 2.0)
    #expect(JSONNumber(9_007_199_254_740_993 as Int64).doubleValue == 9_007_199_254_740_992.0)
  }

  @Test func exactlyRejectsNaNAndInfinities() {
    #expect(JSONNumber(exactly: .nan) == nil)
    #expect(JSONNumber(exactly: .infinity) == nil)
    #expect(JSONNumber(exactly: -.infinity) == nil)
    #expect(JSONNumber(exactly: 1.5) == JSONNumber(1.5))
    #expect(JSONNumber(exactly: -0.0) == JSONNumber(0))
  }

  @Test(arguments: [
    (JSONNumber(3), JSONNumber(3.0), true),
    (JSONNumber(0), JSONNumber(-0.0), true),
    (JSONNumber(0.0), JSONNumber(-0.0), true),
    (JSONNumber(1), JSONNumber(1.5), false),
    (JSONNumber(Int64.max), JSONNumber(9_223_372_036_854_775_808.0), false),
    (JSONNumber(Int64.min), JSONNumber(-9_223_372_036_854_775_808.0), true),
    (JSONNumber(9_007_199_254_740_993 as Int64), JSONNumber(9_007_199_254_740_992.0), false),
    (JSONNumber(9_007_199_254_740_992 as Int64), JSONNumber(9_007_199_254_740_992.0), true),
    (JSONNumber(0.1), JSONNumber(0.1), true),
    (JSONNumber(0.1), JSONNumber(0.30000000000000004 - 0.2), false),
  ])
  func comparesByValue(a: JSONNumber, b: JSONNumber, equal: Bool) {
    #expect((a == b) == equal, "\(a) == \(b)")
    #expect((b == a) == equal, "\(b) == \(a)")
    if equal { #expect(a.hashValue == b.hashValue, "equal numbers hash alike: \(a), \(b)") }
  }

  @Test func equalNumbersHashAlikeForRandomIntegers() {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let integer = Int64.random(in: -(1 << 60)...(1 << 60), using: &generator)
      let double = Double(integer)
      guard let exact = Int64(exactly: double) else { continue }
      let a = JSONNumber(exact)
      let b = JSONNumber(double)
      #expect(a == b)
      #expect(Set([a, b]).count == 1, "\(exact)")
    }
  }

  @Test(arguments: [
    (JSONNumber(3.0), "3"),
    (JSONNumber(-0.0), "0"),
    (JSONNumber(271.5), "271.5"),
    (JSONNumber(1e-5), "1e-05"),
    (JSONNumber(1.5e300), "1.5e+300"),
    (JSONNumber(Int64.min), "-9223372036854775808"),
    (JSONNumber(9_007_199_254_740_992.0), "9007199254740992"),
    (JSONNumber(9_007_199_254_740_994.0), "9.007199254740994e+15"),
    (JSONNumber(.nan), "null"),
  ])
  func describesItselfCanonically(number: JSONNumber, text: String) {
    #expect(number.description == text)
  }
}
