import RaspJSON
import Testing

@Suite struct JSONTextPositionTests {
  @Test(arguments: [
    ("", 0, "1:1"), ("abc", 0, "1:1"), ("abc", 2, "1:3"), ("abc", 3, "1:4"), ("abc", 99, "1:4"),
    ("ab\ncd", 2, "1:3"), ("ab\ncd", 3, "2:1"), ("ab\ncd", 4, "2:2"), ("a\r\nb", 3, "2:1"),
    ("\n\n\nx", 3, "4:1"), ("éé😀x", 8, "1:4"), ("é\né😀x", 9, "2:3"), ("abc", -1, "1:1"),
    // A byte order mark at the very start takes no column; U+FFFF, also starting with 0xEF, does.
    ("\u{FEFF}ab", 3, "1:1"), ("\u{FEFF}ab", 4, "1:2"), ("\u{FEFF}a\nb", 5, "2:1"),
    ("\u{FFFF}ab", 3, "1:2"), ("a\u{FEFF}b", 4, "1:3"),
  ])
  func findsLineAndColumnOfAnOffset(text: String, offset: Int, position: String) {
    #expect(JSONTextPosition(offset: offset, in: Array(text.utf8)).description == position)
    #expect(JSONTextPosition(offset: offset, in: text.utf8).description == position)
  }

  @Test func placesParseErrorsForMessages() throws {
    let text = Array("{\n  \"a\": 1,\n}".utf8)
    let error = try #require(parseError(bytes: text))
    #expect(error.reason == .trailingComma(before: "}"))
    #expect(
      JSONTextPosition(offset: error.offset, in: text) == JSONTextPosition(line: 2, column: 9))
  }
}
