extension JSONValue: ExpressibleByNilLiteral {
  /// Creates `null` from `nil`.
  ///
  /// ```swift
  /// let value: JSONValue = nil
  /// ```
  ///
  /// - Parameter nilLiteral: Nothing.
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Creates a boolean value.
  ///
  /// ```swift
  /// let value: JSONValue = true
  /// ```
  ///
  /// - Parameter value: The boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Creates an exact integer number.
  ///
  /// ```swift
  /// let value: JSONValue = 42
  /// ```
  ///
  /// - Parameter value: The integer.
  public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Creates a number from a floating-point literal.
  ///
  /// ```swift
  /// let value: JSONValue = 271.5
  /// ```
  ///
  /// - Parameter value: The double.
  public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Creates a string value.
  ///
  /// ```swift
  /// let value: JSONValue = "next"
  /// ```
  ///
  /// - Parameter value: The string.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Creates an array value.
  ///
  /// ```swift
  /// let value: JSONValue = [1, "two", nil]
  /// ```
  ///
  /// - Parameter elements: The elements, in order.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Creates an object value; a repeated key keeps its last value.
  ///
  /// ```swift
  /// let value: JSONValue = ["rel": "next", "href": "/page/2"]
  /// ```
  ///
  /// - Parameter elements: The members.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var object = JSONObject()
    for (key, value) in elements { object[key] = value }
    self = .object(object)
  }
}
