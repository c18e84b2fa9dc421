import RaspJSON

// The nodes of a compiled expression (``PredicateProgram``), one class for each case of
// ``PredicateExpression``, each evaluating it exactly as ``PredicateEvaluator`` does. A node
// that can fail keeps its expression's text, written once when it is made, for the error.

/// A constant.
final class LiteralNode: PredicateNode {
  private let constant: JSONValue
  init(_ constant: JSONValue) { self.constant = constant }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus) -> JSONValue {
    constant
  }
}

/// `[a, b, …]`.
final class ArrayNode: PredicateNode {
  private let elements: [PredicateNode]
  init(_ elements: [PredicateNode]) { self.elements = elements }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    var values: [JSONValue] = []
    values.reserveCapacity(elements.count)
    for element in elements { values.append(try element.value(scope, focus)) }
    return .array(values)
  }
}

/// `{"key": value, …}`.
final class ObjectNode: PredicateNode {
  private let members: [(key: String, value: PredicateNode)]
  init(_ members: [(key: String, value: PredicateNode)]) { self.members = members }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    var object = JSONObject()
    for member in members { object[member.key] = try member.value.value(scope, focus) }
    return .object(object)
  }
}

/// `.`.
final class DotNode: PredicateNode {
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus) -> JSONValue {
    focus.materialized(scope)
  }
}

/// `$event`, `$key`, `$prev`.
final class VariableNode: PredicateNode {
  private let variable: PredicateVariable
  init(_ variable: PredicateVariable) { self.variable = variable }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus) -> JSONValue {
    switch variable {
    case .event: return scope.event
    case .key: return scope.key
    case .prev: return scope.state(previous: true)
    }
  }
}

/// A domain, after the event or before it.
final class DomainNode: PredicateNode {
  private let index: Int
  private let previous: Bool
  init(_ index: Int, previous: Bool) {
    self.index = index
    self.previous = previous
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus) -> JSONValue {
    guard index < scope.names.count else { return .null }
    return previous ? scope.previous[index] : scope.current[index]
  }
}

/// A member read member by member, from its slot.
final class MemberNode: PredicateNode {
  private let slot: Int
  private let previous: Bool
  init(_ slot: Int, previous: Bool) {
    self.slot = slot
    self.previous = previous
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus) -> JSONValue {
    if previous {
      return slot < scope.previousMembers.count ? scope.previousMembers[slot] : .null
    }
    return slot < scope.currentMembers.count ? scope.currentMembers[slot] : .null
  }
}

/// `.domain.name | length` of a member read member by member: its length, read from its
/// slot without a copy of the array.
final class MemberLengthNode: PredicateNode {
  private let slot: Int
  private let previous: Bool
  private let path: String
  init(_ slot: Int, previous: Bool, _ length: PredicateExpression) {
    self.slot = slot
    self.previous = previous
    path = length.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let count = previous ? scope.previousMembers.count : scope.currentMembers.count
    guard slot < count else { return .number(JSONNumber(0)) }
    let member = previous ? scope.previousMembers[slot] : scope.currentMembers[slot]
    if case .array(let array) = member { return .number(JSONNumber(array.count)) }
    return try LengthNode.length(of: member, path)
  }
}

/// `.name`: a domain when `.` is the state, otherwise a member of `.`.
final class FieldOfDotNode: PredicateNode {
  private let name: String
  private let path: String
  init(_ name: String, _ expression: PredicateExpression) {
    self.name = name
    path = expression.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    if case .state(let previous) = focus, let index = scope.names.firstIndex(of: name) {
      return previous ? scope.previous[index] : scope.current[index]
    }
    return try PredicateEvaluator.member(name, of: focus.materialized(scope), path)
  }
}

/// `base.name`.
final class FieldNode: PredicateNode {
  private let base: PredicateNode
  private let name: String
  private let path: String
  init(_ base: PredicateNode, _ name: String, _ expression: PredicateExpression) {
    self.base = base
    self.name = name
    path = expression.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    try PredicateEvaluator.member(name, of: base.value(scope, focus), path)
  }
}

/// `base[index]`.
final class IndexNode: PredicateNode {
  private let base: PredicateNode
  private let index: PredicateNode
  private let path: String
  init(_ base: PredicateNode, _ index: PredicateNode, _ expression: PredicateExpression) {
    self.base = base
    self.index = index
    path = expression.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let container = try base.value(scope, focus)
    let key = try index.value(scope, focus)
    return try PredicateEvaluator.element(key, of: container, path)
  }
}

/// `left | right`.
final class PipeNode: PredicateNode {
  private let left: PredicateNode
  private let right: PredicateNode
  init(_ left: PredicateNode, _ right: PredicateNode) {
    self.left = left
    self.right = right
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    try right.value(scope, .value(left.value(scope, focus)))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    try right.holds(scope, .value(left.value(scope, focus)))
  }
}

/// `-value`.
final class NegateNode: PredicateNode {
  private let operand: PredicateNode
  private let path: String
  init(_ operand: PredicateNode, _ expression: PredicateExpression) {
    self.operand = operand
    path = expression.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let number = try operand.value(scope, focus)
    guard case .number(let n) = number else {
      throw .evaluation(
        path: path,
        message: "cannot negate \(PredicateEvaluator.describe(number))")
    }
    return .number(PredicateEvaluator.negated(n))
  }
}

/// `not value`.
final class NotNode: PredicateNode {
  private let operand: PredicateNode
  init(_ operand: PredicateNode) { self.operand = operand }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .bool(try !operand.holds(scope, focus))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    try !operand.holds(scope, focus)
  }
}

/// `left and right`.
final class AndNode: PredicateNode {
  private let left: PredicateNode
  private let right: PredicateNode
  init(_ left: PredicateNode, _ right: PredicateNode) {
    self.left = left
    self.right = right
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .bool(try holds(scope, focus))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    guard try left.holds(scope, focus) else { return false }
    return try right.holds(scope, focus)
  }
}

/// `left or right`.
final class OrNode: PredicateNode {
  private let left: PredicateNode
  private let right: PredicateNode
  init(_ left: PredicateNode, _ right: PredicateNode) {
    self.left = left
    self.right = right
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .bool(try holds(scope, focus))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    if try left.holds(scope, focus) { return true }
    return try right.holds(scope, focus)
  }
}

/// `left // right`: as in jq 1.6, an error on the left is an error.
final class AlternativeNode: PredicateNode {
  private let left: PredicateNode
  private let right: PredicateNode
  init(_ left: PredicateNode, _ right: PredicateNode) {
    self.left = left
    self.right = right
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let first = try left.value(scope, focus)
    if first.isTruthy { return first }
    return try right.value(scope, focus)
  }
}

/// `left == right` and the other comparisons, in jq's order of values.
final class ComparisonNode: PredicateNode {
  private let operation: PredicateComparison
  private let left: PredicateNode
  private let right: PredicateNode
  init(_ operation: PredicateComparison, _ left: PredicateNode, _ right: PredicateNode) {
    self.operation = operation
    self.left = left
    self.right = right
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .bool(try holds(scope, focus))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    let a = try left.value(scope, focus)
    let b = try right.value(scope, focus)
    return ComparisonNode.compare(a, b, operation)
  }

  /// `a operation b`, as ``PredicateOrder/compare(_:_:_:)`` tells: two 64-bit whole numbers
  /// in their integers' order, and a number that is not one against a whole number below 2⁵³
  /// as doubles (it equals none), without ranking the values first.
  @inline(__always)
  static func compare(_ a: JSONValue, _ b: JSONValue, _ operation: PredicateComparison) -> Bool {
    if case .number(let x) = a, case .number(let y) = b {
      let (i, j) = (x.integerValue, y.integerValue)
      if let i, let j { return holds(i < j ? -1 : i > j ? 1 : 0, operation, isEqual: i == j) }
      // One side a fraction, NaN, an infinity or beyond 64 bits, the other exact as a double:
      // their order is the doubles', as PredicateOrder finds it, and they are not equal.
      if let k = i ?? j, k.magnitude < 1 << 53 {
        let (p, q) = (x.doubleValue, y.doubleValue)
        return holds(p < q ? -1 : p > q ? 1 : 0, operation, isEqual: false)
      }
    }
    return PredicateOrder.compare(a, b, operation)
  }

  /// Whether `operation` holds of two values in `order` (negative, zero, positive), equal or
  /// not: a value of jq's order is equal to another of order zero only when `==` says so.
  @inline(__always)
  private static func holds(_ order: Int, _ operation: PredicateComparison, isEqual: Bool)
    -> Bool
  {
    switch operation {
    case .equal: return isEqual
    case .notEqual: return !isEqual
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    case .greaterOrEqual: return order >= 0
    }
  }
}

/// `left == constant` and the other comparisons with a literal on the right
/// (`.geo.heading < 360`): the constant kept as it is, `null` compared by its kind.
final class ConstantComparisonNode: PredicateNode {
  private let operation: PredicateComparison
  private let left: PredicateNode
  private let constant: JSONValue
  init(_ operation: PredicateComparison, _ left: PredicateNode, _ constant: JSONValue) {
    self.operation = operation
    self.left = left
    self.constant = constant
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .bool(try holds(scope, focus))
  }
  override func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    let a = try left.value(scope, focus)
    if case .null = constant {
      // `null` is first in jq's order and equal to itself alone.
      let isNull = a.isNull
      switch operation {
      case .equal, .lessOrEqual: return isNull
      case .notEqual, .greater: return !isNull
      case .less: return false
      case .greaterOrEqual: return true
      }
    }
    return ComparisonNode.compare(a, constant, operation)
  }
}

/// `left + right` and the other operations of arithmetic.
final class ArithmeticNode: PredicateNode {
  private let operation: PredicateArithmetic
  private let left: PredicateNode
  private let right: PredicateNode
  private let path: String
  init(
    _ operation: PredicateArithmetic, _ left: PredicateNode, _ right: PredicateNode,
    _ expression: PredicateExpression
  ) {
    self.operation = operation
    self.left = left
    self.right = right
    path = expression.description
  }
  override func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    let a = try left.value(scope, focus)
    let b = try right.value(scope, focus)
    return try PredicateArithmetic.apply(operation, a, b, path: path)
  }
}
