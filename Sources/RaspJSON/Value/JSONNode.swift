/// A JSON value read from a file that people write — a spec, a log format's map — with the
/// byte offset of every value and key, so that validation can say where each mistake is and
/// report mistakes in document order.
///
/// ``JSONValue`` keeps object members sorted by key and forgets where they were written; such
/// files need both the order and the place.
///
/// ```swift
/// let root = try JSONNode.read(Array(#"{"type": "kind"}"#.utf8))
/// root.members?.first?.keyOffset   // 1
/// ```
package struct JSONNode {
  /// What the node holds; members keep the order they were written in.
  package enum Content {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object([JSONNodeMember])
  }

  /// The value.
  package let content: Content
  /// The byte offset of the value's first character.
  package let offset: Int

  /// Reads a whole JSON text.
  ///
  /// The text is first checked by ``JSONParser``, so that syntax errors, duplicate keys and
  /// excessive nesting are reported exactly as everywhere else in rasp.
  ///
  /// - Parameters:
  ///   - bytes: The text, as UTF-8.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  /// - Returns: The document's root.
  /// - Throws: ``JSONError`` with the offset of the first mistake.
  package static func read(
    _ bytes: [UInt8], maximumDepth: Int = JSONLimits.maximumDepth
  ) throws(JSONError) -> JSONNode {
    try read(bytes, from: 0, maximumDepth: maximumDepth)
  }

  /// Reads a whole file's JSON text — a spec, a map file, a DevTools export — skipping a UTF-8
  /// byte order mark at its very start, as Windows editors write one (RFC 8259 lets a parser
  /// ignore it). Offsets stay those of the file, mark included, so that a message's line and
  /// column are the file's.
  ///
  /// ```swift
  /// let root = try JSONNode.read(file: try environment.readFile("app.map.json"))
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - maximumDepth: How deeply arrays and objects may nest.
  /// - Returns: The document's root.
  /// - Throws: ``JSONError`` with the offset of the first mistake in the file.
  package static func read(
    file bytes: [UInt8], maximumDepth: Int = JSONLimits.maximumDepth
  ) throws(JSONError) -> JSONNode {
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    return try read(bytes, from: start, maximumDepth: maximumDepth)
  }

  private static func read(
    _ bytes: [UInt8], from start: Int, maximumDepth: Int
  ) throws(JSONError) -> JSONNode {
    let result: Result<JSONNode, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONNode in
        // Checked whole first, so that errors are reported as everywhere else in rasp.
        var checker = JSONScanner(buffer, position: start, maximumDepth: maximumDepth)
        _ = try checker.readValue()
        try checker.expectEnd()
        var scanner = JSONScanner(buffer, position: start, maximumDepth: maximumDepth)
        return try read(&scanner)
      }
    }
    return try result.get()
  }

  private static func read(_ scanner: inout JSONScanner) throws(JSONError) -> JSONNode {
    let kind = try scanner.peekKind()
    let offset = scanner.position
    switch kind {
    case .null:
      _ = try scanner.readNull()
      return JSONNode(content: .null, offset: offset)
    case .bool: return JSONNode(content: .bool(try scanner.readBool()), offset: offset)
    case .number: return JSONNode(content: .number(try scanner.readNumber()), offset: offset)
    case .string: return JSONNode(content: .string(try scanner.readString()), offset: offset)
    case .array:
      var elements: [JSONNode] = []
      var progress = try scanner.beginArray()
      while try scanner.nextElement(&progress) { elements.append(try read(&scanner)) }
      return JSONNode(content: .array(elements), offset: offset)
    case .object:
      var members: [JSONNodeMember] = []
      var progress = try scanner.beginObject()
      while let key = try scanner.nextMember(&progress) {
        let name = scanner.string(key)
        members.append(
          JSONNodeMember(key: name, keyOffset: key.start - 1, value: try read(&scanner)))
      }
      return JSONNode(content: .object(members), offset: offset)
    }
  }

  /// The node as a ``JSONValue``, for initial states and literal operands.
  package var json: JSONValue {
    switch content {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .number(let number): return .number(number)
    case .string(let text): return .string(text)
    case .array(let elements): return .array(elements.map(\.json))
    case .object(let members):
      let sorted = members.map { (key: $0.key, value: $0.value.json) }
        .sorted { JSONObject.keyPrecedes($0.key, $1.key) }
      return .object(JSONObject(sortedMembers: sorted))
    }
  }

  /// The kind of the value as a noun phrase for messages: `a string`, `an object`, `null`.
  package var phrase: String { json.kind.phrase }

  /// The members, when the node is an object.
  package var members: [JSONNodeMember]? {
    if case .object(let members) = content { return members }
    return nil
  }
}

/// One member of an object, with where its key was written.
package struct JSONNodeMember {
  /// The key.
  package let key: String
  /// The byte offset of the key's opening quote.
  package let keyOffset: Int
  /// The value.
  package let value: JSONNode
}
