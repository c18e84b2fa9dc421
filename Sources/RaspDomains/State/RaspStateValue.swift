import RaspJSON

/// A JSON value read as part of a domain's state, with its path for errors: the helper that
/// ``RaspDomain/decodeState(_:)`` implementations read a state back with.
///
/// Each accessor checks the value's kind and throws a ``RaspStateError`` naming the path and
/// what was found, so that a decoder reads like the state's shape.
///
/// ```swift
/// let state = RaspStateValue(value)
/// let heading = try state.member("heading").optional { try $0.double() }
/// let stack = try state.member("stack").array().map { try $0.string() }
/// ```
public struct RaspStateValue: Sendable {
  /// The value.
  public let value: JSONValue
  /// Its path in the state; empty for the state itself.
  public let path: String

  /// Starts reading a state.
  ///
  /// ```swift
  /// let state = RaspStateValue(try JSONParser.parse(#"{"count":1}"#))
  /// ```
  ///
  /// - Parameters:
  ///   - value: The state's JSON.
  ///   - path: Its path, empty for a whole state.
  public init(_ value: JSONValue, path: String = "") {
    self.value = value
    self.path = path
  }

  /// An error at this value's path.
  ///
  /// ```swift
  /// throw value.error("expected 'low', 'medium' or 'high'")
  /// ```
  ///
  /// - Parameter reason: What is wrong.
  /// - Returns: The error.
  public func error(_ reason: String) -> RaspStateError {
    RaspStateError(path: path, reason: reason)
  }

  /// An error saying what was expected, and what was found instead.
  func mismatch(_ expected: String) -> RaspStateError {
    var writer = JSONWriter()
    writer.write(value)
    var found = String(decoding: writer.bytes, as: UTF8.self)
    if found.count > 40 { found = String(found.prefix(37)) + "..." }
    return error("expected \(expected), found \(found)")
  }

  /// Whether the value is `null`.
  ///
  /// ```swift
  /// try state.member("modal").isNull
  /// ```
  public var isNull: Bool { value.isNull }

  /// The member `key` of an object.
  ///
  /// ```swift
  /// let tab = try state.member("tab")
  /// ```
  ///
  /// - Parameter key: The member's key.
  /// - Returns: The member, with its path.
  /// - Throws: ``RaspStateError`` when the value is not an object, or has no such member.
  public func member(_ key: String) throws(RaspStateError) -> RaspStateValue {
    guard let member = try optionalMember(key) else {
      throw error("missing member '\(key)'")
    }
    return member
  }

  /// The member `key` of an object, or `nil` when the object has none.
  ///
  /// ```swift
  /// let name = try link.optionalMember("name")?.string()
  /// ```
  ///
  /// - Parameter key: The member's key.
  /// - Returns: The member, with its path, or `nil`.
  /// - Throws: ``RaspStateError`` when the value is not an object.
  public func optionalMember(_ key: String) throws(RaspStateError) -> RaspStateValue? {
    guard case .object(let object) = value else { throw mismatch("an object") }
    return object[key].map { RaspStateValue($0, path: Self.join(path, key: key)) }
  }

  /// The members of an object, in key order.
  ///
  /// ```swift
  /// for (rel, link) in try state.member("links").members() { … }
  /// ```
  ///
  /// - Returns: Each member's key and value.
  /// - Throws: ``RaspStateError`` when the value is not an object.
  public func members() throws(RaspStateError) -> [(key: String, value: RaspStateValue)] {
    guard case .object(let object) = value else { throw mismatch("an object") }
    return object.members.map {
      ($0.key, RaspStateValue($0.value, path: Self.join(path, key: $0.key)))
    }
  }

  /// The object itself.
  ///
  /// ```swift
  /// let store = try state.object()
  /// ```
  ///
  /// - Returns: The object.
  /// - Throws: ``RaspStateError`` when the value is not an object.
  public func object() throws(RaspStateError) -> JSONObject {
    guard case .object(let object) = value else { throw mismatch("an object") }
    return object
  }

  /// The elements of an array, in order.
  ///
  /// ```swift
  /// let stack = try state.member("stack").array().map { try $0.string() }
  /// ```
  ///
  /// - Returns: The elements, with their paths.
  /// - Throws: ``RaspStateError`` when the value is not an array.
  public func array() throws(RaspStateError) -> [RaspStateValue] {
    guard case .array(let elements) = value else { throw mismatch("an array") }
    return elements.enumerated().map { RaspStateValue($1, path: path + "[\($0)]") }
  }

  /// A string.
  ///
  /// ```swift
  /// let tab = try state.member("tab").string()
  /// ```
  ///
  /// - Returns: The string.
  /// - Throws: ``RaspStateError`` when the value is not a string.
  public func string() throws(RaspStateError) -> String {
    guard case .string(let string) = value else { throw mismatch("a string") }
    return string
  }

  /// A number.
  ///
  /// ```swift
  /// let heading = try state.member("heading").double()
  /// ```
  ///
  /// - Returns: The number.
  /// - Throws: ``RaspStateError`` when the value is not a number.
  public func double() throws(RaspStateError) -> Double {
    guard case .number(let number) = value else { throw mismatch("a number") }
    return number.doubleValue
  }

  /// A whole number.
  ///
  /// ```swift
  /// let floor = try state.member("floor").integer()
  /// ```
  ///
  /// - Returns: The number.
  /// - Throws: ``RaspStateError`` when the value is not a whole number that fits an `Int`.
  public func integer() throws(RaspStateError) -> Int {
    guard case .number(let number) = value, let integer = number.integerValue,
      let exact = Int(exactly: integer)
    else { throw mismatch("a whole number") }
    return exact
  }

  /// A count: a whole number from 0 to 2^53, the largest that every JSON reader holds exactly.
  ///
  /// What a replay counts on from — launches, events, lines — is read with it: a count read
  /// from a file, say a checkpoint edited by hand, could otherwise be too large to count on,
  /// and counting past 2^53 one event at a time would take a replay centuries.
  ///
  /// ```swift
  /// let launches = try state.member("launches").count()
  /// ```
  ///
  /// - Returns: The count.
  /// - Throws: ``RaspStateError`` when the value is not a whole number from 0 to 2^53.
  public func count() throws(RaspStateError) -> Int {
    guard case .number(let number) = value, let integer = number.integerValue,
      integer >= 0, integer <= 1 << 53
    else { throw mismatch("a count from 0 to 2^53") }
    return Int(integer)
  }

  /// A Boolean.
  ///
  /// ```swift
  /// let templated = try link.member("templated").bool()
  /// ```
  ///
  /// - Returns: The Boolean.
  /// - Throws: ``RaspStateError`` when the value is not `true` or `false`.
  public func bool() throws(RaspStateError) -> Bool {
    guard case .bool(let bool) = value else { throw mismatch("true or false") }
    return bool
  }

  /// One of a set of strings, as the case of an enumeration.
  ///
  /// ```swift
  /// let phase = try state.member("phase").oneOf(LifecyclePhase.self)
  /// ```
  ///
  /// - Parameter type: An enumeration of strings.
  /// - Returns: The case.
  /// - Throws: ``RaspStateError`` when the value is not the raw value of a case.
  public func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type)
    throws(RaspStateError) -> Value where Value.RawValue == String
  {
    if case .string(let string) = value, let found = Value(rawValue: string) { return found }
    let names = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    throw mismatch("one of \(names)")
  }

  /// `nil` for `null`, and what `read` reads of any other value.
  ///
  /// ```swift
  /// let modal = try state.member("modal").optional { try $0.string() }
  /// ```
  ///
  /// - Parameter read: How to read a value that is not `null`.
  /// - Returns: `nil`, or the value read.
  /// - Throws: What `read` throws.
  public func optional<Value>(
    _ read: (RaspStateValue) throws(RaspStateError) -> Value
  ) throws(RaspStateError) -> Value? {
    isNull ? nil : try read(self)
  }

  /// A path with a member's key after it: `key`, `a.key`, or `a["odd key"]`.
  package static func join(_ path: String, key: String) -> String {
    let isPlain =
      !key.isEmpty
      && key.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
          || $0 == 0x5F
      }
    if isPlain { return path.isEmpty ? key : path + "." + key }
    var writer = JSONWriter()
    writer.writeString(key)
    return path + "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
  }
}
