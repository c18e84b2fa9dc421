/// A JSON value: null, a boolean, a number, a string, an array or an object.
///
/// Values compare by meaning: numbers by value (`1 == 1.0`) and objects by their members,
/// whatever order the members were written in. Objects keep their members sorted by key, so
/// the canonical writer and the structural diff see them in one order.
///
/// ```swift
/// let value: JSONValue = ["heading": 271.5, "accuracy": 5]
/// print(value)          // {"accuracy":5,"heading":271.5}
/// value["heading"]      // .number(271.5)
/// ```
public enum JSONValue: Sendable, Hashable {
  /// The JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, exact when it is a 64-bit integer.
  case number(JSONNumber)
  /// A string of Unicode text.
  case string(String)
  /// An ordered list of values.
  case array([JSONValue])
  /// A set of members with unique keys, kept sorted by key.
  case object(JSONObject)

  /// The member named `key` when the value is an object, otherwise `nil`.
  ///
  /// ```swift
  /// let state: JSONValue = ["geo": ["heading": 90]]
  /// state["geo"]?["heading"]   // .number(90)
  /// ```
  ///
  /// - Parameter key: The member's key.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// The name of the value's kind as users read it in messages: `null`, `boolean`,
  /// `number`, `string`, `array` or `object`.
  ///
  /// ```swift
  /// JSONValue.array([]).kindName   // "array"
  /// ```
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  /// Whether the value is `null`.
  ///
  /// ```swift
  /// JSONValue.null.isNull   // true
  /// ```
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension JSONValue {
  /// Whether two values are equal by meaning: numbers by value, strings and keys by their
  /// code points (not by Unicode canonical equivalence, as `String` compares).
  ///
  /// ```swift
  /// JSONValue.number(JSONNumber(1)) == .number(JSONNumber(1.0))   // true
  /// ```
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return UTF8Order.equal(a, b)
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }
}

extension JSONValue: CustomStringConvertible {
  /// The value's canonical, compact JSON text.
  ///
  /// ```swift
  /// JSONValue.string("a\"b").description   // "\"a\\\"b\""
  /// ```
  public var description: String {
    var writer = JSONWriter()
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

extension JSONValue {
  /// The value's kind, whose ``JSONKind/phrase`` names it in messages: `a number`, `null`.
  ///
  /// ```swift
  /// JSONValue.string("x").kind.phrase   // "a string"
  /// ```
  package var kind: JSONKind {
    switch self {
    case .null: return .null
    case .bool: return .bool
    case .number: return .number
    case .string: return .string
    case .array: return .array
    case .object: return .object
    }
  }
}
