import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONScannerStringsTests {
  @Test(arguments: [
    (#""""#, ""),
    (#""plain""#, "plain"),
    (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
    (#""\u0041\u00e9\u00E9\u20AC""#, "Aéé€"),
    (#""\ud83d\ude00""#, "😀"),
    (#""\uD83D\uDE00x""#, "😀x"),
    (#""\udbff\udfff""#, "\u{10FFFF}"),
    (#""\u0000""#, "\u{0}"),
    (#""\uFEFF""#, "\u{FEFF}"),
    ("\"\u{FEFF}\"", "\u{FEFF}"),
    (
      "\"é😀\u{7F}\u{10FFFF}\u{FFFF}\u{D7FF}\u{E000}\"", "é😀\u{7F}\u{10FFFF}\u{FFFF}\u{D7FF}\u{E000}"
    ),
    ("\"e\u{301}\"", "e\u{301}"),
  ])
  func decodesStrings(text: String, decoded: String) throws {
    let value = try withScanner(text) { scanner throws(JSONError) in try scanner.readString() }
    #expect(value.unicodeScalars.elementsEqual(decoded.unicodeScalars))
    #expect(try JSONParser.parse(text) == .string(decoded))
  }

  @Test func rawStringsLocateContentsWithoutDecoding() throws {
    try withScanner(#"  "ab\n" "cd""#) { scanner throws(JSONError) in
      let first = try scanner.readRawString()
      #expect(first == JSONRawString(start: 3, end: 7, hasEscapes: true))
      #expect(Array(scanner.bytes(of: first)) == Array(#"ab\n"#.utf8))
      #expect(scanner.string(first) == "ab\n")
      let second = try scanner.readRawString()
      #expect(second == JSONRawString(start: 10, end: 12, hasEscapes: false))
      #expect(scanner.position == 13)
    }
  }

  @Test func matchesCompareDecodedText() throws {
    try withScanner(#""type" "\u0074ype" "typ" "types" "t\"pe""#) { scanner throws(JSONError) in
      let plain = try scanner.readRawString()
      let escaped = try scanner.readRawString()
      let short = try scanner.readRawString()
      let long = try scanner.readRawString()
      let quote = try scanner.readRawString()
      #expect(scanner.matches(plain, "type"))
      #expect(scanner.matches(escaped, "type"))
      #expect(!scanner.matches(short, "type"))
      #expect(!scanner.matches(long, "type"))
      #expect(scanner.matches(quote, "t\"pe"))
      #expect(!scanner.matches(plain, "typE"))
    }
  }

  @Test(arguments: [
    (#"""#, 0, "unterminated string: missing closing '\"'"),
    (#"["abc"#, 1, "unterminated string: missing closing '\"'"),
    (#"{"a":"x}"#, 5, "unterminated string: missing closing '\"'"),
    (#""abc\"#, 0, "unterminated string: missing closing '\"'"),
    (#""abc\""#, 0, "unterminated string: missing closing '\"'"),
    (#""a\x""#, 2, "invalid escape '\\x' in string"),
    (#""a\'""#, 2, "invalid escape '\\'' in string"),
    (#""a\U0041""#, 2, "invalid escape '\\U' in string"),
    ("\"a\\\n\"", 2, "invalid escape '\\\\u{0A}' in string"),
    (#""\u12""#, 1, "invalid \\u escape: expected four hexadecimal digits"),
    (#""\u12G4""#, 1, "invalid \\u escape: expected four hexadecimal digits"),
    (#""\u"#, 1, "invalid \\u escape: expected four hexadecimal digits"),
    (
      #""\ud800""#, 1,
      "lone surrogate '\\uD800' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""x\udbffy""#, 2,
      "lone surrogate '\\uDBFF' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\ud800\ud800""#, 1,
      "lone surrogate '\\uD800' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\ud800\n""#, 1,
      "lone surrogate '\\uD800' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\ud800\u0041""#, 1,
      "lone surrogate '\\uD800' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\udc00""#, 1,
      "lone surrogate '\\uDC00' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\ude00\ud83d""#, 1,
      "lone surrogate '\\uDE00' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (
      #""\ud83d\udfff\udfff""#, 13,
      "lone surrogate '\\uDFFF' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
  ])
  func rejectsBadStringsAtTheirOffset(text: String, offset: Int, message: String) throws {
    let error = try #require(parseError(text), "\(text) must not parse")
    #expect(error.offset == offset, "\(text)")
    #expect(error.description == message, "\(text)")
    #expect(skipError(bytes: Array(text.utf8)) == error)
  }

  @Test func rejectsEveryRawControlCharacter() throws {
    for byte in UInt8(0)..<0x20 {
      let bytes: [UInt8] = [
        UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "a"), byte, UInt8(ascii: "\""),
        UInt8(ascii: "]"),
      ]
      let error = try #require(parseError(bytes: bytes))
      #expect(
        error == JSONError(offset: 3, reason: .controlCharacterInString(byte)), "byte \(byte)")
    }
    #expect(
      parseError("\"a\tb\"")?.description == "control character U+0009 must be escaped in a string")
    #expect(try JSONParser.parse("\"\u{7F}\"") == "\u{7F}", "DEL may appear raw")
  }

  /// Ill-formed UTF-8 is reported at the first byte of the ill-formed sequence, naming that byte.
  @Test(arguments: [
    ([0x80], 1, 0x80),  // a stray continuation byte
    ([0xBF], 1, 0xBF),
    ([0xC0, 0x80], 1, 0xC0),  // overlong NUL
    ([0xC1, 0xBF], 1, 0xC1),  // overlong 2-byte
    ([0xE0, 0x80, 0x80], 1, 0xE0),  // overlong 3-byte
    ([0xE0, 0x9F, 0xBF], 1, 0xE0),  // overlong U+07FF
    ([0xF0, 0x80, 0x80, 0x80], 1, 0xF0),  // overlong 4-byte
    ([0xF0, 0x8F, 0xBF, 0xBF], 1, 0xF0),  // overlong U+FFFF
    ([0xED, 0xA0, 0x80], 1, 0xED),  // U+D800 encoded in UTF-8
    ([0xED, 0xBF, 0xBF], 1, 0xED),  // U+DFFF encoded in UTF-8
    ([0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], 1, 0xED),  // a surrogate pair encoded as CESU-8
    ([0xF4, 0x90, 0x80, 0x80], 1, 0xF4),  // beyond U+10FFFF
    ([0xF5, 0x80, 0x80, 0x80], 1, 0xF5),
    ([0xF8, 0x88, 0x80, 0x80, 0x80], 1, 0xF8),
    ([0xFE], 1, 0xFE),
    ([0xFF], 1, 0xFF),
    ([0xC3], 1, 0xC3),  // truncated before the closing quote
    ([0xE2, 0x82], 1, 0xE2),
    ([0xF0, 0x9F, 0x98], 1, 0xF0),
    ([0x61, 0xC3, 0x28], 2, 0xC3),  // a lead byte followed by ASCII
    ([0xE2, 0x28, 0xA1], 1, 0xE2),
    ([0xE2, 0x82, 0x28], 1, 0xE2),
    ([0xF0, 0x9F, 0x98, 0x28], 1, 0xF0),
  ])
  func rejectsIllFormedUTF8(contents: [UInt8], offset: Int, byte: UInt8) throws {
    let bytes = [UInt8(ascii: "\"")] + contents + [UInt8(ascii: "\"")]
    let error = try #require(parseError(bytes: bytes))
    #expect(error == JSONError(offset: offset, reason: .invalidUTF8(byte)), "\(contents)")
    #expect(skipError(bytes: bytes) == error)
  }

  @Test func rejectsASequenceTruncatedByTheEndOfInput() throws {
    for contents: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
      let bytes = [UInt8(ascii: "\"")] + contents
      #expect(parseError(bytes: bytes) == JSONError(offset: 1, reason: .invalidUTF8(contents[0])))
    }
  }

  @Test func acceptsTheBoundariesOfWellFormedUTF8() throws {
    let cases: [[UInt8]] = [
      [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
      [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]
    for contents in cases {
      let value = try JSONParser.parse([UInt8(ascii: "\"")] + contents + [UInt8(ascii: "\"")])
      #expect(value == .string(String(decoding: contents, as: UTF8.self)))
    }
  }

  @Test func decodesRandomlyEscapedStrings() throws {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let string = RandomJSON.string(using: &generator)
      let text = RandomSpelling.string(string, using: &generator)
      let value = try JSONParser.parse(text)
      #expect(value == .string(string), "\(text)")
    }
  }
}
