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

  @Test func randomStringsReadBackUnchanged() throws {
    var generator = SplitMix64(seed: 8)
    for _ in 0..<5_000 {
      let text = RandomJSON.string(using: &generator)
      let value = try JSONParser.parse(written(text))
      #expect(value == .string(text))
    }
  }
}
