/// A cursor over JSON text in a byte buffer, the building block of every reader in rasp.
///
/// The scanner reads JSON straight from bytes, with no intermediate tree: it can skip a value
/// (validating it), read a string, a number or a literal, and walk the members of an object or
/// the elements of an array. ``JSONParser`` builds ``JSONValue`` trees on top of it, and the
/// event decoders of the domains read payloads field by field with it. Every problem is a
/// ``JSONError`` carrying the byte offset where it was found.
///
/// A scanner reads the bytes of a span, lent to it for the call of
/// ``withScanner(over:position:maximumDepth:_:)``; it never reads outside them.
///
/// ```swift
/// let bytes = Array(#"{"heading": 271.5}"#.utf8)
/// try JSONScanner.withScanner(over: bytes.span) { scanner throws(JSONError) in
///   var members = try scanner.beginObject()
///   while let key = try scanner.nextMember(&members) {
///     print(scanner.string(key), try scanner.readNumber())   // heading 271.5
///   }
/// }
/// ```
public struct JSONScanner {
  /// The text being read: memory the creator of the scanner keeps valid while it is used.
  @usableFromInline package let input: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  public var position: Int
  /// How deeply arrays and objects may nest.
  public let maximumDepth: Int
  /// How deeply the containers being read are nested now.
  public var depth = 0

  /// Lends a scanner over the bytes of a span, at their start (or at `position`), to `body`.
  ///
  /// The scanner reads the span's bytes in place, for the call of `body` only: it must not be
  /// kept, or copied out, once `body` returns. What `body` returns is returned.
  ///
  /// ```swift
  /// let line = Array(#"{"heading": 271.5}"#.utf8)
  /// let heading = try JSONScanner.withScanner(over: line.span, position: 12) {
  ///   scanner throws(JSONError) in try scanner.readDouble()
  /// }
  /// print(heading)   // 271.5
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The JSON text, as UTF-8 bytes.
  ///   - position: Where to start reading.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  ///   - body: What reads the text.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public static func withScanner<Value, Failure: Error>(
    over bytes: Span<UInt8>, position: Int = 0, maximumDepth: Int = JSONLimits.maximumDepth,
    _ body: (inout JSONScanner) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let outcome: Result<Value, Failure> = bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer, position: position, maximumDepth: maximumDepth)
      return Result { () throws(Failure) in try body(&scanner) }
    }
    return try outcome.get()
  }

  /// Creates a scanner at the start of (or `position` in) a buffer the caller keeps valid: the
  /// package's own readers, which scan their buffers in place
  /// (``withScanner(over:position:maximumDepth:_:)`` is the public form).
  ///
  /// ```swift
  /// var scanner = JSONScanner(buffer)
  /// ```
  ///
  /// - Parameters:
  ///   - input: The JSON text, as UTF-8 bytes.
  ///   - position: Where to start reading.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  @inlinable
  package init(
    _ input: UnsafeBufferPointer<UInt8>, position: Int = 0,
    maximumDepth: Int = JSONLimits.maximumDepth
  ) {
    self.input = input
    self.position = position
    self.maximumDepth = maximumDepth
  }

  /// Whether every byte has been read.
  ///
  /// ```swift
  /// scanner.skipWhitespace()
  /// if scanner.isAtEnd { print("done") }
  /// ```
  @inlinable
  public var isAtEnd: Bool { position >= input.count }

  /// The next byte without consuming it, or `nil` at the end.
  ///
  /// ```swift
  /// if scanner.peek() == UInt8(ascii: "{") { print("an object") }
  /// ```
  ///
  /// - Returns: The byte at ``position``.
  @inlinable
  public func peek() -> UInt8? {
    position < input.count ? input[position] : nil
  }

  /// Skips spaces, tabs, carriage returns and line feeds.
  ///
  /// ```swift
  /// scanner.skipWhitespace()
  /// ```
  @inlinable
  @inline(__always)
  public mutating func skipWhitespace() {
    var index = position
    while index < input.count {
      switch input[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default:
        position = index
        return
      }
    }
    position = index
  }

  /// Requires that nothing but whitespace follows.
  ///
  /// ```swift
  /// try scanner.skipValue()
  /// try scanner.expectEnd()
  /// ```
  ///
  /// - Throws: ``JSONError`` with ``JSONError/Reason/trailingContent(found:)``, or with
  ///   ``JSONError/Reason/nulByte``, ``JSONError/Reason/byteOrderMark`` or
  ///   ``JSONError/Reason/invalidUTF8(_:)`` when that is what follows.
  @inlinable
  public mutating func expectEnd() throws(JSONError) {
    skipWhitespace()
    guard position < input.count else { return }
    throw trailingContent()
  }

  /// The kind of the next value, judged by its first byte, after skipping whitespace.
  ///
  /// ```swift
  /// if try scanner.peekKind() == .object { print("an object") }
  /// ```
  ///
  /// - Returns: The kind of value that starts at the next byte.
  /// - Throws: ``JSONError`` when no value starts there.
  @inlinable
  @inline(__always)
  public mutating func peekKind() throws(JSONError) -> JSONKind {
    skipWhitespace()
    guard position < input.count else { throw unexpectedEnd(expected: "a value") }
    switch input[position] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    default: throw invalidValueStart()
    }
  }

  // MARK: Objects

  /// Consumes the `{` that opens an object.
  ///
  /// Pass the returned progress to ``nextMember(_:)`` until it returns `nil`.
  ///
  /// ```swift
  /// var members = try scanner.beginObject()
  /// while let key = try scanner.nextMember(&members) { try scanner.skipValue() }
  /// ```
  ///
  /// - Returns: The progress through the object's members.
  /// - Throws: ``JSONError`` when the next value is not an object, or nesting is too deep.
  @inlinable
  @inline(__always)
  public mutating func beginObject() throws(JSONError) -> JSONContainerProgress {
    skipWhitespace()
    guard position < input.count, input[position] == UInt8(ascii: "{") else {
      throw expectedValue("an object")
    }
    try enterContainer()
    return JSONContainerProgress(start: position - 1)
  }

  /// Reads the next member's key and its `:`, or consumes the closing `}` and returns `nil`.
  ///
  /// Call after ``beginObject()`` and after reading or skipping each member's value.
  ///
  /// ```swift
  /// while let key = try scanner.nextMember(&members) {
  ///   if scanner.matches(key, "heading") { heading = try scanner.readDouble() }
  ///   else { try scanner.skipValue() }
  /// }
  /// ```
  ///
  /// - Parameter progress: The progress returned by ``beginObject()``.
  /// - Returns: The key, or `nil` when the object ended.
  /// - Throws: ``JSONError`` for a missing comma, colon or key, or a trailing comma.
  @inlinable
  @inline(__always)
  public mutating func nextMember(_ progress: inout JSONContainerProgress) throws(JSONError)
    -> JSONRawString?
  {
    skipWhitespace()
    var index = position
    guard index < input.count else { throw memberError(progress) }
    var byte = input[index]
    if byte == UInt8(ascii: "}") {
      position = index + 1
      depth -= 1
      return nil
    }
    if progress.count > 0 {
      guard byte == UInt8(ascii: ",") else { throw memberError(progress) }
      index += 1
      while index < input.count, JSONScanner.isWhitespace(input[index]) { index += 1 }
      guard index < input.count else {
        position = index
        throw memberError(progress)
      }
      byte = input[index]
    }
    guard byte == UInt8(ascii: "\"") else {
      position = index
      throw memberError(progress)
    }
    position = index
    let key = try readRawString()
    index = position
    while index < input.count, JSONScanner.isWhitespace(input[index]) { index += 1 }
    guard index < input.count, input[index] == UInt8(ascii: ":") else {
      position = index
      throw colonError()
    }
    position = index + 1
    progress.count += 1
    return key
  }

  @inlinable
  @inline(__always)
  package static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// The error at ``position`` where a member, a comma or a closing brace was expected.
  @usableFromInline
  @inline(never)
  func memberError(_ progress: JSONContainerProgress) -> JSONError {
    guard position < input.count else {
      if progress.count > 0, JSONScanner.precededByComma(input, position) {
        return unexpectedEnd(expected: "a key")
      }
      let expected = progress.count > 0 ? "',' or '}'" : "a key or '}'"
      return unexpectedEnd(expected: expected, openedAt: progress.start)
    }
    let byte = input[position]
    if byte == UInt8(ascii: "}") {
      return trailingComma(before: "}")
    }
    if progress.count > 0, !(position > 0 && JSONScanner.precededByComma(input, position)) {
      return JSONError(
        offset: position,
        reason: .expected("',' or '}' after an object member", found: describe(at: position)))
    }
    if byte == UInt8(ascii: "'") { return JSONError(offset: position, reason: .singleQuotedString) }
    return JSONError(
      offset: position, reason: .expected("a key in double quotes", found: describe(at: position)))
  }

  /// Whether the last byte before `offset` that is not whitespace is a comma.
  @usableFromInline
  static func precededByComma(_ input: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
    var index = offset - 1
    while index >= 0, isWhitespace(input[index]) { index -= 1 }
    return index >= 0 && input[index] == UInt8(ascii: ",")
  }

  /// The error at ``position`` where the `:` after a key was expected.
  @usableFromInline
  @inline(never)
  func colonError() -> JSONError {
    guard position < input.count else { return unexpectedEnd(expected: "':' after the key") }
    return JSONError(
      offset: position, reason: .expected("':' after the key", found: describe(at: position)))
  }

  // MARK: Arrays

  /// Consumes the `[` that opens an array.
  ///
  /// ```swift
  /// var elements = try scanner.beginArray()
  /// while try scanner.nextElement(&elements) { _ = try scanner.readDouble() }
  /// ```
  ///
  /// - Returns: The progress through the array's elements.
  /// - Throws: ``JSONError`` when the next value is not an array, or nesting is too deep.
  @inlinable
  @inline(__always)
  public mutating func beginArray() throws(JSONError) -> JSONContainerProgress {
    skipWhitespace()
    guard position < input.count, input[position] == UInt8(ascii: "[") else {
      throw expectedValue("an array")
    }
    try enterContainer()
    return JSONContainerProgress(start: position - 1)
  }

  /// Moves to the next element, or consumes the closing `]` and returns `false`.
  ///
  /// ```swift
  /// while try scanner.nextElement(&elements) { try scanner.skipValue() }
  /// ```
  ///
  /// - Parameter progress: The progress returned by ``beginArray()``.
  /// - Returns: `true` when an element follows, `false` when the array ended.
  /// - Throws: ``JSONError`` for a missing comma or a trailing comma.
  @inlinable
  @inline(__always)
  public mutating func nextElement(_ progress: inout JSONContainerProgress) throws(JSONError)
    -> Bool
  {
    skipWhitespace()
    guard position < input.count else {
      let expected = progress.count > 0 ? "',' or ']'" : "a value or ']'"
      throw unexpectedEnd(expected: expected, openedAt: progress.start)
    }
    let byte = input[position]
    if byte == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return false
    }
    if progress.count > 0 {
      guard byte == UInt8(ascii: ",") else {
        throw JSONError(
          offset: position,
          reason: .expected("',' or ']' after an array element", found: describe(at: position)))
      }
      position += 1
      skipWhitespace()
      if position < input.count, input[position] == UInt8(ascii: "]") {
        throw trailingComma(before: "]")
      }
    }
    progress.count += 1
    return true
  }

  @inlinable
  mutating func enterContainer() throws(JSONError) {
    guard depth < maximumDepth else {
      throw JSONError(offset: position, reason: .tooDeep(limit: maximumDepth))
    }
    depth += 1
    position += 1
  }

  // MARK: Literals

  /// Reads `true` or `false`.
  ///
  /// ```swift
  /// let isMoving = try scanner.readBool()
  /// ```
  ///
  /// - Returns: The boolean.
  /// - Throws: ``JSONError`` when the next value is not a boolean.
  @inlinable
  public mutating func readBool() throws(JSONError) -> Bool {
    skipWhitespace()
    if matchLiteral("true") { return true }
    if matchLiteral("false") { return false }
    throw expectedValue("a boolean")
  }

  /// Consumes `null` if it is next, and tells whether it was.
  ///
  /// ```swift
  /// if try scanner.readNull() { accuracy = nil } else { accuracy = try scanner.readDouble() }
  /// ```
  ///
  /// - Returns: `true` when a `null` was consumed.
  /// - Throws: ``JSONError`` only at the end of the input.
  @inlinable
  public mutating func readNull() throws(JSONError) -> Bool {
    skipWhitespace()
    guard position < input.count else { throw unexpectedEnd(expected: "a value") }
    return matchLiteral("null")
  }

  @inlinable
  mutating func matchLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard input.count - position >= count else { return false }
    let base = literal.utf8Start
    for index in 0..<count where input[position + index] != base[index] { return false }
    let end = position + count
    if end < input.count, JSONScanner.isWordByte(input[end]) { return false }
    position = end
    return true
  }

  @inlinable
  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
      return true
    default:
      return false
    }
  }
}

/// The broad kind of a JSON value, known from its first byte.
///
/// ```swift
/// switch try scanner.peekKind() {
/// case .object: print("an object")
/// default: try scanner.skipValue()
/// }
/// ```
public enum JSONKind: Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool
  /// A number.
  case number
  /// A string.
  case string
  /// An array.
  case array
  /// An object.
  case object
}

/// How far the scanner has read into one object or array.
///
/// Returned by ``JSONScanner/beginObject()`` and ``JSONScanner/beginArray()``, and passed back to
/// ``JSONScanner/nextMember(_:)`` and ``JSONScanner/nextElement(_:)``, which need it to tell the
/// first member from the others (only those follow a comma).
///
/// ```swift
/// var members = try scanner.beginObject()
/// while let key = try scanner.nextMember(&members) { try scanner.skipValue() }
/// print(members.count)
/// ```
public struct JSONContainerProgress: Sendable {
  /// The offset of the opening bracket or brace.
  public let start: Int
  /// How many members or elements have been started.
  public var count = 0

  /// Creates the progress of a container opened at `start`.
  ///
  /// ```swift
  /// let progress = JSONContainerProgress(start: 0)
  /// ```
  ///
  /// - Parameter start: The offset of the opening bracket or brace.
  @inlinable
  public init(start: Int) { self.start = start }
}
