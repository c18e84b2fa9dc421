import RaspJSON

/// Evaluates an expression of the predicate language for one state, as jq would.
///
/// Values follow jq: `false` and `null` are false, anything else true; `.name` of `null` is
/// `null`, of anything but an object an error; comparisons use jq's order of values
/// (``PredicateOrder``), so comparing values of two types is never an error: `null < false <
/// true < numbers < strings < arrays < objects`. What cannot be done — indexing a number,
/// adding a string to a number, dividing by zero, the length of a boolean — is an error that
/// names the part of the expression, never a crash and never silently true.
///
/// ```swift
/// let expression = try PredicateParser.parse(".cart.total >= 0", domains: ["cart"])
/// var scope = PredicateScope(names: ["cart"])
/// scope.current[0] = ["total": -2]
/// try PredicateEvaluator.holds(expression, in: scope)   // false
/// ```
enum PredicateEvaluator {
  /// What `.` is: the state itself, after or before the event, or a value.
  private enum Focus {
    case state(previous: Bool)
    case value(JSONValue)
  }

  /// Whether the expression's value is true (anything but `false` and `null`).
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``.
  static func holds(_ expression: PredicateExpression, in scope: PredicateScope)
    throws(PredicateExpressionError) -> Bool
  {
    try evaluate(expression, in: scope).isTruthy
  }

  /// The expression's value for the scope's state, event and key.
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``.
  static func evaluate(_ expression: PredicateExpression, in scope: PredicateScope)
    throws(PredicateExpressionError) -> JSONValue
  {
    try value(expression, focus: .state(previous: false), scope)
  }

  private static func materialize(_ focus: Focus, _ scope: PredicateScope) -> JSONValue {
    switch focus {
    case .state(let previous): return scope.state(previous: previous)
    case .value(let value): return value
    }
  }

  private static func value(
    _ expression: PredicateExpression, focus: Focus, _ scope: PredicateScope
  ) throws(PredicateExpressionError) -> JSONValue {
    switch expression {
    case .literal(let value): return value
    case .array(let elements):
      var values: [JSONValue] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try value(element, focus: focus, scope)) }
      return .array(values)
    case .object(let members):
      var object = JSONObject()
      for member in members { object[member.key] = try value(member.value, focus: focus, scope) }
      return .object(object)
    case .dot: return materialize(focus, scope)
    case .variable(let variable):
      switch variable {
      case .event: return scope.event
      case .key: return scope.key
      case .prev: return scope.state(previous: true)
      }
    case .domain(let index, _, let previous):
      guard index < scope.names.count else { return .null }
      return previous ? scope.previous[index] : scope.current[index]
    case .member(let slot, _, _, let previous):
      if previous {
        return slot < scope.previousMembers.count ? scope.previousMembers[slot] : .null
      }
      return slot < scope.currentMembers.count ? scope.currentMembers[slot] : .null
    case .field(let base, let name):
      if base == .dot, case .state(let previous) = focus,
        let index = scope.names.firstIndex(of: name)
      {
        return previous ? scope.previous[index] : scope.current[index]
      }
      return try member(name, of: value(base, focus: focus, scope), expression)
    case .index(let base, let index):
      let container = try value(base, focus: focus, scope)
      let key = try value(index, focus: focus, scope)
      return try element(key, of: container, expression)
    case .pipe(let left, let right):
      let input = try value(left, focus: focus, scope)
      return try value(right, focus: .value(input), scope)
    case .negate(let operand):
      let number = try value(operand, focus: focus, scope)
      guard case .number(let n) = number else {
        throw .evaluation(
          path: expression.description, message: "cannot negate \(describe(number))")
      }
      return .number(negated(n))
    case .not(let operand):
      return .bool(!(try value(operand, focus: focus, scope).isTruthy))
    case .and(let left, let right):
      guard try value(left, focus: focus, scope).isTruthy else { return .bool(false) }
      return .bool(try value(right, focus: focus, scope).isTruthy)
    case .or(let left, let right):
      if try value(left, focus: focus, scope).isTruthy { return .bool(true) }
      return .bool(try value(right, focus: focus, scope).isTruthy)
    case .alternative(let left, let right):
      // As in jq 1.6, an error on the left is an error, not a reason to take the right.
      let first = try value(left, focus: focus, scope)
      if first.isTruthy { return first }
      return try value(right, focus: focus, scope)
    case .comparison(let operation, let left, let right):
      let a = try value(left, focus: focus, scope)
      let b = try value(right, focus: focus, scope)
      return .bool(PredicateOrder.compare(a, b, operation))
    case .arithmetic(let operation, let left, let right):
      let a = try value(left, focus: focus, scope)
      let b = try value(right, focus: focus, scope)
      return try PredicateArithmetic.apply(operation, a, b, path: expression.description)
    case .builtin(let builtin, let argument):
      return try apply(builtin, argument, to: focus, scope, expression)
    }
  }

  /// `value.name`.
  private static func member(
    _ name: String, of value: JSONValue, _ expression: PredicateExpression
  ) throws(PredicateExpressionError) -> JSONValue {
    try member(name, of: value, expression.description)
  }

  /// `value.name`, `path` the expression's text for an error.
  static func member(
    _ name: String, of value: JSONValue, _ path: @autoclosure () -> String
  ) throws(PredicateExpressionError) -> JSONValue {
    switch value {
    case .null: return .null
    case .object(let object): return object[name] ?? .null
    default:
      throw .evaluation(
        path: path(), message: "cannot index \(describe(value)) with \"\(name)\"")
    }
  }

  /// `value[key]`.
  private static func element(
    _ key: JSONValue, of value: JSONValue, _ expression: PredicateExpression
  ) throws(PredicateExpressionError) -> JSONValue {
    try element(key, of: value, expression.description)
  }

  /// `value[key]`, `path` the expression's text for an error.
  static func element(
    _ key: JSONValue, of value: JSONValue, _ path: @autoclosure () -> String
  ) throws(PredicateExpressionError) -> JSONValue {
    switch (value, key) {
    case (.null, .number), (.null, .string): return .null
    case (.object(let object), .string(let name)): return object[name] ?? .null
    case (.array(let array), .number(let number)):
      let double = number.doubleValue.rounded(.down)
      guard double.isFinite, abs(double) < Double(Int.max / 2) else { return .null }
      var index = Int(double)
      if index < 0 { index += array.count }
      return array.indices.contains(index) ? array[index] : .null
    default:
      throw .evaluation(
        path: path(), message: "cannot index \(describe(value)) with \(describe(key))")
    }
  }

  private static func apply(
    _ builtin: PredicateBuiltin, _ argument: PredicateExpression?, to focus: Focus,
    _ scope: PredicateScope, _ expression: PredicateExpression
  ) throws(PredicateExpressionError) -> JSONValue {
    let input = materialize(focus, scope)
    // The expression's text only for an error: writing it is most of the cost of a builtin.
    var path: String { expression.description }
    switch builtin {
    case .length:
      switch input {
      case .null: return .number(JSONNumber(0))
      case .bool:
        throw .evaluation(path: path, message: "\(describe(input)) has no length")
      case .number(let number):
        if let integer = number.integerValue, integer != .min {
          return .number(JSONNumber(abs(integer)))
        }
        return .number(JSONNumber(abs(number.doubleValue)))
      case .string(let string): return .number(JSONNumber(string.unicodeScalars.count))
      case .array(let array): return .number(JSONNumber(array.count))
      case .object(let object): return .number(JSONNumber(object.count))
      }
    case .keys:
      switch input {
      case .object(let object): return .array(object.keys.map { .string($0) })
      case .array(let array): return .array(array.indices.map { .number(JSONNumber($0)) })
      default: throw .evaluation(path: path, message: "\(describe(input)) has no keys")
      }
    case .has:
      guard let argument else { return .bool(false) }
      let key = try value(argument, focus: focus, scope)
      switch (input, key) {
      case (.object(let object), .string(let name)): return .bool(object[name] != nil)
      case (.array(let array), .number(let number)):
        let index = number.doubleValue
        return .bool(index >= 0 && index < Double(array.count))
      default:
        throw .evaluation(
          path: path, message: "cannot check whether \(describe(input)) has \(describe(key))")
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
        let truth =
          try argument.map { (condition) throws(PredicateExpressionError) in
            try value(condition, focus: .value(element), scope).isTruthy
          } ?? element.isTruthy
        if truth == isAny { return .bool(isAny) }
      }
      return .bool(!isAny)
    }
  }

  static func negated(_ number: JSONNumber) -> JSONNumber {
    if let integer = number.integerValue, integer != .min { return JSONNumber(-integer) }
    return JSONNumber(-number.doubleValue)
  }

  /// A value as jq's messages name it: its type and, when short, its JSON.
  static func describe(_ value: JSONValue) -> String {
    let text = PredicateExpression.text(of: value)
    let name = value.kindName
    return text.count <= 20 ? "\(name) (\(text))" : name
  }
}

extension JSONValue {
  /// Whether jq takes the value for true: anything but `false` and `null`.
  var isTruthy: Bool {
    switch self {
    case .null, .bool(false): return false
    default: return true
    }
  }
}
