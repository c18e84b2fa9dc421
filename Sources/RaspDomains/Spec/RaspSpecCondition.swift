import RaspJSON

/// A test of one value against another, as a spec path's filter writes it:
/// `[?id == payload.id]`, `[?completed == true]`, `[?color != 'red']`.
///
/// In a path, the condition selects the elements of an array (or the members of an object)
/// whose ``field`` equals ``value`` — or, with ``isNegated``, does not. The field is a path
/// relative to the element (`id`, `meta.owner`, or `.` for the element itself); the value is
/// a literal or is read from the event, like any operand. A field the element does not have
/// compares as `null`, as in jq: `[?color == null]` selects the todos without a color.
/// Numbers compare by value: `1` equals `1.0`.
///
/// ```swift
/// let byID = RaspSpecCondition(
///   field: try JSONPath("id"), value: .event(try JSONPath("payload"), default: nil))
/// let done = RaspSpecCondition(field: try JSONPath("completed"), value: .literal(true))
/// done.matches(["id": 1, "completed": true])   // true
/// ```
public struct RaspSpecCondition: Sendable, Hashable, CustomStringConvertible {
  /// The path of the value to compare, relative to the element tested.
  public let field: JSONPath
  /// Whether the condition holds when the values differ (`!=`) rather than when they are
  /// equal (`==`).
  public let isNegated: Bool
  /// The value to compare with: a literal, or a path of the event until the event is decoded.
  public let value: RaspSpecOperand

  /// Creates a condition.
  ///
  /// ```swift
  /// let active = RaspSpecCondition(
  ///   field: try JSONPath("completed"), isNegated: true, value: .literal(true))
  /// ```
  ///
  /// - Parameters:
  ///   - field: The path of the value to compare, relative to the element.
  ///   - isNegated: `true` for `!=`, `false` (the default) for `==`.
  ///   - value: The value to compare with.
  public init(field: JSONPath, isNegated: Bool = false, value: RaspSpecOperand) {
    self.field = field
    self.isNegated = isNegated
    self.value = value
  }

  /// Whether an element meets the condition; always `false` while ``value`` is still to be
  /// read from an event.
  ///
  /// ```swift
  /// RaspSpecCondition(field: try JSONPath("."), value: .literal("red")).matches("red")  // true
  /// ```
  ///
  /// - Parameter element: The element to test.
  /// - Returns: Whether its ``field`` equals ``value`` (or differs, when negated).
  public func matches(_ element: JSONValue) -> Bool {
    guard case .literal(let expected) = value else { return false }
    let found = field.components.isEmpty ? element : field.evaluate(element) ?? .null
    return (found == expected) != isNegated
  }

  /// The condition as a path writes it, without the brackets: `?id == 3`.
  ///
  /// ```swift
  /// print(done)   // ?completed == true
  /// ```
  public var description: String {
    let operand: String
    switch value {
    case .literal(let literal): operand = literal.description
    case .event(let path, _): operand = path.description
    }
    return "?\(field.description) \(isNegated ? "!=" : "==") \(operand)"
  }
}
