import RaspJSON

/// The value an operation works with: written in the spec, or read from each event.
///
/// In a spec file, an operand is a JSON literal (`"value": 0`), or an object that reads the
/// event: `{"from": "payload.sku"}`, optionally with a `"default"` for events that lack the
/// value. `"from"` on the operation itself is shorthand for its main operand. A literal object
/// that has a `from` or `literal` key is written `{"literal": {…}}`.
///
/// ```swift
/// let price = RaspSpecOperand.event(try JSONPath("payload.price"), default: nil)
/// let one = RaspSpecOperand.literal(1)
/// ```
public enum RaspSpecOperand: Sendable, Hashable, CustomStringConvertible {
  /// A value written in the spec.
  case literal(JSONValue)
  /// The value at a path of the event (`payload.sku`, `ts`, `source`, `type`), or `default`
  /// when the event has nothing there; without a default, a missing value rejects the event.
  case event(JSONPath, default: JSONValue?)

  /// The operand as a spec writes it.
  ///
  /// ```swift
  /// RaspSpecOperand.event(try JSONPath("payload.sku"), default: nil).description
  /// // {"from":"payload.sku"}
  /// ```
  public var description: String {
    switch self {
    case .literal(let value):
      if case .object(let object) = value, object["from"] != nil || object["literal"] != nil {
        return "{\"literal\":\(value)}"
      }
      return value.description
    case .event(let path, let fallback):
      var object = JSONObject()
      object["from"] = .string(path.description)
      object["default"] = fallback
      return JSONValue.object(object).description
    }
  }

  /// The event paths an operand may start with.
  static let eventRoots = ["payload", "ts", "source", "type"]
}
