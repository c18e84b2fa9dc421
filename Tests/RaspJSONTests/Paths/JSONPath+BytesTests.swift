import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPathBytesTests {
  /// What `path` locates in `text`, found in a span of its bytes (the public form) and in its
  /// buffer (the replay's form), which must agree.
  private func locate(_ path: String, in text: String, droppingFirst: Int = 0) throws -> String {
    let bytes = Array(text.utf8)
    let path = try JSONPath(path)
    let location = try path.locate(in: bytes.span, droppingFirst: droppingFirst)
    let inBuffer = try bytes.withUnsafeBufferPointer { buffer in
      try path.locate(in: buffer, droppingFirst: droppingFirst)
    }
    guard inBuffer == location else { return "span: \(location), buffer: \(inBuffer)" }
    switch location {
    case .value(let range): return String(decoding: bytes[range], as: UTF8.self)
    case .length(let count): return "length \(count)"
    case .missing: return "missing"
    }
  }

  static let document = #"""
     { "geo" : { "heading": 271.5 , "location":null },
       "nav": {"stack": [ "home", {"x": [1, 2]}, "detail" ] },
       "d\u0061ta": {"a.b": 1, "0": "zero", "\u00e9": "e"},
       "s": "e\u0301😀", "debt": -1.5e2 }
    """#

  @Test(arguments: [
    ("geo.heading", "271.5"),
    ("geo.location", "null"),
    ("geo", #"{ "heading": 271.5 , "location":null }"#),
    ("nav.stack[1]", #"{"x": [1, 2]}"#),
    ("nav.stack[-1]", #""detail""#),
    ("nav.stack[-3]", #""home""#),
    ("nav.stack[-4]", "missing"),
    ("nav.stack[3]", "missing"),
    ("nav.stack.1.x[1]", "2"),
    ("nav.stack.01", "missing"),
    (#"nav.stack["+1"]"#, "missing"),
    (#"data["a.b"]"#, "1"),
    ("data.0", #""zero""#),
    ("data[0]", "missing"),
    ("data.é", #""e""#),
    ("geo.heading.x", "missing"),
    ("missing", "missing"),
    ("nav.stack|length", "length 3"),
    ("data|length", "length 3"),
    ("s|length", "length 3"),
    ("geo.location|length", "length 0"),
    ("geo.heading|length", "271.5"),
    ("debt|length", "1.5e2"),
    ("|length", "length 5"),
  ])
  func locatesValuesInText(path: String, located: String) throws {
    #expect(try locate(path, in: Self.document) == located, "\(path)")
  }

  @Test func pathsWithFiltersAreNotLocated() throws {
    let bytes = Array(#"{"a": [1, 2]}"#.utf8)
    let path = try JSONPath("a[1:]", allowsFilters: true)
    #expect(!path.isLocatable)
    #expect(try path.locate(in: bytes.span) == .missing)
  }

  @Test func theEmptyPathLocatesTheWholeValue() throws {
    #expect(try locate(".", in: " [1, 2] ") == "[1, 2]")
  }

  @Test func dropsLeadingComponentsForPartialDocuments() throws {
    #expect(try locate("geo.heading", in: #"{"heading": 90}"#, droppingFirst: 1) == "90")
    #expect(try locate("geo", in: #"{"heading": 90}"#, droppingFirst: 1) == #"{"heading": 90}"#)
  }

  @Test func reportsInvalidTextOnTheWay() {
    #expect(throws: JSONError(offset: 6, reason: .trailingComma(before: "}"))) {
      try locate("b", in: #"{"a":1,}"#)
    }
    #expect(throws: JSONError(offset: 5, reason: .bareWord("nope"))) {
      try locate("a", in: #"{"a":nope}"#)
    }
  }

  /// Locating in text agrees with evaluating the parsed value, for random documents in random
  /// spellings and for every path in them (and some that are not).
  @Test func agreesWithEvaluationOnRandomDocuments() throws {
    var generator = SplitMix64(seed: 77)
    for _ in 0..<400 {
      let value = RandomJSON.value(depth: 4, using: &generator)
      let bytes = Array(RandomSpelling.text(of: value, using: &generator).utf8)
      var paths = RandomJSON.paths(in: value).map { JSONPath(components: $0) }
      for path in paths {
        paths.append(JSONPath(components: path.components, selectsLength: true))
        paths.append(JSONPath(components: path.components + [.key("missing")]))
        paths.append(JSONPath(components: path.components + [.index(-1)]))
        paths.append(JSONPath(components: path.components + [.index(-2)]))
        paths.append(JSONPath(components: path.components + [.key("0")]))
        paths.append(JSONPath(components: path.components + [.key("01")]))
      }
      for path in paths {
        let expected = path.evaluate(value)
        let location = try path.locate(in: bytes.span)
        switch location {
        case .value(let range):
          #expect(try JSONParser.parse(Array(bytes[range])) == expected, "\(path)")
        case .length(let count):
          #expect(expected == .number(JSONNumber(count)), "\(path)")
        case .missing:
          #expect(expected == absent, "\(path)")
        }
      }
    }
  }
}
