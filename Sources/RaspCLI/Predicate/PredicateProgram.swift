import RaspJSON

/// An expression of the predicate language compiled once for evaluation after every event:
/// a tree of nodes, each a class that evaluates its part of the expression, with the paths,
/// members and domains resolved, built-ins and comparisons chosen, when it is made.
///
/// It gives what ``PredicateEvaluator`` gives — the same values, the same errors naming the
/// same parts of the expression, evaluated in the same order — without walking the
/// expression's tree of enumerations at each evaluation, where taking each case's operands
/// out of their boxes was most of the cost. ``PredicateEvaluator`` stays the reference,
/// which `PredicateProgramTests` compares it with over many expressions and states.
///
/// ```swift
/// let expression = try PredicateParser.parse(".cart.total >= 0", domains: ["cart"])
/// let program = PredicateProgram(expression)
/// var scope = PredicateScope(names: ["cart"])
/// scope.current[0] = ["total": -2]
/// try program.holds(in: scope)   // false
/// ```
struct PredicateProgram {
  /// The node of the whole expression.
  private let root: PredicateNode

  /// Compiles an expression, its paths bound to a scope's domains (and members).
  ///
  /// - Parameter expression: The expression, as ``PredicateParser`` made it and
  ///   ``PredicateExpression/bindingMembers(_:)`` bound it.
  init(_ expression: PredicateExpression) {
    root = PredicateNode.make(expression)
  }

  /// Whether the expression's value is true (anything but `false` and `null`).
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``, as
  ///   ``PredicateEvaluator/holds(_:in:)`` does.
  func holds(in scope: PredicateScope) throws(PredicateExpressionError) -> Bool {
    try root.holds(scope, .state(previous: false))
  }

  /// The expression's value for the scope's state, event and key.
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``, as
  ///   ``PredicateEvaluator/evaluate(_:in:)`` does.
  func evaluate(in scope: PredicateScope) throws(PredicateExpressionError) -> JSONValue {
    try root.value(scope, .state(previous: false))
  }
}

/// What `.` is while a node is evaluated: the state after the event at the top, the left
/// side's value after `|`, each element inside `any(…)` and `all(…)`.
enum PredicateFocus {
  /// The whole state, after the event or before it.
  case state(previous: Bool)
  /// A value.
  case value(JSONValue)

  /// The value `.` is.
  @inline(__always)
  func materialized(_ scope: PredicateScope) -> JSONValue {
    switch self {
    case .state(let previous): return scope.state(previous: previous)
    case .value(let value): return value
    }
  }
}

/// A part of a compiled expression: evaluates it for a scope and a focus. Each kind of part
/// is a subclass (`PredicateProgram+Nodes.swift`).
class PredicateNode {
  /// The node's value.
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``.
  func value(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> JSONValue
  {
    .null
  }

  /// Whether the node's value is true: overridden where it can be told without making the
  /// value (a comparison, `and`, `not`).
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)``.
  func holds(_ scope: PredicateScope, _ focus: PredicateFocus)
    throws(PredicateExpressionError) -> Bool
  {
    try value(scope, focus).isTruthy
  }

  /// The node of an expression.
  static func make(_ expression: PredicateExpression) -> PredicateNode {
    switch expression {
    case .literal(let value): return LiteralNode(value)
    case .array(let elements): return ArrayNode(elements.map(make))
    case .object(let members):
      return ObjectNode(members.map { ($0.key, make($0.value)) })
    case .dot: return DotNode()
    case .variable(let variable): return VariableNode(variable)
    case .domain(let index, _, let previous): return DomainNode(index, previous: previous)
    case .member(let slot, _, _, let previous): return MemberNode(slot, previous: previous)
    case .field(.dot, let name): return FieldOfDotNode(name, expression)
    case .field(let base, let name): return FieldNode(make(base), name, expression)
    case .index(let base, let index): return IndexNode(make(base), make(index), expression)
    case .pipe(.member(let slot, _, _, let previous), .builtin(.length, nil)):
      return MemberLengthNode(slot, previous: previous, .builtin(.length, nil))
    case .pipe(let left, let right): return PipeNode(make(left), make(right))
    case .negate(let operand): return NegateNode(make(operand), expression)
    case .not(let operand): return NotNode(make(operand))
    case .and(let left, let right): return AndNode(make(left), make(right))
    case .or(let left, let right): return OrNode(make(left), make(right))
    case .alternative(let left, let right): return AlternativeNode(make(left), make(right))
    case .comparison(let operation, let left, .literal(let constant)):
      return ConstantComparisonNode(operation, make(left), constant)
    case .comparison(let operation, let left, let right):
      return ComparisonNode(operation, make(left), make(right))
    case .arithmetic(let operation, let left, let right):
      return ArithmeticNode(operation, make(left), make(right), expression)
    case .builtin(.length, nil): return LengthNode(expression)
    case .builtin(let builtin, let argument):
      return BuiltinNode(builtin, argument.map(make), expression)
    }
  }
}
