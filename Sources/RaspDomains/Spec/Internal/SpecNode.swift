import RaspJSON

/// A JSON value read from a spec file, with the byte offset of every value and key, so that
/// validation can say where each mistake is and report mistakes in document order.
///
/// ``JSONValue`` keeps object members sorted by key and forgets where they were written; a spec
/// needs both the order and the place.
struct SpecNode {
  /// What the node holds; members keep the order they were written in.
  enum Content {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([SpecNode])
    case object([SpecMember])
  }

  /// The value.
  let content: Content
  /// The byte offset of the value's first character.
  let offset: Int

  /// Reads a whole JSON text.
  ///
  /// The text is first checked by ``JSONParser``, so that syntax errors, duplicate keys and
  /// excessive nesting are reported exactly as everywhere else in rasp.
  ///
  /// - Parameter bytes: The text, as UTF-8.
  /// - Returns: The document's root.
  /// - Throws: ``JSONError`` with the offset of the first mistake.
  static func read(_ bytes: [UInt8]) throws(JSONError) -> SpecNode {
    _ = try JSONParser.parse(bytes)
    let result: Result<SpecNode, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      return Result { () throws(JSONError) -> SpecNode in try read(&scanner) }
    }
    return try result.get()
  }

  private static func read(_ scanner: inout JSONScanner) throws(JSONError) -> SpecNode {
    let kind = try scanner.peekKind()
    let offset = scanner.position
    switch kind {
    case .null:
      _ = try scanner.readNull()
      return SpecNode(content: .null, offset: offset)
    case .bool: return SpecNode(content: .bool(try scanner.readBool()), offset: offset)
    case .number: return SpecNode(content: .number(try scanner.readNumber()), offset: offset)
    case .string: return SpecNode(content: .string(try scanner.readString()), offset: offset)
    case .array:
      var elements: [SpecNode] = []
      var progress = try scanner.beginArray()
      while try scanner.nextElement(&progress) { elements.append(try read(&scanner)) }
      return SpecNode(content: .array(elements), offset: offset)
    case .object:
      var members: [SpecMember] = []
      var progress = try scanner.beginObject()
      while let key = try scanner.nextMember(&progress) {
        let name = scanner.string(key)
        members.append(SpecMember(key: name, keyOffset: key.start - 1, value: try read(&scanner)))
      }
      return SpecNode(content: .object(members), offset: offset)
    }
  }

  /// The node as a ``JSONValue``, for initial states and literal operands.
  var json: JSONValue {
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
  var phrase: String {
    switch content {
    case .null: return JSONKind.null.phrase
    case .bool: return JSONKind.bool.phrase
    case .number: return JSONKind.number.phrase
    case .string: return JSONKind.string.phrase
    case .array: return JSONKind.array.phrase
    case .object: return JSONKind.object.phrase
    }
  }

  /// The members, when the node is an object.
  var members: [SpecMember]? {
    if case .object(let members) = content { return members }
    return nil
  }
}

/// One member of an object in a spec file, with where its key was written.
struct SpecMember {
  /// The key.
  let key: String
  /// The byte offset of the key's opening quote.
  let keyOffset: Int
  /// The value.
  let value: SpecNode
}
