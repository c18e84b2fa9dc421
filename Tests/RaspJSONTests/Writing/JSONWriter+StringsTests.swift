import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONWriterStringsTests {
  private func written(_ text: String) -> String {
    var writer = JSONWriter()
    writer.writeString(text)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func escapesEveryControlCharacterAndDEL() {
    let expected = [
      "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
      "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f",
      "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
      "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
    ]
    for byte in 0..<0x20 {
      let text = String(Unicode.Scalar(UInt8(byte)))
      #expect(written(text) == "\"" + expected[byte] + "\"", "U+\(byte)")
    }
    #expect(written("\u{7F}") == #""\u007f""#)
  }

  @Test(arguments: [
    ("", #""""#), ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#),
    ("a/b", #""a/b""#),
    (
      "é😀\u{80}\u{2028}\u{2029}\u{FEFF}\u{10FFFF}", "\"é😀\u{80}\u{2028}\u{2029}\u{FEFF}\u{10FFFF}\""
    ),
    ("e\u{301}", "\"e\u{301}\""), ("\"\"\n\n", #""\"\"\n\n""#), ("x\u{0}", #""x\u0000""#),
  ])
  func escapesOnlyWhatJSONRequires(text: String, json: String) {
    #expect(written(text) == json)
    #expect(written(text).utf8.elementsEqual(json.utf8), "non-ASCII passes through byte for byte")
  }

  @Test func writesUTF8Buffers() {
    var writer = JSONWriter()
    Array("k\"\u{1}".utf8).withUnsafeBufferPointer { writer.writeString(utf8: $0) }
    #expect(writer.bytes == Array(#""k\"\u0001""#.utf8))
  }

  @Test func escapesEachCharacterAtEachPlaceOfALongString() {
    // The writer looks at eight bytes at a time: each byte to escape, and its neighbours, at
    // each place of a word, with a second one after it, against RFC 8259's table byte by byte.
    let bytes: [UInt8] = Array(0...0x20) + Array("\"#/[\\]~\u{7F}".utf8)
    for byte in bytes {
      for place in 0..<20 {
        var text = Array("abcdefghijklmnopqrst\u{E9}\u{20AC}".utf8)
        text[place] = byte
        text[(place + 9) % 20] = byte
        var writer = JSONWriter()
        text.withUnsafeBufferPointer { writer.writeString(utf8: $0) }
        #expect(writer.bytes == Self.escapedByteByByte(text), "byte \(byte) at \(place)")
      }
    }
  }

  /// RFC 8259's escapes (and DEL's), one byte at a time.
  private static func escapedByteByByte(_ text: [UInt8]) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    var escaped = [UInt8(ascii: "\"")]
    for byte in text {
      switch byte {
      case 0x22: escaped += Array(#"\""#.utf8)
      case 0x5C: escaped += Array(#"\\"#.utf8)
      case 0x08: escaped += Array(#"\b"#.utf8)
      case 0x09: escaped += Array(#"\t"#.utf8)
      case 0x0A: escaped += Array(#"\n"#.utf8)
      case 0x0C: escaped += Array(#"\f"#.utf8)
      case 0x0D: escaped += Array(#"\r"#.utf8)
      case 0..<0x20, 0x7F:
        escaped += Array(#"\u00"#.utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      default: escaped.append(byte)
      }
    }
    return escaped + [UInt8(ascii: "\"")]
  }

  @Test func randomStringsReadBackUnchanged() throws {
    var generator = SplitMix64(seed: 8)
    for _ in 0..<5_000 {
      let text = RandomJSON.string(using: &generator)
      let value = try JSONParser.parse(written(text))
      #expect(value == .string(text))
    }
  }
}
