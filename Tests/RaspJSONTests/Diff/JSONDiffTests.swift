import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONDiffTests {
  private func differences(
    _ expected: String, _ actual: String, options: JSONDiffOptions = .init()
  ) throws -> [String] {
    try JSONDiff.differences(
      from: JSONParser.parse(expected), to: JSONParser.parse(actual), options: options
    ).map(\.description)
  }

  private func patterns(_ texts: String...) throws -> [JSONPath] {
    try texts.map { try JSONPath($0, allowsPatterns: true) }
  }

  @Test func equalValuesHaveNoDifferences() throws {
    #expect(try differences("null", "null") == [])
    #expect(try differences(#"{"a":[1,{"b":"c"}]}"#, #"{"a":[1,{"b":"c"}]}"#) == [])
    #expect(!JSONDiff.hasDifferences(from: ["a": 1], to: ["a": 1]))
  }

  @Test func keyOrderWhitespaceAndNumberSpellingNeverMatter() throws {
    let expected = #"{"geo":{"heading":90,"location":null},"nav":{"stack":[1,2.5]}}"#
    let actual = """
      { "nav" : { "stack" : [ 1.0, 25e-1 ] },
        "geo" : { "location" : null, "heading" : 9E1 } }
      """
    #expect(try differences(expected, actual) == [])
  }

  @Test func reportsAChangedValueWithItsPath() throws {
    let found = try JSONDiff.differences(
      from: JSONParser.parse(#"{"geo":{"heading":90,"location":null}}"#),
      to: JSONParser.parse(#"{"geo":{"heading":91,"location":null}}"#))
    #expect(found.count == 1)
    #expect(found.first?.path == (try JSONPath("geo.heading")))
    #expect(found.first?.expected == 90)
    #expect(found.first?.actual == 91)
    #expect(found.first?.kind == .changed)
  }

  @Test(arguments: [
    (#"{"a":1}"#, #"{"a":2}"#, ["a: 1 -> 2"]),
    (
      #"{"a":{"b":{"c":[1,{"d":true}]}}}"#, #"{"a":{"b":{"c":[1,{"d":false}]}}}"#,
      ["a.b.c[1].d: true -> false"]
    ),
    (#"{"a":1}"#, #"{"b":1}"#, ["a: - 1", "b: + 1"]),
    (
      #"{"b":1,"d":2}"#, #"{"a":0,"c":0,"e":0}"#,
      ["a: + 0", "b: - 1", "c: + 0", "d: - 2", "e: + 0"]
    ),
    (#"{"x":{"a":1,"z":2}}"#, #"{"x":{"a":1}}"#, ["x.z: - 2"]),
    ("[1]", "[1,2,3]", ["[1]: + 2", "[2]: + 3"]),
    ("[1,2,3]", "[1]", ["[2]: - 3", "[1]: - 2"]),
    ("[1,2,3]", "[9]", ["[0]: 1 -> 9", "[2]: - 3", "[1]: - 2"]),
    ("[1]", "[0,2,3]", ["[0]: 1 -> 0", "[1]: + 2", "[2]: + 3"]),
    ("[]", "[[]]", ["[0]: + []"]),
    (#"[{"a":1},{"a":2}]"#, #"[{"a":1},{"a":3},{}]"#, ["[1].a: 2 -> 3", "[2]: + {}"]),
    (#"{"a":[1]}"#, #"{"a":{}}"#, ["a: [1] -> {}"]),
    (#"{"a":{}}"#, #"{"a":[]}"#, ["a: {} -> []"]),
    (#"{"a":1}"#, #"{"a":"1"}"#, [#"a: 1 -> "1""#]),
    (#"{"a":null}"#, #"{"a":false}"#, ["a: null -> false"]),
    (#"{"a":0}"#, #"{"a":false}"#, ["a: 0 -> false"]),
    ("{}", "[]", [".: {} -> []"]),
    ("1", "2", [".: 1 -> 2"]),
    ("\"\\u00e9\"", "\"e\\u0301\"", [".: \"é\" -> \"e\u{301}\""]),
    (#"{"a/b":1,"~":2}"#, #"{"a/b":3}"#, [#"["a/b"]: 1 -> 3"#, #"["~"]: - 2"#]),
  ])
  func findsDifferencesInDocumentOrder(expected: String, actual: String, found: [String]) throws {
    #expect(try differences(expected, actual) == found)
  }

  @Test func ignoresPathsAndEverythingBelowThem() throws {
    let expected = #"{"geo":{"heading":90,"ts":1},"nav":{"stack":["a"],"ts":1},"ts":1}"#
    let actual = #"{"geo":{"heading":91,"ts":2},"nav":{"stack":["b","c"],"ts":2},"ts":2}"#
    #expect(
      try differences(expected, actual, options: .init(ignoring: patterns("geo"))) == [
        #"nav.stack[0]: "a" -> "b""#, #"nav.stack[1]: + "c""#, "nav.ts: 1 -> 2", "ts: 1 -> 2",
      ])
    #expect(
      try differences(expected, actual, options: .init(ignoring: patterns("**.ts"))) == [
        "geo.heading: 90 -> 91", #"nav.stack[0]: "a" -> "b""#, #"nav.stack[1]: + "c""#,
      ])
    #expect(
      try differences(expected, actual, options: .init(ignoring: patterns("nav.stack.*", "*.ts")))
        == [
          "geo.heading: 90 -> 91", "ts: 1 -> 2",
        ])
    #expect(
      try differences(expected, actual, options: .init(ignoring: patterns("nav.stack[1]"))) == [
        "geo.heading: 90 -> 91", "geo.ts: 1 -> 2", #"nav.stack[0]: "a" -> "b""#, "nav.ts: 1 -> 2",
        "ts: 1 -> 2",
      ])
    #expect(try differences(expected, actual, options: .init(ignoring: patterns("*"))) == [])
    #expect(try differences(expected, actual, options: .init(ignoring: patterns("**"))) == [])
    #expect(try differences("1", "[]", options: .init(ignoring: patterns("*"))) == [".: 1 -> []"])
    #expect(try differences("1", "[]", options: .init(ignoring: patterns("**"))) == [])
  }

  @Test func ignoredRemovalsAndAdditionsAreDropped() throws {
    let options = JSONDiffOptions(ignoring: try patterns("a.b", "list[2]"))
    #expect(try differences(#"{"a":{"b":1}}"#, #"{"a":{}}"#, options: options) == [])
    #expect(try differences(#"{"a":{}}"#, #"{"a":{"b":1}}"#, options: options) == [])
    #expect(
      try differences(#"{"list":[0,1]}"#, #"{"list":[0,1,2,3]}"#, options: options) == [
        "list[3]: + 3"
      ])
  }

  @Test func numbersWithinTheToleranceAreEqual() throws {
    let tolerant = JSONDiffOptions(tolerance: 0.5)
    #expect(try differences("[1.0, 2, 10]", "[1.5, 1.5, 10.25]", options: tolerant) == [])
    #expect(try differences("[1.0]", "[1.5000001]", options: tolerant) == ["[0]: 1 -> 1.5000001"])
    #expect(try differences("[1.0]", "[1.1]") == ["[0]: 1 -> 1.1"])
    #expect(try differences(#"["1"]"#, #"["1.1"]"#, options: tolerant) == [#"[0]: "1" -> "1.1""#])
    #expect(
      try differences("[9007199254740993]", "[9007199254740992]") == [
        "[0]: 9007199254740993 -> 9007199254740992"
      ])
    #expect(
      try differences("[9007199254740993]", "[9007199254740992]", options: .init(tolerance: 1))
        == [])
  }

  @Test func hasDifferencesAgreesWithDifferences() throws {
    var generator = SplitMix64(seed: 41)
    for _ in 0..<2_000 {
      let a = RandomJSON.value(using: &generator)
      let b = Bool.random(using: &generator) ? RandomJSON.mutation(of: a, using: &generator) : a
      let found = JSONDiff.differences(from: a, to: b)
      #expect(found.isEmpty == (a == b), "\(a) vs \(b)")
      #expect(JSONDiff.hasDifferences(from: a, to: b) == !found.isEmpty)
      #expect(
        JSONDiff.differences(from: b, to: a).count == found.count, "the reverse diff is as long")
    }
  }

  @Test func patchIsAnArrayOfOperations() throws {
    let patch = JSONDiff.patch(from: ["geo": ["heading": 90]], to: ["geo": ["heading": 91]])
    #expect(patch.description == #"[{"op":"replace","path":"/geo/heading","value":91}]"#)
    #expect(JSONDiff.patch(from: [1], to: [1]) == [])
  }
}
