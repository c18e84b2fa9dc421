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
    ("nav.stack[]", [JSONPath.Component.key("nav"), .key("stack")], [JSONPath.Filter.each]),
    ("nav.stack.[]", [.key("nav"), .key("stack")], [.each]),
    (".[]", [], [.each]),
    ("[ ]", [], [.each]),
    ("a[][]", [.key("a")], [.each, .each]),
    ("a[].b[0]", [.key("a")], [.each, .key("b"), .index(0)]),
    (#"a[]["x y"]"#, [.key("a")], [.each, .key("x y")]),
    ("a[2:4]", [.key("a")], [.slice(start: 2, end: 4)]),
    ("a[:-1]", [.key("a")], [.slice(start: nil, end: -1)]),
    ("a[1:]", [.key("a")], [.slice(start: 1, end: nil)]),
    ("a[ -2 : 9 ]", [.key("a")], [.slice(start: -2, end: 9)]),
    ("a[1:][0]", [.key("a")], [.slice(start: 1, end: nil), .index(0)]),
    ("a|keys", [.key("a")], [.keys]),
    ("a | keys | length", [.key("a")], [.keys, .length]),
    ("a|length|length", [.key("a")], [.length, .length]),
    ("a|first", [.key("a"), .index(0)], []),
    ("a|last", [.key("a"), .index(-1)], []),
    ("a|first.b", [.key("a"), .index(0), .key("b")], []),
    ("a|last|length", [.key("a"), .index(-1)], [.length]),
    ("a|keys[0]", [.key("a")], [.keys, .index(0)]),
    ("a|keys|first", [.key("a")], [.keys, .index(0)]),
    ("a[]|first", [.key("a")], [.each, .index(0)]),
    ("|keys", [], [.keys]),
    (".|keys", [], [.keys]),
    ("a|length", [.key("a")], [.length]),
    ("keys.first", [.key("keys"), .key("first")], []),
  ])
  func parsesFiltersWhenAllowed(
    text: String, components: [JSONPath.Component], filters: [JSONPath.Filter]
  ) throws {
    let path = try JSONPath(text, allowsFilters: true)
    #expect(path.components == components, "\(text)")
    #expect(path.filters == filters, "\(text)")
    #expect(path.selectsLength == (filters == [.length]), "\(text)")
    #expect(path.isLocatable == (filters.isEmpty || filters == [.length]), "\(text)")
  }

  @Test(arguments: [
    ("a[]", 2, "'[]' is only allowed in --select"),
    ("a[1:2]", 2, "slices such as '[1:3]' are only allowed in --select"),
    ("a[:2]", 2, "slices such as '[1:3]' are only allowed in --select"),
    ("a|keys", 3, "'keys' is only allowed in --select"),
    ("a | first", 5, "'first' is only allowed in --select"),
    ("a|last", 3, "'last' is only allowed in --select"),
  ])
  func rejectsFiltersWhenNotAllowed(text: String, column: Int, reason: String) {
    #expect(throws: JSONPathError(text: text, column: column, reason: reason)) {
      try JSONPath(text)
    }
  }

  @Test(arguments: [
    ("a[:]", 3, "a slice needs a start or an end, as in '[1:]' or '[:-1]'"),
    ("a[1:x]", 5, "missing ']'"),
    ("a[1:2:3]", 6, "missing ']'"),
    ("a[-:2]", 3, "invalid index '-'"),
    ("a[1:-]", 5, "invalid index '-'"),
    ("a[", 2, "missing ']'"),
    ("a[x]", 3, "expected an index, a slice, ']' or a quoted key after '['"),
    ("a|len", 3, "only 'length', 'keys', 'first' or 'last' may follow '|'"),
    ("a|", 3, "only 'length', 'keys', 'first' or 'last' may follow '|'"),
    ("a|.b", 3, "only 'length', 'keys', 'first' or 'last' may follow '|'"),
    ("a|select(.b)", 3, "only 'length', 'keys', 'first' or 'last' may follow '|'"),
    ("a|firstx", 8, "expected '.' or '[' before 'x'"),
    ("a|first.", 9, "the path ends with '.'"),
    ("a|first..b", 9, "empty key"),
    ("a[] b", 5, "unexpected 'b'"),
    ("a[]?", 4, "expected '.' or '[' before '?'"),
    ("a[1,2]", 4, "missing ']'"),
    ("a[].*", 5, "'*' is only allowed in patterns such as --ignore"),
  ])
  func reportsMistakesInFiltersAtTheirColumn(text: String, column: Int, reason: String) {
    #expect(throws: JSONPathError(text: text, column: column, reason: reason)) {
      try JSONPath(text, allowsFilters: true)
    }
  }

  @Test func patternsCannotFollowFilters() {
    let reason = "a pattern cannot follow '[]', a slice or a function"
    #expect(throws: JSONPathError(text: "a[].*", column: 5, reason: reason)) {
      try JSONPath("a[].*", allowsPatterns: true, allowsFilters: true)
    }
    #expect(throws: JSONPathError(text: "a|keys[*]", column: 8, reason: reason)) {
      try JSONPath("a|keys[*]", allowsPatterns: true, allowsFilters: true)
    }
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
