import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// The compiled evaluation (``PredicateProgram``) against the tree-walking one
/// (``PredicateEvaluator``), which jq checks (`PredicateEvaluatorTests`): the same value, or
/// the same error naming the same part, for every case of jq's kind and for thousands of
/// generated expressions over generated states, after and before the event, with the event
/// and the key, paths read whole and member by member.
@Suite struct PredicateProgramTests {
  static let domains = ["a", "b", "nav"]

  /// A value, or the text of the error that stopped the evaluation.
  enum Outcome: Equatable {
    case value(JSONValue)
    case error(String)
  }

  static func outcome(_ body: () throws(PredicateExpressionError) -> JSONValue) -> Outcome {
    do {
      return .value(try body())
    } catch {
      return .error(error.description)
    }
  }

  static func holding(_ body: () throws(PredicateExpressionError) -> Bool) -> Outcome {
    do {
      return .value(.bool(try body()))
    } catch {
      return .error(error.description)
    }
  }

  /// Both evaluations of `expression` in `scope`, as values and as truths.
  /// - Returns: The reference's outcome.
  @discardableResult
  static func expectSame(
    _ expression: PredicateExpression, in scope: PredicateScope, _ text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    let program = PredicateProgram(expression)
    let reference = outcome { () throws(PredicateExpressionError) in
      try PredicateEvaluator.evaluate(expression, in: scope)
    }
    let compiled = outcome { () throws(PredicateExpressionError) in
      try program.evaluate(in: scope)
    }
    #expect(compiled == reference, "\(text)", sourceLocation: sourceLocation)
    let referenceTruth = holding { () throws(PredicateExpressionError) in
      try PredicateEvaluator.holds(expression, in: scope)
    }
    let compiledTruth = holding { () throws(PredicateExpressionError) in
      try program.holds(in: scope)
    }
    #expect(compiledTruth == referenceTruth, "\(text)", sourceLocation: sourceLocation)
    return reference
  }

  @Test func givesWhatTheTreeWalkerGivesForJQsCases() throws {
    let examples =
      PredicateEvaluatorTests.cases.map { ($0.expression, $0.input) }
      + PredicateEvaluatorTests.failures.map { ($0.0, $0.1) }
    for (text, input) in examples {
      let (scope, names) = try PredicateEvaluatorTests.scope(input)
      let expression = try PredicateParser.parse(text, domains: names)
      Self.expectSame(expression, in: scope, text)
    }
  }

  @Test func givesWhatTheTreeWalkerGivesForGeneratedExpressions() throws {
    var random = SplitMix64(seed: 39)
    var generator = ExpressionGenerator()
    var parsed = 0
    var outcomes: [String: Int] = [:]
    for round in 0..<4_000 {
      let text = generator.expression(&random)
      guard let expression = try? PredicateParser.parse(text, domains: Self.domains) else {
        continue
      }
      parsed += 1
      for _ in 0..<3 {
        let scope = Self.scope(&random)
        switch Self.expectSame(expression, in: scope, "\(round): \(text)") {
        case .error: outcomes["error", default: 0] += 1
        case .value(let value): outcomes[value.isTruthy ? "true" : "false", default: 0] += 1
        }
        // Bound as the observer binds a domain read member by member.
        let (bound, boundScope) = Self.bindingMembers(expression, scope)
        Self.expectSame(bound, in: boundScope, "\(round), bound: \(text)")
      }
    }
    // Errors, true and false values each a fair share: the comparison covers all three.
    #expect(parsed > 3_000)
    for outcome in ["error", "true", "false"] {
      #expect(outcomes[outcome, default: 0] > parsed / 10, "\(outcome): \(outcomes)")
    }
  }

  /// A scope of generated domains, before and after, an event and a key.
  static func scope(_ random: inout SplitMix64) -> PredicateScope {
    var scope = PredicateScope(names: domains)
    var values = ValueGenerator()
    for index in domains.indices {
      scope.current[index] = values.domain(&random)
      // Often as it was, as after an event of another domain.
      scope.previous[index] =
        random.next() % 2 == 0 ? scope.current[index] : values.domain(&random)
    }
    scope.event = [
      "type": .string(random.next() % 2 == 0 ? "nav.push" : "geo.heading"),
      "payload": values.value(&random, depth: 2), "line": .number(JSONNumber(3)),
    ]
    scope.key = random.next() % 3 == 0 ? .null : values.value(&random, depth: 1)
    return scope
  }

  /// `expression` with each `.domain.name` bound to a slot, and `scope` with those slots'
  /// values, after and before.
  static func bindingMembers(_ expression: PredicateExpression, _ scope: PredicateScope)
    -> (PredicateExpression, PredicateScope)
  {
    var slots: [String: Int] = [:]
    var scope = scope
    let bound = expression.bindingMembers { index, name in
      let key = "\(index).\(name)"
      if let slot = slots[key] { return slot }
      let slot = slots.count
      slots[key] = slot
      scope.currentMembers.append(scope.current[index][name] ?? .null)
      scope.previousMembers.append(scope.previous[index][name] ?? .null)
      return slot
    }
    return (bound, scope)
  }
}

/// Random JSON values, small enough for paths to meet members.
private struct ValueGenerator {
  static let names = ["x", "y", "stack", "s"]
  static let strings = ["", "a", "b", "é", "push", "10", "nav.push"]

  /// A domain's state: an object, sometimes `null`.
  mutating func domain(_ random: inout SplitMix64) -> JSONValue {
    if random.next() % 10 == 0 { return .null }
    var object = JSONObject()
    for name in Self.names where random.next() % 3 != 0 {
      object[name] = value(&random, depth: 2)
    }
    return .object(object)
  }

  mutating func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
    switch random.next() % (depth > 0 ? 9 : 6) {
    case 0: return .null
    case 1: return .bool(random.next() % 2 == 0)
    case 2: return .number(JSONNumber(Int(random.next() % 4) - 1))
    case 3: return .number(JSONNumber(Double(Int(random.next() % 9) - 4) / 2))
    case 4: return .string(Self.strings[Int(random.next() % UInt64(Self.strings.count))])
    case 5: return .number(JSONNumber(Int64.max - Int64(random.next() % 2)))
    case 6, 7:
      return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth - 1) })
    default:
      var object = JSONObject()
      for name in Self.names where random.next() % 2 == 0 {
        object[name] = value(&random, depth: depth - 1)
      }
      return .object(object)
    }
  }
}

/// Random expressions of the predicate language, as text: paths, literals, every operator
/// and built-in, pipes and parentheses; some do not parse (a name on a number, say) and are
/// skipped.
private struct ExpressionGenerator {
  static let paths = [
    ".a", ".a.x", ".a.y", ".a.x", ".a.y", ".b.y", ".a.stack", ".a.x.y", ".a.s[0]", ".a.s[-1]",
    #".a["x"]"#, ".b.x", ".b.stack", ".nav.stack", ".nav.x", "$prev.a.x", "$prev.nav.stack",
    "$prev.b", "$prev",
    "$event.type", "$event.payload", "$event.payload.x", "$key", ".", ".nav", ".a.x[1]",
    ".a | .x", ".[\"a\"]",
  ]
  static let literals = [
    "0", "1", "2", "0", "1", "2", "-1", "-2", "2.5", "50", "360", "null", "true", "false",
    #""a""#, #""push""#, "[]", "[1, \"a\"]", #"{"x": 1}"#, "{}", "100000000000000000000", "1e2",
  ]
  static let comparisons = ["==", "!=", "<", "<=", ">", ">="]
  static let arithmetic = ["+", "-", "*", "/"]

  mutating func expression(_ random: inout SplitMix64) -> String {
    let body = term(&random, depth: 1 + Int(random.next() % 3))
    return random.next() % 8 == 0 ? "never " + body : body
  }

  func pick(_ options: [String], _ random: inout SplitMix64) -> String {
    options[Int(random.next() % UInt64(options.count))]
  }

  mutating func term(_ random: inout SplitMix64, depth: Int) -> String {
    if depth == 0 {
      return random.next() % 2 == 0 ? pick(Self.literals, &random) : pick(Self.paths, &random)
    }
    let a = term(&random, depth: depth - 1)
    let b = term(&random, depth: depth - 1)
    switch random.next() % 20 {
    case 0...3: return "\(a) \(pick(Self.comparisons, &random)) \(b)"
    case 4: return "(\(a)) \(pick(Self.arithmetic, &random)) (\(b))"
    case 5, 6: return "(\(a)) and (\(b))"
    case 7, 8: return "(\(a)) or (\(b))"
    case 9, 10: return "(\(a)) // (\(b))"
    case 11: return "(\(a)) | length"
    case 12: return "(\(a)) | keys"
    case 13: return "(\(a)) | has(\(pick(["\"x\"", "0", "1", "\"stack\""], &random)))"
    case 14: return "(\(a)) | any(. \(pick(Self.comparisons, &random)) \(b))"
    case 15: return "(\(a)) | \(pick(["all", "any", "all(.)", "all(. > 0)"], &random))"
    case 16: return "not (\(a))"
    case 17: return "-(\(a))"
    case 18:
      return random.next() % 2 == 0 ? "[\(a), \(b)]" : "{\"k\": \(a), \"x\": (\(b))}"
    default: return "(\(a)) | (\(b))"
    }
  }
}
