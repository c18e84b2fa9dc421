import RaspJSON
import Testing

@Suite struct JSONRawPrinterTests {
  private func raw(_ json: String) -> [UInt8] {
    var output: [UInt8] = Array(">".utf8)
    JSONRawPrinter.append(Array(json.utf8)[...], to: &output)
    return Array(output.dropFirst())
  }

  @Test(arguments: [
    (#""home""#, "home"),
    (#""""#, ""),
    (#""Zoë 😀""#, "Zoë 😀"),
    (#""a\"b\\c\/d""#, #"a"b\c/d"#),
    (#""line\nnext\ttab\r""#, "line\nnext\ttab\r"),
    (#""\u00e9\ud83d\ude00\u2028""#, "é😀\u{2028}"),
    (#""nul\u0000del\u007f""#, "nul\u{0}del\u{7F}"),
  ])
  func writesStringsAsTheirText(json: String, text: String) {
    #expect(raw(json) == Array(text.utf8), "\(json)")
  }

  @Test(arguments: ["null", "true", "271.5", "-0.5", "[]", #"["a","b"]"#, #"{"a":"b"}"#])
  func leavesOtherValuesAsTheyAre(json: String) {
    #expect(raw(json) == Array(json.utf8))
  }

  @Test(arguments: [#""unterminated"#, #""a" "b""#, #""bad \x escape""#])
  func leavesTextThatIsNotOneStringAsItIs(json: String) {
    #expect(raw(json) == Array(json.utf8))
  }

  @Test func appendsToWhatIsThere() {
    var output = Array("a\n".utf8)
    JSONRawPrinter.append(Array(#""b""#.utf8)[...], to: &output)
    #expect(output == Array("a\nb".utf8))
  }
}
