import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPathFiltersTests {
  static let state: JSONValue = [
    "nav": ["stack": ["home", "list", "detail"], "modal": nil],
    "rest": ["links": ["self": "/a", "next": "/b", "émoji": "/c"]],
    "items": [["sku": "A-1", "price": 20], ["sku": "B-2"], 7],
    "name": "Zoë 😀 n",
    "debt": -12.5,
    "flag": true,
    "empty": [],
  ]

  /// Each value's canonical JSON, in order.
  private func select(_ text: String, in value: JSONValue = state) throws -> [String] {
    try JSONPath(text, allowsFilters: true).values(in: value).map { value in
      var writer = JSONWriter()
      writer.write(value)
      return String(decoding: writer.bytes, as: UTF8.self)
    }
  }

  @Test(arguments: [
    ("nav.stack[]", [#""home""#, #""list""#, #""detail""#]),
    ("nav.stack.[]", [#""home""#, #""list""#, #""detail""#]),
    ("rest.links[]", [#""/b""#, #""/a""#, #""/c""#]),
    ("items[].sku", [#""A-1""#, #""B-2""#, "null"]),
    ("items[].price", ["20", "null", "null"]),
    ("items[]|length", ["2", "1", "7"]),
    ("empty[]", []),
    ("empty[][]", []),
    ("nav.modal[]", ["null"]),
    ("nav.missing[]", ["null"]),
    ("name[]", ["null"]),
    ("flag[]", ["null"]),
    ("nav.stack[][]", ["null", "null", "null"]),
  ])
  func iteratesOverElementsAndMembers(path: String, values: [String]) throws {
    #expect(try select(path) == values, "\(path)")
  }

  @Test(arguments: [
    ("nav.stack[1:]", #"["list","detail"]"#),
    ("nav.stack[:-1]", #"["home","list"]"#),
    ("nav.stack[1:2]", #"["list"]"#),
    ("nav.stack[-2:]", #"["list","detail"]"#),
    ("nav.stack[-10:2]", #"["home","list"]"#),
    ("nav.stack[2:10]", #"["detail"]"#),
    ("nav.stack[5:]", "[]"),
    ("nav.stack[2:1]", "[]"),
    ("nav.stack[:-10]", "[]"),
    ("name[0:3]", #""Zoë""#),
    ("name[4:5]", #""😀""#),
    ("name[-1:]", #""n""#),
    ("name[:-2]", #""Zoë 😀""#),
    ("name[9:]", #""""#),
    ("nav.stack[1:][0]", #""list""#),
    ("nav.stack[1:]|length", "2"),
    ("nav.modal[1:]", "null"),
    ("debt[1:]", "null"),
    ("rest.links[1:]", "null"),
  ])
  func slicesArraysAndStringsAsJQDoes(path: String, value: String) throws {
    #expect(try select(path) == [value], "\(path)")
  }

  @Test(arguments: [
    ("rest.links|keys", #"["next","self","émoji"]"#),
    ("nav.stack|keys", "[0,1,2]"),
    ("empty|keys", "[]"),
    ("rest.links|keys|length", "3"),
    ("rest.links|keys[0]", #""next""#),
    ("rest.links|keys|last", #""émoji""#),
    ("name|keys", "null"),
    ("nav.modal|keys", "null"),
    ("debt|keys", "null"),
  ])
  func listsKeysSortedAndIndices(path: String, value: String) throws {
    #expect(try select(path) == [value], "\(path)")
  }

  @Test(arguments: [
    ("rest.links|length", "3"),
    ("name|length", "7"),
    ("nav.modal|length", "0"),
    ("debt|length", "12.5"),
    ("items[0].price|length", "20"),
    ("flag|length", "null"),
    ("nav.missing|length", "null"),
    ("name|length|length", "7"),
    ("nav.stack|first", #""home""#),
    ("nav.stack|last", #""detail""#),
    ("nav.stack|first|length", "4"),
    ("items|first.sku", #""A-1""#),
    ("empty|first", "null"),
    ("empty|last", "null"),
    ("rest.links|first", "null"),
    ("name|first", "null"),
  ])
  func computesLengthsAndEnds(path: String, value: String) throws {
    #expect(try select(path) == [value], "\(path)")
  }

  @Test func lengthOfNumbersIsTheirAbsoluteValue() throws {
    let path = try JSONPath("n|length", allowsFilters: true)
    #expect(path.evaluate(["n": -3]) == 3)
    #expect(path.evaluate(["n": 4]) == 4)
    #expect(path.evaluate(["n": .number(JSONNumber(-0.25))]) == .number(JSONNumber(0.25)))
    let minimum = path.evaluate(["n": .number(JSONNumber(Int64.min))])
    #expect(minimum == .number(JSONNumber(9_223_372_036_854_775_808.0)))
  }

  @Test func evaluateGivesOneValueOrNil() throws {
    #expect(try JSONPath("nav.stack[1:]|length", allowsFilters: true).evaluate(Self.state) == 2)
    #expect(try JSONPath("nav.stack[]", allowsFilters: true).evaluate(Self.state) == nil)
    #expect(try JSONPath("empty[]", allowsFilters: true).evaluate(Self.state) == nil)
    #expect(try JSONPath("rest[]|length", allowsFilters: true).evaluate(Self.state) == 3)
    #expect(try JSONPath("name|keys", allowsFilters: true).evaluate(Self.state) == nil)
  }

  @Test func selectedLinesAreTheValuesOnePerLine() throws {
    let text = #" {"nav": {"stack": [ "a\nb", {"x" : 1.50}, [] ] }, "s": "\u00e9t\u00e9"} "#
    func lines(_ path: String, droppingFirst: Int = 0, in text: String = text) throws -> String {
      let bytes = Array(text.utf8)
      let path = try JSONPath(path, allowsFilters: true)
      let lines = try path.selectedLines(in: bytes.span, droppingFirst: droppingFirst)
      let inBuffer = try bytes.withUnsafeBufferPointer { buffer in
        try path.selectedLines(in: buffer, droppingFirst: droppingFirst)
      }
      guard inBuffer == lines else { return "span and buffer disagree" }
      return String(decoding: lines, as: UTF8.self)
    }
    #expect(try lines("nav.stack[]") == "\"a\\nb\"\n{\"x\":1.5}\n[]")
    #expect(try lines("nav.stack[2][]") == "")
    #expect(try lines("nav.stack[1:]") == #"[{"x":1.5},[]]"#)
    #expect(try lines("s[1:]") == #""té""#)
    #expect(try lines("nav|keys") == #"["stack"]"#)
    #expect(try lines("nav.missing[]") == "null")
    #expect(try lines("nav.stack|length") == "3")
    #expect(try lines("nav.stack[1]") == #"{"x":1.5}"#)
    #expect(try lines("nav.stack[]", droppingFirst: 1, in: #"{"stack": [1, 2]}"#) == "1\n2")
    #expect(throws: JSONError.self) { try lines("nav[]", in: #"{"nav": [1,]}"#) }
  }

  /// Computing from text agrees with evaluating the parsed value, for random documents in
  /// random spellings and random paths with filters.
  @Test func selectedLinesAgreeWithValuesOnRandomDocuments() throws {
    var generator = SplitMix64(seed: 71)
    for _ in 0..<300 {
      let value = RandomJSON.value(depth: 4, using: &generator)
      let bytes = Array(RandomSpelling.text(of: value, using: &generator).utf8)
      for concrete in RandomJSON.paths(in: value).prefix(20) {
        var filters: [JSONPath.Filter] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          switch Int.random(in: 0..<5, using: &generator) {
          case 0: filters.append(.each)
          case 1: filters.append(.keys)
          case 2: filters.append(.length)
          case 3: filters.append(.slice(start: Int.random(in: -3...3, using: &generator), end: nil))
          default: filters.append(.index(Int.random(in: -2...2, using: &generator)))
          }
        }
        let path = JSONPath(components: concrete, filters: filters)
        var writer = JSONWriter()
        for (index, selected) in path.values(in: value).enumerated() {
          if index > 0 { writer.bytes.append(0x0A) }
          writer.write(selected)
        }
        let lines = try path.selectedLines(in: bytes.span)
        #expect(lines == writer.bytes, "\(path)")
      }
    }
  }
}
