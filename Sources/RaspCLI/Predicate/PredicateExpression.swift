import RaspJSON

/// An expression of the predicate language of `rasp check --assert` (docs/debugging.md), as
/// the parser makes it and the evaluator walks it.
///
/// The language is a small part of jq's: paths, literals, comparisons, `and`/`or`/`not`,
/// arithmetic, `//`, `|` and a few built-ins, over the state after an event, the state
/// before it (`$prev`), the event (`$event`) and its key (`$key`). Paths into the state
/// start with a domain (`.cart.total`); once bound to a replay's domains
/// (``PredicateParser/parse(_:domains:)``), each becomes ``domain(_:previous:)``, which reads
/// that domain's value alone.
indirect enum PredicateExpression: Equatable {
  /// A constant: a number, a string, `true`, `false`, `null`.
  case literal(JSONValue)
  /// `[a, b, …]`: an array of the elements' values.
  case array([PredicateExpression])
  /// `{"key": value, …}`: an object of the members' values.
  case object([PredicateObjectMember])
  /// `.`: the value being worked on — the state at the top, the left side's value after `|`,
  /// each element inside `any(…)` and `all(…)`.
  case dot
  /// `$event`, `$prev` or `$key`.
  case variable(PredicateVariable)
  /// A domain of the state after the event, or before it (`$prev.cart`): bound from
  /// `.cart` or `$prev.cart`.
  case domain(Int, name: String, previous: Bool)
  /// A member of a domain read member by member, after the event or before it: bound from
  /// `.domain.name` by ``bindingMembers(_:)``, for its value to be read from slot `Int` of the
  /// scope's ``PredicateScope/currentMembers`` (or ``PredicateScope/previousMembers``).
  case member(Int, domain: String, name: String, previous: Bool)
  /// `base.name` or `base["name"]`.
  case field(PredicateExpression, String)
  /// `base[index]`: an element of an array (negative from its end) or a member of an object.
  case index(PredicateExpression, PredicateExpression)
  /// `left | right`: `right` over the value of `left`.
  case pipe(PredicateExpression, PredicateExpression)
  /// `-value`.
  case negate(PredicateExpression)
  /// `not value` (or `value | not`): `true` when the value is `false` or `null`.
  case not(PredicateExpression)
  /// `left and right`.
  case and(PredicateExpression, PredicateExpression)
  /// `left or right`.
  case or(PredicateExpression, PredicateExpression)
  /// `left // right`: `left` unless it is `false` or `null`, then `right`.
  case alternative(PredicateExpression, PredicateExpression)
  /// `left == right` and the other comparisons, in jq's order of values.
  case comparison(PredicateComparison, PredicateExpression, PredicateExpression)
  /// `left + right` and the other operations of arithmetic.
  case arithmetic(PredicateArithmetic, PredicateExpression, PredicateExpression)
  /// A built-in over `.`: `length`, `keys`, `has(key)`, `any`, `any(condition)`, `all`,
  /// `all(condition)`.
  case builtin(PredicateBuiltin, PredicateExpression?)
}

/// A member of an object literal: its key and the expression of its value.
struct PredicateObjectMember: Equatable {
  /// The key.
  let key: String
  /// The value's expression.
  let value: PredicateExpression
}

/// The variables of the predicate language.
enum PredicateVariable: String, CaseIterable, Equatable {
  /// The event as rasp read it: `type`, `payload`, `ts`, and where it is: `file`, `line`,
  /// `seq`.
  case event
  /// The state before the event.
  case prev
  /// The event's key under `--key-by`, or `null`.
  case key
}

/// The comparisons, each in jq's order of values.
enum PredicateComparison: String, Equatable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
}

/// The operations of arithmetic.
enum PredicateArithmetic: String, Equatable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
}

/// The built-in functions.
enum PredicateBuiltin: String, CaseIterable, Equatable {
  case length
  case keys
  case has
  case any
  case all
}

extension PredicateExpression: CustomStringConvertible {
  /// The expression as jq would spell it: for paths in messages and reports
  /// (`.nav.stack[-1]`, `$prev.cart.total`).
  var description: String {
    switch self {
    case .literal(let value): return Self.text(of: value)
    case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      let texts = members.map { Self.text(of: .string($0.key)) + ":" + $0.value.description }
      return "{" + texts.joined(separator: ",") + "}"
    case .dot: return "."
    case .variable(let variable): return "$" + variable.rawValue
    case .domain(_, let name, let previous): return (previous ? "$prev." : ".") + Self.key(name)
    case .member(_, let domain, let name, let previous):
      return (previous ? "$prev." : ".") + Self.key(domain) + "." + Self.key(name)
    case .field(let base, let name):
      let prefix = base == .dot ? "" : base.description
      return prefix + "." + Self.key(name)
    case .index(let base, let index):
      let prefix = base == .dot ? "." : base.description
      return prefix + "[" + index.description + "]"
    case .pipe(let left, let right): return "\(left) | \(right)"
    case .negate(let value): return "-\(value.parenthesized)"
    case .not(let value): return "not \(value.parenthesized)"
    case .and(let left, let right): return "\(left.parenthesized) and \(right.parenthesized)"
    case .or(let left, let right): return "\(left.parenthesized) or \(right.parenthesized)"
    case .alternative(let left, let right):
      return "\(left.parenthesized) // \(right.parenthesized)"
    case .comparison(let operation, let left, let right):
      return "\(left.parenthesized) \(operation.rawValue) \(right.parenthesized)"
    case .arithmetic(let operation, let left, let right):
      return "\(left.parenthesized) \(operation.rawValue) \(right.parenthesized)"
    case .builtin(let builtin, let argument):
      return builtin.rawValue + (argument.map { "(\($0))" } ?? "")
    }
  }

  /// The expression, in parentheses when it is made of operators.
  private var parenthesized: String {
    switch self {
    case .pipe, .and, .or, .alternative, .comparison, .arithmetic, .not, .negate:
      return "(\(description))"
    default: return description
    }
  }

  /// A member's name as a path spells it: bare when it is an identifier, quoted otherwise.
  private static func key(_ name: String) -> String {
    guard let first = name.unicodeScalars.first, PredicateLexer.isIdentifierStart(first),
      name.unicodeScalars.allSatisfy(PredicateLexer.isIdentifierPart)
    else { return text(of: .string(name)) }
    return name
  }

  /// The canonical JSON of a value.
  static func text(of value: JSONValue) -> String {
    var writer = JSONWriter()
    writer.write(value)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

extension PredicateExpression {
  /// The expression with each `.domain.name` whose domain `slot` reads member by member bound
  /// to that member's slot.
  ///
  /// - Parameter slot: The slot of a domain's member, by the domain's position and the
  ///   member's name; `nil` for a domain read whole.
  /// - Returns: The bound expression.
  func bindingMembers(_ slot: (Int, String) -> Int?) -> PredicateExpression {
    func bind(_ expression: PredicateExpression) -> PredicateExpression {
      switch expression {
      case .field(.domain(let index, let domain, let previous), let name):
        guard let slot = slot(index, name) else { return expression }
        return .member(slot, domain: domain, name: name, previous: previous)
      case .literal, .dot, .variable, .domain, .member: return expression
      case .array(let elements): return .array(elements.map(bind))
      case .object(let members):
        return .object(members.map { PredicateObjectMember(key: $0.key, value: bind($0.value)) })
      case .field(let base, let name): return .field(bind(base), name)
      case .index(let base, let index): return .index(bind(base), bind(index))
      case .pipe(let left, let right): return .pipe(bind(left), bind(right))
      case .negate(let value): return .negate(bind(value))
      case .not(let value): return .not(bind(value))
      case .and(let left, let right): return .and(bind(left), bind(right))
      case .or(let left, let right): return .or(bind(left), bind(right))
      case .alternative(let left, let right): return .alternative(bind(left), bind(right))
      case .comparison(let operation, let left, let right):
        return .comparison(operation, bind(left), bind(right))
      case .arithmetic(let operation, let left, let right):
        return .arithmetic(operation, bind(left), bind(right))
      case .builtin(let builtin, let argument): return .builtin(builtin, argument.map(bind))
      }
    }
    return bind(self)
  }
}
