import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONParserTests {
  @Test func parsesIntoCanonicalValues() throws {
    let value = try JSONParser.parse(
      #" {"b": [1, 2.5, -0.0, 1e-5, 9007199254740993, "x\"\n\u00e9\ud83d\ude00"], "#
        + #""a": null, "c": {"z": true, "y": false}} "#)
    #expect(
      value.description
        == #"{"a":null,"b":[1,2.5,0,1e-05,9007199254740993,"x\"\né😀"],"c":{"y":false,"z":true}}"#)
  }

  @Test func parsesFromStringsArraysSpansAndBuffers() throws {
    let text = #"{"heading": 90}"#
    let expected: JSONValue = ["heading": 90]
    #expect(try JSONParser.parse(text) == expected)
    #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    let bytes = Array(text.utf8)
    #expect(try JSONParser.parse(bytes.span) == expected)
    let fromBuffer = try bytes.withUnsafeBufferPointer { buffer in try JSONParser.parse(buffer) }
    #expect(fromBuffer == expected)
  }

  @Test func aSpanOfPartOfALineParsesOnlyItsBytesWithOffsetsFromItsStart() throws {
    // The doc comment's example: the payload inside a line, in place.
    let line = Array(#"{"type":"geo.fix","payload":{"lat":1}}"#.utf8)
    #expect(try JSONParser.parse(line.span.extracting(28..<37)) == ["lat": 1])
    // One byte more is the line's closing brace: text after the value, at the span's offset 9.
    let trailing = #expect(throws: JSONError.self) {
      try JSONParser.parse(line.span.extracting(28..<38))
    }
    #expect(trailing?.offset == 9)
    // One byte fewer leaves the object open, found at the span's end, offset 8.
    let open = #expect(throws: JSONError.self) {
      try JSONParser.parse(line.span.extracting(28..<36))
    }
    #expect(open?.offset == 8)
  }

  @Test(arguments: ["null", "true", "false", "0", "-1.5", #""""#, "[]", "{}", " \t\r\n7\n "])
  func parsesAnyValueAtTheTopLevel(text: String) throws {
    _ = try JSONParser.parse(text)
  }

  @Test func sortsMembersByKey() throws {
    let value = try JSONParser.parse(#"{"b":1,"é":2,"a":3,"Z":4,"\u0000":5}"#)
    guard case .object(let object) = value else {
      Issue.record("expected an object")
      return
    }
    #expect(object.keys == ["\u{0}", "Z", "a", "b", "é"])
  }

  @Test func rejectsAByteOrderMarkAtTheStartOfABuffer() {
    #expect(parseError("\u{FEFF}{}") == JSONError(offset: 0, reason: .byteOrderMark))
  }

  @Test func honoursACustomDepthLimit() throws {
    let error = parseError("[[[1]]]", maximumDepth: 2)
    #expect(error == JSONError(offset: 2, reason: .tooDeep(limit: 2)))
  }

  @Test func readValueLeavesTheScannerAfterTheValue() throws {
    let values = try withScanner(#"[1] {"a":[]} "x""#) { scanner throws(JSONError) -> [JSONValue] in
      var values: [JSONValue] = []
      while true {
        scanner.skipWhitespace()
        if scanner.isAtEnd { return values }
        values.append(try scanner.readValue())
      }
    }
    #expect(values == [[1], ["a": []], "x"])
  }

  @Test func parsesRandomSpellingsOfRandomValues() throws {
    var generator = SplitMix64(seed: 5)
    for _ in 0..<3_000 {
      let value = RandomJSON.value(using: &generator)
      let text = RandomSpelling.text(of: value, using: &generator)
      #expect(try JSONParser.parse(text) == value, "\(text)")
    }
  }
}
