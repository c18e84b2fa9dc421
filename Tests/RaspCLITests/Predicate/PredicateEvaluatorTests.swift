import Foundation
import RaspJSON
import Testing

@testable import RaspCLI

/// The predicate language's cases as jq's `tests/jq.test` writes them: an expression, the
/// state it reads (an object of domains), and the value it must give. Every case that is also
/// jq (`isJQ`) is run through jq 1.6 too, which must give the same value: the language is
/// checked against jq itself, not only against what this file expects.
@Suite struct PredicateEvaluatorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let expression: String
    let input: String
    let expected: String
    /// Whether jq reads the expression the same way (not `never`, nor a prefix `not`).
    var isJQ = true
    var testDescription: String { "\(expression) over \(input)" }
  }

  static let cases: [Case] = [
    // Paths.
    Case(expression: ".cart.total", input: #"{"cart":{"total":3}}"#, expected: "3"),
    Case(expression: ".cart.missing", input: #"{"cart":{"total":3}}"#, expected: "null"),
    Case(expression: ".cart.a.b", input: #"{"cart":{"a":null}}"#, expected: "null"),
    Case(
      expression: ".nav.stack[0]", input: #"{"nav":{"stack":["a","b","c"]}}"#, expected: #""a""#),
    Case(
      expression: ".nav.stack[-1]", input: #"{"nav":{"stack":["a","b","c"]}}"#, expected: #""c""#),
    Case(expression: ".nav.stack[5]", input: #"{"nav":{"stack":["a"]}}"#, expected: "null"),
    Case(expression: ".nav.stack[-5]", input: #"{"nav":{"stack":["a"]}}"#, expected: "null"),
    Case(
      expression: #".rest["links"].self"#, input: #"{"rest":{"links":{"self":"/o/1"}}}"#,
      expected: #""/o/1""#),
    Case(expression: #".rest."a b""#, input: #"{"rest":{"a b":1}}"#, expected: "1"),
    Case(expression: ".", input: #"{"a":1,"b":2}"#, expected: #"{"a":1,"b":2}"#),
    // Literals.
    Case(expression: "[1, \"a\", null, true]", input: "{}", expected: #"[1,"a",null,true]"#),
    Case(expression: "1.5e2", input: "{}", expected: "150"),
    Case(expression: #""\u00e9\n""#, input: "{}", expected: #""é\n""#),
    // Comparisons, jq's order across types.
    Case(expression: ".a.x == 1", input: #"{"a":{"x":1.0}}"#, expected: "true"),
    Case(expression: ".a.x != 1", input: #"{"a":{"x":2}}"#, expected: "true"),
    Case(expression: "null < false", input: "{}", expected: "true"),
    Case(expression: "false < true", input: "{}", expected: "true"),
    Case(expression: "true < 0", input: "{}", expected: "true"),
    Case(expression: "-1000 < \"\"", input: "{}", expected: "true"),
    Case(expression: "\"z\" < []", input: "{}", expected: "true"),
    Case(expression: "[[]] < {}", input: "{}", expected: "true"),
    Case(expression: ".a.x < 0", input: #"{"a":{"x":null}}"#, expected: "true"),
    Case(expression: #""5" > 10"#, input: "{}", expected: "true"),
    Case(expression: #""abc" < "abd""#, input: "{}", expected: "true"),
    Case(expression: #""é" > "z""#, input: "{}", expected: "true"),
    Case(expression: "[1,2] < [1,2,0]", input: "{}", expected: "true"),
    Case(expression: "[2] > [1,9]", input: "{}", expected: "true"),
    Case(expression: #"{"a":2} < {"b":1}"#, input: "{}", expected: "true", isJQ: true),
    Case(expression: #"{"a":1} < {"a":2}"#, input: "{}", expected: "true"),
    Case(expression: #"{"a":1,"b":0} > {"a":1}"#, input: "{}", expected: "true"),
    Case(expression: "3 <= 3 and 3 >= 3", input: "{}", expected: "true"),
    // Whole numbers are exact, as everywhere in rasp; jq 1.6 reads both as the same double.
    Case(
      expression: "100000000000000000000 > 99999999999999999999", input: "{}", expected: "true",
      isJQ: false),
    // Logic.
    Case(expression: "true and null", input: "{}", expected: "false"),
    Case(expression: "false or 0", input: "{}", expected: "true"),
    Case(expression: ".a.x | not", input: #"{"a":{"x":null}}"#, expected: "true"),
    Case(expression: "not .a.x", input: #"{"a":{"x":1}}"#, expected: "false", isJQ: false),
    Case(expression: "not .a.x == 1", input: #"{"a":{"x":1}}"#, expected: "false", isJQ: false),
    Case(expression: "never .a.x == 1", input: #"{"a":{"x":2}}"#, expected: "true", isJQ: false),
    Case(expression: "1 == 1 or 1 == 2 and false", input: "{}", expected: "true"),
    // Arithmetic.
    Case(expression: ".a.x + 2 * 3", input: #"{"a":{"x":1}}"#, expected: "7"),
    Case(expression: "(.a.x + 2) * 3", input: #"{"a":{"x":1}}"#, expected: "9"),
    Case(expression: "7 / 2", input: "{}", expected: "3.5"),
    Case(expression: "1 - 3 - 3", input: "{}", expected: "-5"),
    Case(expression: "-.a.x", input: #"{"a":{"x":4}}"#, expected: "-4"),
    Case(expression: "0.1 + 0.2", input: "{}", expected: "0.30000000000000004"),
    Case(expression: #""a" + "b""#, input: "{}", expected: #""ab""#),
    Case(expression: "[1,2] + [3]", input: "{}", expected: "[1,2,3]"),
    Case(expression: "[1,2,1] - [1]", input: "{}", expected: "[2]"),
    Case(expression: #"{"a":1} + {"b":2}"#, input: "{}", expected: #"{"a":1,"b":2}"#),
    Case(expression: "null + 1", input: "{}", expected: "1"),
    Case(
      expression: "9007199254740993 + 0", input: "{}", expected: "9007199254740993", isJQ: false),
    // Built-ins.
    Case(expression: ".nav.stack | length", input: #"{"nav":{"stack":[1,2]}}"#, expected: "2"),
    Case(expression: #""héllo" | length"#, input: "{}", expected: "5"),
    Case(expression: "null | length", input: "{}", expected: "0"),
    Case(expression: "-3 | length", input: "{}", expected: "3"),
    Case(expression: #"{"b":1,"a":2} | length"#, input: "{}", expected: "2"),
    Case(expression: "keys", input: #"{"b":1,"a":2}"#, expected: #"["a","b"]"#),
    Case(expression: ".a | keys", input: #"{"a":{"y":1,"x":2}}"#, expected: #"["x","y"]"#),
    Case(expression: "[5,6] | keys", input: "{}", expected: "[0,1]"),
    Case(
      expression: #".rest.links | has("self")"#, input: #"{"rest":{"links":{"self":1}}}"#,
      expected: "true"),
    Case(
      expression: #".rest.links | has("next")"#, input: #"{"rest":{"links":{"self":1}}}"#,
      expected: "false"),
    Case(expression: "[1,2] | has(1)", input: "{}", expected: "true"),
    Case(expression: "[1,2] | has(2)", input: "{}", expected: "false"),
    Case(
      expression: #".nav.stack | any(. == "b")"#, input: #"{"nav":{"stack":["a","b"]}}"#,
      expected: "true"),
    Case(
      expression: #".nav.stack | all(. == "b")"#, input: #"{"nav":{"stack":["a","b"]}}"#,
      expected: "false"),
    Case(expression: ".a | any(. > 1)", input: #"{"a":{"x":1,"y":2}}"#, expected: "true"),
    Case(expression: "[] | all(. > 1)", input: "{}", expected: "true"),
    Case(expression: "[] | any", input: "{}", expected: "false"),
    Case(expression: "[null, 1] | any", input: "{}", expected: "true"),
    Case(expression: "[null, 1] | all", input: "{}", expected: "false"),
    // Alternative.
    Case(expression: ".a.x // 5", input: #"{"a":{"x":null}}"#, expected: "5"),
    Case(expression: ".a.x // 5", input: #"{"a":{"x":false}}"#, expected: "5"),
    Case(expression: ".a.x // 5", input: #"{"a":{"x":0}}"#, expected: "0"),
    Case(expression: "(.a.x // 0) + 1 > 0 or false", input: #"{"a":{}}"#, expected: "true"),
    // Pipes.
    Case(expression: ".a | .x", input: #"{"a":{"x":7}}"#, expected: "7"),
    Case(expression: ".a | .x | . + 1", input: #"{"a":{"x":7}}"#, expected: "8"),
  ]

  /// The scope of an input: each member a domain.
  static func scope(_ input: String) throws -> (PredicateScope, [String]) {
    guard case .object(let object) = try JSONParser.parse(input) else {
      throw PredicateExpressionError.syntax(column: 0, message: "not an object")
    }
    var scope = PredicateScope(names: object.keys)
    scope.current = object.members.map(\.value)
    scope.previous = scope.current
    return (scope, object.keys)
  }

  static func value(_ expression: String, over input: String) throws -> JSONValue {
    let (scope, names) = try scope(input)
    let parsed = try PredicateParser.parse(expression, domains: names)
    return try PredicateEvaluator.evaluate(parsed, in: scope)
  }

  @Test(arguments: cases)
  func givesTheExpectedValue(_ example: Case) throws {
    #expect(
      try Self.value(example.expression, over: example.input) == JSONParser.parse(example.expected))
  }

  @Test(.enabled(if: ExternalTool.exists("jq"), "jq is not installed"))
  func jqGivesTheSameValues() async throws {
    let directory = try TemporaryDirectory()
    for example in Self.cases where example.isJQ {
      try directory.write("input.json", example.input)
      let result = try await ExternalTool.run(
        "jq", ["-c", example.expression, directory.file("input.json")])
      #expect(result.status == 0, "jq failed on \(example.expression): \(result.standardError)")
      guard result.status == 0 else { continue }
      let jqValue = try JSONParser.parse(
        result.text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(
        jqValue == (try Self.value(example.expression, over: example.input)),
        "\(example.expression): jq gives \(result.text)")
    }
  }

  /// The `%%FAIL` cases: what cannot be evaluated, and the message naming the part that failed.
  static let failures: [(String, String, String)] = [
    (".a.x.y", #"{"a":{"x":1}}"#, #"cannot index number (1) with "y" in '.a.x.y'"#),
    (".a.x[0]", #"{"a":{"x":"s"}}"#, #"cannot index string ("s") with number (0) in '.a.x[0]'"#),
    (".a.x + 1", #"{"a":{"x":"s"}}"#, #"cannot add string ("s") and number (1) in '.a.x + 1'"#),
    (
      ".a.x - 1", #"{"a":{"x":"s"}}"#,
      #"cannot subtract number (1) from string ("s") in '.a.x - 1'"#
    ),
    ("1 / .a.x", #"{"a":{"x":0}}"#, "cannot divide 1 by zero in '1 / .a.x'"),
    (".a.x | length", #"{"a":{"x":true}}"#, "boolean (true) has no length in 'length'"),
    (".a.x | keys", #"{"a":{"x":1}}"#, "number (1) has no keys in 'keys'"),
    (
      ".a.x | any(. > 1)", #"{"a":{"x":1}}"#,
      "cannot iterate over number (1) for 'any' in 'any(. > 1)'"
    ),
    ("-.a.x", #"{"a":{"x":"s"}}"#, #"cannot negate string ("s") in '-.a.x'"#),
    (".a.x.y // 5", #"{"a":{"x":1}}"#, #"cannot index number (1) with "y" in '.a.x.y'"#),
  ]

  @Test func failuresNameWhatFailed() throws {
    for (expression, input, message) in Self.failures {
      do {
        let value = try Self.value(expression, over: input)
        Issue.record("\(expression) gave \(value), expected an error")
      } catch let error as PredicateExpressionError {
        #expect(error.description == message, "\(expression)")
      }
    }
  }
}
