import RaspJSON
import Testing

@testable import RaspCLI

/// The automaton of a policy's paths against `JSONPath.matches`, which matches one concrete path
/// at a time and shares nothing with it: for every path of a few keys and indices, the rule it
/// reaches is the first that matches its shallowest ancestor any rule matches, and a path it
/// says no rule can reach has no extension that one matches (up to four steps).
@Suite struct RedactionPathAutomatonTests {
  static let patterns = [
    "payload.email", "**.ts", "meta.*", "items[1].name", "a.**.b.c", "*.0", "x.1.y", "**",
  ]
  static let steps: [JSONPath.Component] = [
    .key("payload"), .key("email"), .key("ts"), .key("meta"), .key("items"), .key("name"),
    .key("a"), .key("b"), .key("c"), .key("0"), .key("1"), .key("01"), .key("x"), .key("y"),
    .key(""), .index(0), .index(1), .index(2),
  ]

  /// Every path of up to `depth` steps.
  static func paths(depth: Int) -> [[JSONPath.Component]] {
    var all: [[JSONPath.Component]] = [[]]
    var level: [[JSONPath.Component]] = [[]]
    for _ in 0..<depth {
      level = level.flatMap { path in steps.map { path + [$0] } }
      all += level
    }
    return all
  }

  static func state(
    _ automaton: inout RedactionPathAutomaton, after path: [JSONPath.Component],
    from start: Int = RedactionPathAutomaton.start
  ) -> Int {
    var state = start
    for step in path {
      switch step {
      case .key(let key):
        let bytes = Array(key.utf8)
        state = bytes.withUnsafeBufferPointer { automaton.next(state, key: $0) }
      case .index(let index):
        state = automaton.next(state, index: index)
      default:
        Issue.record("not a concrete step")
      }
    }
    return state
  }

  @Test(arguments: [Array(0..<7), [4, 3, 0], [7, 0]])
  func eachPathReachesTheFirstRuleThatMatchesIt(_ rules: [Int]) throws {
    let patterns = try rules.map { try JSONPath(Self.patterns[$0], allowsPatterns: true) }
    var automaton = RedactionPathAutomaton(patterns: patterns)
    var checked = 0
    for path in Self.paths(depth: 4) where !path.isEmpty {
      // Reached step by step, as the walk does, stopping at the first rule matched, or where
      // no rule can match: then none may match the path, which goes on below.
      var stoppedAt: Int?
      var state = RedactionPathAutomaton.start
      for step in path {
        state = Self.state(&automaton, after: [step], from: state)
        if case .rule(let rule) = automaton.reach(state) {
          stoppedAt = rule
          break
        }
        if automaton.reach(state) == .none { break }
      }
      // The shallowest value a pattern matches, and the first pattern that matches it.
      let expected = (1...path.count).lazy.compactMap { length in
        patterns.indices.first { patterns[$0].matches(Array(path.prefix(length))) }
      }.first
      #expect(stoppedAt == expected, "\(path)")
      checked += 1
    }
    #expect(checked == 18 + 18 * 18 + 18 * 18 * 18 + 18 * 18 * 18 * 18)
  }
}
