/// Parses JSON text into ``JSONValue`` trees.
///
/// The parser is strict RFC 8259: one value, no comments, no trailing commas, no `NaN`, strings
/// in valid UTF-8 with valid escapes. It also rejects duplicate keys, which RFC 8259 leaves to the
/// implementation: rasp never drops a value silently. Every error is a ``JSONError`` carrying
/// the byte offset and a plain-English reason.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"b": [1, 2.5], "a": null}"#)
/// print(value)   // {"a":null,"b":[1,2.5]}
/// ```
public enum JSONParser {
  /// Parses a complete JSON text from the bytes of a span, in place.
  ///
  /// The text can be part of a larger buffer — a field of a line, a slice of a file read
  /// whole — without copying it out; the span only lends its bytes for the call. Offsets in
  /// errors count from the span's first byte.
  ///
  /// ```swift
  /// let line = Array(#"{"type":"geo.fix","payload":{"lat":1}}"#.utf8)
  /// let payload = try JSONParser.parse(line.span.extracting(28..<37))
  /// print(payload)   // {"lat":1}
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The text, as UTF-8, and nothing else.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  /// - Returns: The value.
  /// - Throws: ``JSONError`` for any syntax error, or text after the value.
  public static func parse(
    _ bytes: Span<UInt8>, maximumDepth: Int = JSONLimits.maximumDepth
  ) throws(JSONError) -> JSONValue {
    let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONValue in
        try parse(buffer, maximumDepth: maximumDepth)
      }
    }
    return try result.get()
  }

  /// Parses a complete JSON text from bytes in memory the caller keeps valid: the package's
  /// own readers, which parse their buffers in place (the form that takes a `Span` is the
  /// public one).
  ///
  /// ```swift
  /// let value = try JSONParser.parse(buffer)
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The text, as UTF-8.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  /// - Returns: The value.
  /// - Throws: ``JSONError`` for any syntax error, or text after the value.
  package static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONLimits.maximumDepth
  ) throws(JSONError) -> JSONValue {
    var scanner = JSONScanner(bytes, maximumDepth: maximumDepth)
    let value = try scanner.readValue()
    try scanner.expectEnd()
    return value
  }

  /// Parses a complete JSON text from an array of bytes.
  ///
  /// ```swift
  /// let value = try JSONParser.parse(Array(#"{"a":1}"#.utf8))
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The text, as UTF-8.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  /// - Returns: The value.
  /// - Throws: ``JSONError`` for any syntax error.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = JSONLimits.maximumDepth
  ) throws(JSONError) -> JSONValue {
    let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONValue in
        try parse(buffer, maximumDepth: maximumDepth)
      }
    }
    return try result.get()
  }

  /// Parses a complete JSON text from a string.
  ///
  /// ```swift
  /// let value = try JSONParser.parse(#"{"heading": 90}"#)
  /// ```
  ///
  /// - Parameter text: The text.
  /// - Returns: The value.
  /// - Throws: ``JSONError`` for any syntax error.
  public static func parse(_ text: String) throws(JSONError) -> JSONValue {
    try parse(Array(text.utf8))
  }
}

extension JSONScanner {
  /// Reads the next value into a tree.
  ///
  /// ```swift
  /// let payload = try scanner.readValue()
  /// ```
  ///
  /// - Returns: The value; objects have their members sorted by key.
  /// - Throws: ``JSONError`` for any problem, including a duplicate key: the same error, at the
  ///   same offset, that ``skipValue()`` reports for the same text.
  public mutating func readValue() throws(JSONError) -> JSONValue {
    let start = position
    let startDepth = depth
    do {
      return try readTree()
    } catch {
      // Reading finds duplicate keys by sorting a whole object's members, which is cheaper than
      // comparing each key with the others as skipping does, but can meet a later mistake
      // first. On failure, skip the same text: that reports the first mistake in the text.
      var probe = self
      probe.position = start
      probe.depth = startDepth
      do {
        try probe.skipValue()
      } catch {
        throw error
      }
      throw error
    }
  }

  /// Reads the next value into a tree, finding duplicate keys once each object is read.
  @usableFromInline
  mutating func readTree() throws(JSONError) -> JSONValue {
    switch try peekKind() {
    case .null:
      guard try readNull() else { throw invalidValueStart() }
      return .null
    case .bool: return .bool(try readBool())
    case .number: return .number(try readNumber())
    case .string: return .string(try readString())
    case .array:
      var elements: [JSONValue] = []
      var progress = try beginArray()
      while try nextElement(&progress) {
        elements.append(try readTree())
      }
      return .array(elements)
    case .object:
      var members: [JSONObject.Member] = []
      var progress = try beginObject()
      while let key = try nextMember(&progress) {
        members.append((string(key), try readTree()))
      }
      members.sort { JSONObject.keyPrecedes($0.key, $1.key) }
      for index in members.indices.dropFirst()
      where UTF8Order.equal(members[index - 1].key, members[index].key) {
        // The offset is found again by readValue(), which skips the text.
        throw JSONError(offset: progress.start, reason: .duplicateKey(members[index].key))
      }
      return .object(JSONObject(sortedMembers: members))
    }
  }
}
