import RaspJSON

// The built-ins of a compiled expression (``PredicateProgram``), over `.`, as
// ``PredicateEvaluator`` applies them.

/// `length` of `.`.
final class LengthNode: PredicateNode {
  private let path: String
  init(_ expression: PredicateExpression) { path = expression.description }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    try LengthNode.length(of: focus.materialized(scope), path)
  }

  /// jq's `length`: of `null` 0, of a number its absolute value, of a string its Unicode
  /// scalars, of an array or object its elements; of a Boolean an error.
  static func length(of input: JSONValue, _ path: String)
    throws(PredicateExpressionError) -> JSONValue
  {
    switch input {
    case .null: return .number(JSONNumber(0))
    case .bool:
      throw .evaluation(
        path: path, message: "\(PredicateEvaluator.describe(input)) has no length")
    case .number(let number):
      if let integer = number.integerValue, integer != .min {
        return .number(JSONNumber(abs(integer)))
      }
      return .number(JSONNumber(abs(number.doubleValue)))
    case .string(let string): return .number(JSONNumber(string.unicodeScalars.count))
    case .array(let array): return .number(JSONNumber(array.count))
    case .object(let object): return .number(JSONNumber(object.count))
    }
  }
}

/// `keys`, `has(key)`, `any`, `any(condition)`, `all`, `all(condition)` (and `length`) of `.`.
final class BuiltinNode: PredicateNode {
  private let builtin: PredicateBuiltin
  private let argument: PredicateNode?
  private let path: String
  init(
    _ builtin: PredicateBuiltin, _ argument: PredicateNode?, _ expression: PredicateExpression
  ) {
    self.builtin = builtin
    self.argument = argument
    path = expression.description
  }

  private static func describe(_ value: JSONValue) -> String {
    PredicateEvaluator.describe(value)
  }

  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let input = focus.materialized(scope)
    let describe = Self.describe
    switch builtin {
    case .length: return try LengthNode.length(of: input, path)
    case .keys:
      switch input {
      case .object(let object): return .array(object.keys.map { .string($0) })
      case .array(let array): return .array(array.indices.map { .number(JSONNumber($0)) })
      default:
        throw .evaluation(path: path, message: "\(describe(input)) has no keys")
      }
    case .has:
      guard let argument else { return .bool(false) }
      let key = try argument.value(scope, focus)
      switch (input, key) {
      case (.object(let object), .string(let name)): return .bool(object[name] != nil)
      case (.array(let array), .number(let number)):
        let index = number.doubleValue
        return .bool(index >= 0 && index < Double(array.count))
      default:
        throw .evaluation(
          path: path,
          message: "cannot check whether \(describe(input)) has \(describe(key))")
      }
    case .any, .all:
      let elements: [JSONValue]
      switch input {
      case .array(let array): elements = array
      case .object(let object): elements = object.members.map(\.value)
      default:
        throw .evaluation(
          path: path, message: "cannot iterate over \(describe(input)) for '\(builtin)'")
      }
      let isAny = builtin == .any
      for element in elements {
        let truth = try argument?.holds(scope, .value(element)) ?? element.isTruthy
        if truth == isAny { return .bool(isAny) }
      }
      return .bool(!isAny)
    }
  }
}
