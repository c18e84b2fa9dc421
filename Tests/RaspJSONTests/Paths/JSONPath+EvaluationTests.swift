import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPathEvaluationTests {
  static let state: JSONValue = [
    "geo": ["heading": 271.5, "location": nil],
    "nav": ["stack": ["home", "list", "detail"]],
    "rest": ["links": ["self": "/a", "next": "/b"]],
    "data": ["a.b": 1, "0": "zero", "": "empty", "name": "e\u{301}😀"],
    "flag": true,
    "debt": -12.5,
  ]

  @Test(arguments: [
    ("geo.heading", JSONValue?.some(271.5)),
    ("geo.location", .some(nil)),
    ("geo.missing", nil),
    ("nav.stack[0]", "home"),
    ("nav.stack[-1]", "detail"),
    ("nav.stack[-3]", "home"),
    ("nav.stack[-4]", nil),
    ("nav.stack[3]", nil),
    ("nav.stack.1", "list"),
    (#"nav.stack["1"]"#, "list"),
    ("nav.stack.01", nil),
    (#"nav.stack["+1"]"#, nil),
    (#"nav.stack["-1"]"#, nil),
    (#"data["a.b"]"#, 1),
    ("data.0", "zero"),
    ("data[0]", nil),
    (#"data[""]"#, "empty"),
    ("flag.x", nil),
    ("flag[0]", nil),
    ("geo.heading.x", nil),
    ("nav.stack|length", 3),
    ("rest.links|length", 2),
    ("data.name|length", 3),
    ("geo.location|length", 0),
    ("geo.heading|length", 271.5),
    ("debt|length", 12.5),
    ("flag|length", nil),
    ("geo.missing|length", nil),
    ("|length", 6),
  ])
  func evaluatesPaths(text: String, expected: JSONValue?) throws {
    #expect(try JSONPath(text).evaluate(Self.state) == expected, "\(text)")
  }

  @Test func theEmptyPathSelectsTheRoot() throws {
    #expect(try JSONPath(".").evaluate(Self.state) == Self.state)
    #expect(try JSONPath("[0]").evaluate([7]) == 7)
    #expect(try JSONPath("a").evaluate("text") == absent)
  }

  @Test func keysAreComparedByCodePoints() throws {
    let value: JSONValue = ["\u{E9}": 1]
    #expect(try JSONPath("\u{E9}").evaluate(value) == 1)
    #expect(try JSONPath("e\u{301}").evaluate(value) == absent)
  }

  @Test(arguments: [
    ("geo.heading", ["geo", "heading"], true),
    ("geo.heading", ["geo"], false),
    ("geo.heading", ["geo", "heading", "x"], true),
    ("geo.heading", ["geo", "headings"], false),
    ("*", [], false),
    ("*", ["a"], true),
    ("*", ["a", "b"], true),
    ("*", ["#0"], true),
    ("**", [], true),
    ("**", ["a", "#1", "b"], true),
    ("**.ts", ["ts"], true),
    ("**.ts", ["a", "ts"], true),
    ("**.ts", ["a", "b", "ts"], true),
    ("**.ts", ["a", "ts", "#0"], true),
    ("**.ts", ["a", "tsx"], false),
    ("**.ts", [], false),
    ("**.ts", ["a"], false),
    ("a.**.c", ["a", "c"], true),
    ("a.**.c", ["a", "b", "c"], true),
    ("a.**.c", ["a", "b", "#4", "c"], true),
    ("a.**.c", ["a", "c", "d"], true),
    ("a.**.c", ["a", "b"], false),
    ("a.**.c", ["a"], false),
    ("a.**.c", ["b", "c"], false),
    ("a.*.c", ["a", "b", "c"], true),
    ("a.*.c", ["a", "#0", "c"], true),
    ("a.*.c", ["a", "c"], false),
    ("a.**", ["a"], true),
    ("a.**", ["a", "b"], true),
    ("a.**", [], false),
    ("a.**", ["b"], false),
    ("**.**", [], true),
    ("stack[1]", ["stack", "#1"], true),
    ("stack[1]", ["stack", "1"], true),
    ("stack[1]", ["stack", "01"], false),
    ("stack[1]", ["stack", "#2"], false),
    ("stack.1", ["stack", "#1"], true),
    ("stack.01", ["stack", "#1"], false),
    ("\u{E9}", ["e\u{301}"], false),
    ("\u{E9}", ["\u{E9}"], true),
  ])
  func matchesConcretePathsAndTheirDescendants(pattern: String, steps: [String], matches: Bool)
    throws
  {
    // "#n" is index n; other steps are keys.
    let concrete = steps.map { step -> JSONPath.Component in
      step.hasPrefix("#") ? .index(Int(step.dropFirst())!) : .key(step)
    }
    let path = try JSONPath(pattern, allowsPatterns: true)
    #expect(path.matches(concrete) == matches, "\(pattern) against \(steps)")
  }

  /// Whether `pattern` matches `path` or an ancestor, by trying every length of each `**` in
  /// turn: slow, and plainly right, to check the matcher against.
  private static func backtracking(
    _ pattern: ArraySlice<JSONPath.Component>, _ path: ArraySlice<JSONPath.Component>
  ) -> Bool {
    guard let first = pattern.first else { return true }
    if first == .anyDescendants {
      return (0...path.count).contains { backtracking(pattern.dropFirst(), path.dropFirst($0)) }
    }
    guard let step = path.first else { return false }
    let matches =
      switch (first, step) {
      case (.anyChild, _): true
      case (.key(let a), .key(let b)): Array(a.utf8) == Array(b.utf8)
      case (.index(let a), .index(let b)): a == b
      case (.key(let a), .index(let b)): a == String(b)
      case (.index(let a), .key(let b)): b == String(a)
      default: false
      }
    return matches && backtracking(pattern.dropFirst(), path.dropFirst())
  }

  @Test func matchesAsTryingEveryLengthOfEachDoubleStarDoes() throws {
    var random = SplitMix64(seed: 2026)
    func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    let patternSteps = ["**", "*", "a", "b", "[0]"]
    let pathSteps: [JSONPath.Component] = [.key("a"), .key("b"), .index(0), .key("0")]
    var matched = 0
    for _ in 0..<3_000 {
      let text = (0..<(1 + next(5))).map { _ in patternSteps[next(patternSteps.count)] }
        .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
      let pattern = try JSONPath(text, allowsPatterns: true)
      let path = (0..<next(7)).map { _ in pathSteps[next(pathSteps.count)] }
      let expected = Self.backtracking(pattern.components[...], path[...])
      #expect(pattern.matches(path) == expected, "\(text) against \(path)")
      if expected { matched += 1 }
    }
    #expect(matched > 500 && matched < 2_500)
  }

  @Test func severalDoubleStarsMatchADeepPathAtOnce() throws {
    // Trying each `**`'s every length in turn takes about 100^3 tries here, and 500^3 below.
    let deep = [JSONPath.Component](repeating: .key("b"), count: 100) + [.key("x")]
    #expect(try JSONPath("**.**.**.x", allowsPatterns: true).matches(deep))
    #expect(!(try JSONPath("**.**.**.y", allowsPatterns: true).matches(deep)))
    let deeper = [JSONPath.Component](repeating: .key("b"), count: 500)
    #expect(!(try JSONPath("**.b.**.ts", allowsPatterns: true).matches(deeper)))
  }
}
