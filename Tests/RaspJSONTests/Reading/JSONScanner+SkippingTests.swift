import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONScannerSkippingTests {
  @Test func skipsAValueAndReturnsWhereItStarts() throws {
    try withScanner(#"{"a": {"b": [1, "x", null]}, "c": 2}"#) { scanner throws(JSONError) in
      var members = try scanner.beginObject()
      _ = try scanner.nextMember(&members)
      let start = try scanner.skipValue()
      #expect(start == 6)
      #expect(scanner.position == 27)
      #expect(scanner.depth == 1)
      let key = try scanner.nextMember(&members)
      #expect(key.map { scanner.matches($0, "c") } == true)
    }
  }

  @Test func skipsEveryKind() throws {
    for text in ["null", "true", "false", "-1.5e3", #""s""#, "[]", "{}", #"[{"a":[{}]}]"#] {
      let end = try withScanner(" " + text + " ") { scanner throws(JSONError) in
        let start = try scanner.skipValue()
        #expect(start == 1)
        return scanner.position
      }
      #expect(end == 1 + text.utf8.count, "\(text)")
    }
  }

  @Test(arguments: [
    (#"{"a":1,"a":2}"#, 7, "a"),
    (#"{"a":1,"b":2,"a":3,"b":4}"#, 13, "a"),
    (#"{"b":1,"a":1,"b":2,"a":2}"#, 13, "b"),
    (#"{"a":1,"a":2,"a":3}"#, 7, "a"),
    (#"{"a":1,"\u0061":2}"#, 7, "a"),
    (#"{"\u0061":1,"a":2}"#, 12, "a"),
    (#"{"\/":1,"/":2}"#, 8, "/"),
    (#"{"😀":1,"\ud83d\ude00":2}"#, 10, "😀"),
    (#"{"x":{"a":1,"b":{"a":2},"a":3}}"#, 24, "a"),
    (#"{"":1,"":2}"#, 6, ""),
  ])
  func rejectsDuplicateKeysAtTheSecondOccurrence(text: String, offset: Int, key: String) throws {
    let expected = JSONError(offset: offset, reason: .duplicateKey(key))
    #expect(skipError(bytes: Array(text.utf8)) == expected, "\(text)")
    #expect(parseError(text) == expected, "\(text)")
  }

  @Test func keysOfNestedAndSiblingObjectsAreIndependent() throws {
    let text = #"{"a":{"a":{"a":1}},"b":{"a":2,"b":{"a":3}},"c":[{"a":1},{"a":2}]}"#
    #expect(skipError(bytes: Array(text.utf8)) == nil)
    #expect(parseError(text) == nil)
  }

  @Test func canonicallyEquivalentKeysAreNotDuplicates() throws {
    let text = "{\"\u{E9}\":1,\"e\u{301}\":2}"
    #expect(skipError(bytes: Array(text.utf8)) == nil)
    #expect(try JSONParser.parse(text)["\u{E9}"] == 1)
  }

  /// Objects of more than 32 keys take a hashed path; it must agree with the short one.
  @Test(arguments: [33, 34, 40, 100, 1000])
  func rejectsDuplicatesAmongManyKeys(count: Int) throws {
    let keys = (0..<count).map { "k\($0)" }
    func object(_ keys: [String]) -> String {
      "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
    }
    let unique = object(keys)
    #expect(skipError(bytes: Array(unique.utf8)) == nil)
    #expect(try JSONParser.parse(unique)["k\(count - 1)"] == .number(JSONNumber(count - 1)))

    for (first, second) in [(0, count - 1), (count - 2, count - 1), (5, 32), (31, 31)] {
      var withDuplicate = keys
      withDuplicate.insert(keys[first], at: second + 1)
      let text = object(withDuplicate)
      let offset = prefixLength(text, members: second + 1)
      let expected = JSONError(offset: offset, reason: .duplicateKey(keys[first]))
      #expect(skipError(bytes: Array(text.utf8)) == expected, "\(count) keys, \(first) repeated")
      #expect(parseError(text) == expected, "\(count) keys, \(first) repeated")
    }

    // An escaped spelling of an earlier key, and canonically equivalent keys, beyond 32 keys.
    let escaped = object(keys).dropLast() + #","\u006b0":0}"#
    #expect(skipError(bytes: Array(escaped.utf8))?.reason == .duplicateKey("k0"))
    #expect(parseError(String(escaped))?.reason == .duplicateKey("k0"))
    let equivalent = object(keys + ["\u{E9}", "e\u{301}"])
    #expect(skipError(bytes: Array(equivalent.utf8)) == nil)
    #expect(parseError(equivalent) == nil)
  }

  /// The byte offset of the key of member `index` in the text of `object(_:)`.
  private func prefixLength(_ text: String, members index: Int) -> Int {
    var commas = 0
    for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: ",") {
      commas += 1
      if commas == index { return offset + 1 }
    }
    return 1
  }

  @Test func duplicateKeysAreReportedBeforeLaterMistakes() throws {
    let text = #"{"a":1,"a":2,}"#
    let expected = JSONError(offset: 7, reason: .duplicateKey("a"))
    #expect(skipError(bytes: Array(text.utf8)) == expected)
    #expect(parseError(text) == expected)
  }

  @Test func sameKeyComparesDecodedText() throws {
    try withScanner(#""ab" "a\u0062" "abc" "\u0061b""#) { scanner throws(JSONError) in
      let plain = try scanner.readRawString()
      let escaped = try scanner.readRawString()
      let longer = try scanner.readRawString()
      let other = try scanner.readRawString()
      #expect(scanner.sameKey(plain, escaped))
      #expect(scanner.sameKey(escaped, other))
      #expect(!scanner.sameKey(plain, longer))
      #expect(!scanner.sameKey(longer, escaped))
    }
  }

  /// Skipping validates exactly what parsing does: on random documents and their corruptions,
  /// both accept or both reject with the same error.
  @Test func skippingAndParsingAgreeOnRandomInput() {
    var generator = SplitMix64(seed: 31)
    let insertions: [[UInt8]] = [
      [UInt8(ascii: ",")], [UInt8(ascii: "]")], [UInt8(ascii: "}")], [UInt8(ascii: "\"")],
      [UInt8(ascii: ":")], [0], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [UInt8(ascii: "\\")],
      Array("\\u".utf8), Array("\\ud800".utf8), [UInt8(ascii: "-")], [UInt8(ascii: ".")],
      Array("NaN".utf8), [UInt8(ascii: "'")], [0x0A], [0x01], [UInt8(ascii: "{")],
    ]
    for _ in 0..<3_000 {
      let value = RandomJSON.value(using: &generator)
      var bytes = Array(RandomSpelling.text(of: value, using: &generator).utf8)
      #expect(skipError(bytes: bytes) == nil)
      switch Int.random(in: 0..<3, using: &generator) {
      case 0 where !bytes.isEmpty:
        bytes.removeLast(Int.random(in: 1...bytes.count, using: &generator))
      case 1 where !bytes.isEmpty:
        bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
      default:
        bytes.insert(
          contentsOf: insertions.randomElement(using: &generator)!,
          at: Int.random(in: 0...bytes.count, using: &generator))
      }
      #expect(
        skipError(bytes: bytes) == parseError(bytes: bytes),
        "\(String(decoding: bytes, as: UTF8.self))")
    }
  }
}
