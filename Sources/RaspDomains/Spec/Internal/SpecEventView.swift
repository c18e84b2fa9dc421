import RaspJSON

/// The parts of one log event that `from` operands read — `payload`, `ts`, `source` and
/// `type` — with where the payload's fields are in the line, for error columns.
struct SpecEventView {
  /// The payload, or `nil` when the event has none.
  var payload: JSONValue?
  /// Where the payload object starts in the line.
  var payloadOffset: Int?
  /// Where the value of each top-level payload field starts in the line.
  var fieldOffsets: [String: Int] = [:]
  /// The event's type, `domain.event`.
  let type: String
  /// The `ts` as the log wrote it.
  let timestamp: JSONValue?
  /// The `source`.
  let source: String?
  /// The whole line, for paths into its other fields (`meta.user`, `error`).
  let line: UnsafeBufferPointer<UInt8>
  /// Where the event's own object starts in the line, when the line holds it inside another.
  let eventOffset: Int?

  /// Reads what the operations need from the event: the payload only when one of them reads it.
  init(
    domain: String, name: RaspEventName, payload reader: inout RaspPayload,
    context: RaspEventContext,
    readsPayload: Bool
  ) throws(RaspEventError) {
    type = domain + "." + name.string
    timestamp = context.timestampValue
    source = context.source
    line = context.lineBytes
    eventOffset = context.eventOffset
    guard readsPayload, !reader.isAbsent else { return }
    payloadOffset = reader.objectStart
    if let value = try reader.nonObjectValue() {
      payload = value
      return
    }
    var object: [(key: String, value: JSONValue)] = []
    while let field = try reader.nextField() {
      let key = field.string
      fieldOffsets[key] = reader.currentValueOffset
      object.append((key, try reader.value()))
    }
    object.sort { JSONObject.keyPrecedes($0.key, $1.key) }
    payload = .object(JSONObject(sortedMembers: object))
  }

  /// The value of an operand: a literal as it is, or what the event holds at its path.
  ///
  /// - Parameters:
  ///   - operand: The operand.
  ///   - expected: What the value must be, as a noun phrase for messages: `a number`.
  ///   - accepts: Whether a value is acceptable.
  /// - Returns: The value.
  /// - Throws: ``RaspEventError`` when the event has nothing there and there is no default, or
  ///   when `accepts` rejects the value.
  func resolve(
    _ operand: RaspSpecOperand, expected: String? = nil,
    accepts: (JSONValue) -> Bool = { _ in true }
  ) throws(RaspEventError) -> JSONValue {
    guard case .event(let path, let fallback) = operand else {
      if case .literal(let value) = operand { return value }
      return .null
    }
    guard let value = self.value(at: path) ?? fallback else {
      throw RaspEventError(
        offset: offset(of: path, field: false), reason: .missingField(path.description))
    }
    guard accepts(value) else {
      let found =
        if case .number(let number) = value { "\(number)" } else { value.kind.phrase }
      throw RaspEventError(
        offset: offset(of: path, field: true),
        reason: .wrongType(field: path.description, expected: expected ?? "a value", found: found))
    }
    return value
  }

  /// Whether the event meets an operation's `if` condition, whose field is a path of the
  /// event; a field the event lacks compares as `null`.
  ///
  /// - Throws: ``RaspEventError`` when the condition's value reads the event, which has
  ///   nothing there.
  func test(_ condition: RaspSpecCondition) throws(RaspEventError) -> Bool {
    let found = value(at: condition.field) ?? .null
    return (found == (try resolve(condition.value))) != condition.isNegated
  }

  /// A path with what it reads from the event filled in: a key from the event becomes a key
  /// (a string, or an integer's digits) or, for a negative integer, an index from the end;
  /// a filter's value read from the event becomes a literal.
  ///
  /// - Throws: ``RaspEventError`` when the event has nothing there (and there is no default),
  ///   or a key from the event is neither a string nor an integer.
  func resolve(_ path: RaspSpecPath) throws(RaspEventError) -> RaspSpecPath {
    var components: [RaspSpecPath.Component] = []
    components.reserveCapacity(path.components.count)
    for component in path.components {
      switch component {
      case .eventKey(let source):
        let key = try resolve(
          .event(source, default: nil), expected: "a string or an integer"
        ) { value in
          if case .string = value { return true }
          return RaspSpecDomain.isIndex(value)
        }
        switch key {
        case .string(let text): components.append(.key(text))
        case .number(let number):
          let index = number.integerValue.flatMap { Int(exactly: $0) } ?? 0
          components.append(index < 0 ? .index(index) : .key(String(index)))
        default: components.append(.key(key.description))
        }
      case .matching(let condition):
        guard case .event = condition.value else {
          components.append(component)
          continue
        }
        let value = try resolve(condition.value)
        components.append(
          .matching(
            RaspSpecCondition(
              field: condition.field, isNegated: condition.isNegated, value: .literal(value))))
      case .key, .index, .each:
        components.append(component)
      }
    }
    return RaspSpecPath(components: components)
  }

  /// The value at a path whose first key is `payload`, `ts`, `source` or `type`, or another
  /// field of the line as written (`meta.user`, `error`).
  func value(at path: JSONPath) -> JSONValue? {
    let root: JSONValue?
    switch path.firstKey {
    case "payload": root = payload
    case "ts": root = timestamp
    case "source": root = source.map(JSONValue.string)
    case "type": root = .string(type)
    case let key?:
      // Rare: the line is read whole for it — the event's own fields first, when the line
      // holds the event inside another (a Kafka message's), then the line's.
      guard line.count > 0, case .object(let object)? = try? JSONParser.parse(line) else {
        return nil
      }
      root = eventObject()?[key] ?? object[key]
    case nil: root = nil
    }
    guard let root else { return nil }
    return JSONPath(
      components: Array(path.components.dropFirst()), selectsLength: path.selectsLength
    )
    .evaluate(root)
  }

  /// The event's own object, when the line holds it inside another.
  private func eventObject() -> JSONObject? {
    guard let eventOffset else { return nil }
    var scanner = JSONScanner(line, position: eventOffset)
    guard (try? scanner.skipValue()) != nil,
      case .object(let object)? = try? JSONParser.parse(
        UnsafeBufferPointer(rebasing: line[eventOffset..<scanner.position]))
    else { return nil }
    return object
  }

  /// Where to point for a problem with the value at `path`: its top-level payload field when
  /// `field` is true and it exists, otherwise the payload object, otherwise the line's start.
  private func offset(of path: JSONPath, field: Bool) -> Int? {
    guard path.firstKey == "payload" else { return nil }
    if field, path.components.count > 1, case .key(let key) = path.components[1],
      let offset = fieldOffsets[key]
    {
      return offset
    }
    return payloadOffset
  }
}
