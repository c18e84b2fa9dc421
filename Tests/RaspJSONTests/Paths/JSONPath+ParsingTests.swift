import RaspJSON
import Testing

@Suite struct JSONPathParsingTests {
  @Test(arguments: [
    ("geo.heading", [JSONPath.Component.key("geo"), .key("heading")], false),
    ("nav.stack[-1]", [.key("nav"), .key("stack"), .index(-1)], false),
    (#"data["a.b"]"#, [.key("data"), .key("a.b")], false),
    ("stack.0", [.key("stack"), .key("0")], false),
    ("rest.links|length", [.key("rest"), .key("links")], true),
    ("", [], false),
    (".", [], false),
    ("| length", [], true),
    ("[ -2 ]", [.index(-2)], false),
    ("a[0][1].b", [.key("a"), .index(0), .index(1), .key("b")], false),
    (#"["a"]["b"]"#, [.key("a"), .key("b")], false),
    ("a:b=c~d", [.key("a:b=c~d")], false),
    ("a*", [.key("a*")], false),
  ])
  func parsesComponents(text: String, components: [JSONPath.Component], selectsLength: Bool) throws
  {
    let path = try JSONPath(text)
    #expect(path.components == components)
    #expect(path.selectsLength == selectsLength)
  }

  @Test(arguments: [
    ("*", [JSONPath.Component.anyChild]),
    ("**.ts", [.anyDescendants, .key("ts")]),
    ("a[*].b", [.key("a"), .anyChild, .key("b")]),
    ("a.**", [.key("a"), .anyDescendants]),
    ("[*][*]", [.anyChild, .anyChild]),
  ])
  func parsesPatternsWhenAllowed(text: String, components: [JSONPath.Component]) throws {
    #expect(try JSONPath(text, allowsPatterns: true).components == components)
  }

  @Test(arguments: [
    ("geo..heading", 5, "empty key"),
    ("..", 2, "empty key"),
    ("a..", 3, "empty key"),
    ("é..x", 3, "empty key"),
    ("geo.", 5, "the path ends with '.'"),
    (".a.", 4, "the path ends with '.'"),
    ("a[", 2, "missing ']'"),
    ("a[0", 4, "missing ']'"),
    ("a[1 2]", 5, "missing ']'"),
    (#"a["x""#, 6, "missing ']'"),
    ("a[x]", 3, "expected an index or a quoted key after '['"),
    (#"a["x"#, 3, "invalid quoted key: unterminated string: missing closing '\"'"),
    (#"a["\x"]"#, 4, "invalid quoted key: invalid escape '\\x' in string"),
    ("a[-]", 3, "invalid index '-'"),
    ("[99999999999999999999]", 2, "invalid index '99999999999999999999'"),
    ("a]", 2, "unexpected ']' in a key; write it as [\"…\"]"),
    ("a,b", 2, "unexpected ',' in a key; write it as [\"…\"]"),
    ("a b", 3, "unexpected 'b'"),
    ("a\tb", 3, "unexpected 'b'"),
    ("a|len", 3, "only 'length' may follow '|'"),
    ("a|", 3, "only 'length' may follow '|'"),
    ("a|lengthx", 9, "unexpected 'x'"),
    ("a | length | length", 12, "unexpected '| length'"),
    (#"a["x"]b"#, 7, "expected '.' or '[' before 'b'"),
    ("a[0]é", 5, "expected '.' or '[' before 'é'"),
    ("*", 1, "'*' is only allowed in patterns such as --ignore"),
    ("a.**", 3, "'**' is only allowed in patterns such as --ignore"),
    ("a[*]", 3, "'*' is only allowed in patterns such as --ignore"),
  ])
  func reportsMistakesAtTheirColumn(text: String, column: Int, reason: String) {
    #expect {
      _ = try JSONPath(text)
    } throws: { error in
      guard let error = error as? JSONPathError else { return false }
      #expect(error.text == text)
      #expect(error.column == column, "\(text)")
      #expect(error.reason == reason, "\(text)")
      #expect(error.description == "\(reason) at column \(column)")
      return true
    }
  }

  @Test func errorsCompareByTextColumnAndReason() {
    let error = JSONPathError(text: "a..b", column: 3, reason: "empty key")
    #expect(error == JSONPathError(text: "a..b", column: 3, reason: "empty key"))
    #expect(error != JSONPathError(text: "a..b", column: 2, reason: "empty key"))
    #expect(error.description == "empty key at column 3")
  }
}
