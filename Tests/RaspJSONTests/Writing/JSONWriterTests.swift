import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONWriterTests {
  private func written(_ body: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    body(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func writesCompactCanonicalText() {
    let value: JSONValue = [
      "name": "N\n", "heading": 271.5, "list": [nil, true, false, [], [:]], "": 0,
    ]
    #expect(
      written { $0.write(value) }
        == #"{"":0,"heading":271.5,"list":[null,true,false,[],{}],"name":"N\n"}"#)
  }

  @Test(arguments: [
    (JSONNumber(0), "0"), (JSONNumber(7), "7"), (JSONNumber(-7), "-7"), (JSONNumber(10), "10"),
    (JSONNumber(Int64.max), "9223372036854775807"), (JSONNumber(Int64.min), "-9223372036854775808"),
    (JSONNumber(9_007_199_254_740_993 as Int64), "9007199254740993"),
    (JSONNumber(3.0), "3"), (JSONNumber(-0.0), "0"), (JSONNumber(-3.0), "-3"),
    (JSONNumber(9_007_199_254_740_991.0), "9007199254740991"),
    (JSONNumber(-9_007_199_254_740_991.0), "-9007199254740991"),
    (JSONNumber(9_007_199_254_740_992.0), "9007199254740992"),
    (JSONNumber(-9_007_199_254_740_992.0), "-9007199254740992"),
    (JSONNumber(9_007_199_254_740_994.0), "9.007199254740994e+15"),
    (JSONNumber(18_014_398_509_481_984.0), "1.8014398509481984e+16"),
    (JSONNumber(1e16), "1e+16"), (JSONNumber(1e300), "1e+300"),
    (JSONNumber(0.1), "0.1"), (JSONNumber(-0.5), "-0.5"), (JSONNumber(1e-5), "1e-05"),
    (JSONNumber(0.0001), "0.0001"), (JSONNumber(1.5e300), "1.5e+300"),
    (JSONNumber(0.30000000000000004), "0.30000000000000004"),
    (JSONNumber(.leastNonzeroMagnitude), "5e-324"),
    (JSONNumber(1.7976931348623157e308), "1.7976931348623157e+308"),
    (JSONNumber(271.5), "271.5"), (JSONNumber(123456.789), "123456.789"),
    (JSONNumber(.nan), "null"), (JSONNumber(.infinity), "null"), (JSONNumber(-.infinity), "null"),
  ])
  func writesNumbersInShortestForm(number: JSONNumber, text: String) {
    #expect(written { $0.writeNumber(number) } == text)
    if !number.isInteger { #expect(written { $0.writeNumber(number.doubleValue) } == text) }
  }

  @Test func writesDoublesDirectly() {
    #expect(written { $0.writeNumber(42.0) } == "42")
    #expect(written { $0.writeNumber(0.1) } == "0.1")
    #expect(written { $0.writeNumber(Double.nan) } == "null")
  }

  @Test func writesRandomDoublesSoTheyReadBackExactly() throws {
    var generator = SplitMix64(seed: 3)
    for _ in 0..<20_000 {
      let value = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
      guard value.isFinite else { continue }
      let text = written { $0.writeNumber(value) }
      let reread = try JSONParser.parse(text)
      guard case .number(let number) = reread else {
        Issue.record("\(text) is not a number")
        continue
      }
      #expect(number.doubleValue == value, "\(value) written as \(text)")
      #expect(text.count <= value.description.count, "\(text) is not the shortest form of \(value)")
    }
  }

  @Test func writesIntegersAndLiteralsAndRawText() {
    #expect(written { $0.writeInteger(-42) } == "-42")
    #expect(written { $0.writeInteger(9) } == "9")
    #expect(written { $0.writeInteger(Int64.min) } == "-9223372036854775808")
    #expect(written { $0.writeNull() } == "null")
    #expect(
      written {
        $0.writeBool(true); $0.writeBool(false)
      } == "truefalse")
    #expect(
      written {
        $0.writeRaw("{"); $0.writeKey("a"); $0.writeRaw([UInt8(ascii: "1")]); $0.writeRaw("}")
      } == #"{"a":1}"#)
  }

  @Test func removeAllStartsOver() {
    var writer = JSONWriter(capacity: 8)
    writer.write([1, 2])
    writer.removeAll()
    #expect(writer.bytes.isEmpty)
    writer.write("x")
    #expect(writer.bytes == Array(#""x""#.utf8))
  }

  @Test func parsingWhatWasWrittenGivesTheSameValue() throws {
    var generator = SplitMix64(seed: 1)
    for _ in 0..<3_000 {
      let value = RandomJSON.value(using: &generator)
      let text = written { $0.write(value) }
      let reread = try JSONParser.parse(text)
      #expect(reread == value, "\(text)")
      #expect(written { $0.write(reread) } == text, "canonical text is a fixed point")
    }
  }

  @Test func equalValuesWriteTheSameBytes() throws {
    let a = try JSONParser.parse(#"{"b": [1.0, 2e0, -0], "a": {"y": 1, "x": 0.5E1}}"#)
    let b = try JSONParser.parse(#"{"a":{"x":5,"y":1.0},"b":[1,2,0]}"#)
    #expect(a == b)
    #expect(a.description == b.description)
    #expect(a.description == #"{"a":{"x":5,"y":1},"b":[1,2,0]}"#)
  }

  @Test func writesTheSameDigitsAsSwiftsShortestRoundTripForm() {
    var generator = SplitMix64(seed: 2026)
    var checked = 0
    func check(_ value: Double) {
      guard value.isFinite else { return }
      var writer = JSONWriter()
      writer.writeNumber(value)
      var expected = value.description
      if expected.hasSuffix(".0") { expected.removeLast(2) }
      #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "\(value)")
      checked += 1
    }
    for _ in 0..<50_000 {
      var scale = 1.0
      for _ in 0..<Int.random(in: 1...9, using: &generator) { scale *= 10 }
      check(Double(Int64.random(in: -99_999_999_999...99_999_999_999, using: &generator)) / scale)
      check(Double.random(in: -1000...1000, using: &generator))
      check(Double.random(in: 0.0001...0.01, using: &generator))
      check(Double(bitPattern: generator.next()))
    }
    for value in [
      0.1, 0.3, 0.1 + 0.2, 52.520008, 13.404954, 0.0001, 0.00011, 999_999_999_999_999.9, 5e-5, -0.5,
    ] {
      check(value)
    }
    #expect(checked > 190_000)
  }
}
