import RaspJSON

/// Reads an event's payload field by field, straight from the log line's bytes.
///
/// A domain's decoder walks the payload object with ``nextField()``, reads the fields it knows
/// with the typed readers (``double()``, ``string()``, …) and skips the others. No tree is built,
/// and every mistake becomes a ``RaspEventError`` that names the field's full path
/// (`payload.location.latitude`) and points at the offending value's column.
///
/// The log reader has already checked the payload's syntax, including duplicate keys, before
/// the decoder sees it.
///
/// ```swift
/// var latitude: Double?
/// var longitude: Double?
/// while let field = try payload.nextField() {
///   switch field {
///   case "latitude": latitude = try payload.double(in: -90...90)
///   case "longitude": longitude = try payload.double(in: -180...180)
///   default: try payload.skip()
///   }
/// }
/// guard let latitude else { throw payload.missing("latitude") }
/// ```
public struct RaspPayload {
  @usableFromInline var scanner: JSONScanner
  @usableFromInline var top: Level
  @usableFromInline var nested: [Level] = []
  @usableFromInline var closedLevel: Level?
  /// The dotted paths of the nested objects entered so far, for messages.
  @usableFromInline var nestedNames: [String] = []
  @usableFromInline var currentKey: JSONRawString?
  @usableFromInline var currentValueOffset = 0
  /// The keys of the payload object so far, to reject duplicates.
  @usableFromInline var topKeys = JSONKeyTracker()
  /// The keys of each nested object being read, parallel to ``nested``.
  @usableFromInline var nestedKeys: [JSONKeyTracker] = []
  /// Whether the payload object's closing brace has been read.
  @usableFromInline var isFinished = false

  @usableFromInline
  struct Level {
    @usableFromInline var progress: JSONContainerProgress?
    /// The level's path in ``nestedNames``, or -1 for the payload itself.
    @usableFromInline let nameIndex: Int
    @usableFromInline let parentKey: JSONRawString?
    @usableFromInline let start: Int

    @inlinable
    init(progress: JSONContainerProgress?, nameIndex: Int, parentKey: JSONRawString?, start: Int) {
      self.progress = progress
      self.nameIndex = nameIndex
      self.parentKey = parentKey
      self.start = start
    }
  }

  /// Creates a reader for the payload object starting at `offset` in `line`, or for an absent
  /// payload when `offset` is `nil` (every field is then missing).
  ///
  /// ```swift
  /// var payload = try RaspPayload(line: bytes, offset: payloadOffset)
  /// ```
  ///
  /// - Parameters:
  ///   - line: The log line.
  ///   - offset: Where the payload object starts, or `nil` when the event has none.
  /// - Throws: ``RaspEventError`` when the value there is not an object.
  @inlinable
  public init(line: UnsafeBufferPointer<UInt8>, offset: Int?) throws(RaspEventError) {
    scanner = JSONScanner(line, position: offset ?? line.count)
    top = Level(progress: nil, nameIndex: -1, parentKey: nil, start: offset ?? 0)
    guard let offset else {
      isFinished = true
      return
    }
    do {
      top.progress = try scanner.beginObject()
    } catch {
      throw RaspEventError(
        offset: offset,
        reason: .wrongType(field: "payload", expected: "an object", found: scanner.describeValue(at: offset)))
    }
  }

  /// Moves to the next field of the current object and returns its key, or `nil` at its end.
  ///
  /// After the last field of a nested object (entered with ``beginObject()``), returns `nil`
  /// once and goes back to the enclosing object.
  ///
  /// ```swift
  /// while let field = try payload.nextField() {
  ///   if field == "heading" { heading = try payload.double() } else { try payload.skip() }
  /// }
  /// ```
  ///
  /// - Returns: The field's key, or `nil` when the object has no more fields.
  /// - Throws: ``RaspEventError`` only for malformed JSON, which the log reader has ruled out.
  @inlinable
  public mutating func nextField() throws(RaspEventError) -> RaspFieldKey? {
    let isNested = !nested.isEmpty
    guard !isFinished || isNested,
      var progress = isNested ? nested[nested.count - 1].progress : top.progress
    else {
      return nil
    }
    let key: JSONRawString?
    do {
      key = try scanner.nextMember(&progress)
      if let key {
        if isNested {
          try nestedKeys[nestedKeys.count - 1].record(key, in: scanner)
        } else {
          try topKeys.record(key, in: scanner)
        }
      }
    } catch {
      throw RaspEventError(error)
    }
    if isNested { nested[nested.count - 1].progress = progress } else { top.progress = progress }
    guard let key else {
      if isNested {
        let level = nested.removeLast()
        nestedKeys.removeLast()
        currentKey = level.parentKey
        currentValueOffset = level.start
        closedLevel = level
      } else {
        // The payload itself ended: errors now concern it, not a nested object read before.
        closedLevel = nil
        isFinished = true
      }
      return nil
    }
    closedLevel = nil
    currentKey = key
    scanner.skipWhitespace()
    currentValueOffset = scanner.position
    return RaspFieldKey(raw: key, input: scanner.input)
  }

  /// Enters the current field's value, which must be an object; read it with ``nextField()``.
  ///
  /// ```swift
  /// case "acceleration":
  ///   try payload.beginObject()
  ///   while let axis = try payload.nextField() { … }
  /// ```
  ///
  /// - Throws: ``RaspEventError`` when the value is not an object.
  public mutating func beginObject() throws(RaspEventError) {
    let name = fieldPath()
    let key = currentKey
    let start = currentValueOffset
    guard (try? scanner.peekKind()) == .object else {
      throw wrongType(expected: "an object")
    }
    do {
      let progress = try scanner.beginObject()
      nestedNames.append(name)
      nestedKeys.append(JSONKeyTracker())
      nested.append(Level(progress: progress, nameIndex: nestedNames.count - 1, parentKey: key, start: start))
    } catch {
      throw RaspEventError(error)
    }
  }

  /// Skips the current field's value.
  ///
  /// ```swift
  /// default: try payload.skip()
  /// ```
  ///
  /// - Throws: ``RaspEventError`` only for malformed JSON, which the log reader has ruled out.
  @inlinable
  public mutating func skip() throws(RaspEventError) {
    do {
      try scanner.skipValue()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// Reads whatever fields the decoder left unread, checking them, up to the payload's end.
  ///
  /// The replay calls this after a domain's decoder, so that every payload is checked
  /// completely — syntax and duplicate keys — even when a decoder stops reading early.
  ///
  /// ```swift
  /// let event = try domain.decodeEvent(name, payload: &payload, context: context)
  /// try payload.finish()
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for malformed JSON or a duplicate key in the unread part.
  @inlinable
  public mutating func finish() throws(RaspEventError) {
    while !isFinished || !nested.isEmpty {
      if try nextField() != nil { try skip() }
    }
  }

  /// The dotted path of a level: `payload`, or a nested object's.
  @usableFromInline
  func name(of level: Level) -> String {
    level.nameIndex < 0 ? "payload" : nestedNames[level.nameIndex]
  }

  /// The full path of the current field, such as `payload.location.latitude`.
  ///
  /// ```swift
  /// payload.fieldPath()   // "payload.heading"
  /// ```
  ///
  /// - Returns: The dotted path of the field being read.
  public func fieldPath() -> String {
    let prefix = name(of: nested.last ?? top)
    guard let currentKey else { return prefix }
    return prefix + "." + scanner.string(currentKey)
  }

  /// The error for a required field that the current object lacks.
  ///
  /// Call it after ``nextField()`` returned `nil`: it names the field within the object that
  /// just ended, whether the payload itself or a nested object.
  ///
  /// ```swift
  /// guard let heading else { throw payload.missing("heading") }
  /// ```
  ///
  /// - Parameter field: The field's key in the current object.
  /// - Returns: An error naming the field's full path, pointing at the object.
  public func missing(_ field: String) -> RaspEventError {
    let level = closedLevel ?? nested.last ?? top
    return RaspEventError(
      offset: level.progress == nil ? nil : level.start, reason: .missingField(name(of: level) + "." + field))
  }

  /// The error for an object whose fields are acceptable one by one but not together.
  ///
  /// Call it after ``nextField()`` returned `nil`: like ``missing(_:)``, it names the object
  /// that just ended, whether the payload itself or a nested object, and points at its start.
  ///
  /// ```swift
  /// guard acceleration != nil || attitude != nil else {
  ///   throw payload.invalidObject("must have at least one of 'acceleration', 'attitude'")
  /// }
  /// // invalid value for field 'payload': must have at least one of 'acceleration', 'attitude'
  /// ```
  ///
  /// - Parameter reason: Why the object is rejected.
  /// - Returns: An error naming the object's path, pointing at the object.
  public func invalidObject(_ reason: String) -> RaspEventError {
    let level = closedLevel ?? nested.last ?? top
    return RaspEventError(
      offset: level.progress == nil ? nil : level.start,
      reason: .invalidValue(field: name(of: level), reason: reason))
  }

  /// The error for a field whose value is not acceptable.
  ///
  /// ```swift
  /// throw payload.invalid("must be one of 'low', 'medium', 'high'")
  /// ```
  ///
  /// - Parameter reason: Why the value is rejected.
  /// - Returns: An error naming the current field, pointing at its value.
  public func invalid(_ reason: String) -> RaspEventError {
    RaspEventError(offset: currentValueOffset, reason: .invalidValue(field: fieldPath(), reason: reason))
  }

  /// The error for a field whose value is of the wrong kind.
  ///
  /// ```swift
  /// throw payload.wrongType(expected: "a string or an object")
  /// ```
  ///
  /// - Parameter expected: What the field must hold, as a noun phrase.
  /// - Returns: An error naming the current field, pointing at its value.
  public func wrongType(expected: String) -> RaspEventError {
    RaspEventError(
      offset: currentValueOffset,
      reason: .wrongType(
        field: fieldPath(), expected: expected, found: scanner.describeValue(at: currentValueOffset)))
  }

  /// The kind of the current field's value, without consuming it.
  ///
  /// ```swift
  /// if try payload.kind() == .string { href = try payload.string() }
  /// ```
  ///
  /// - Returns: The value's kind.
  /// - Throws: ``RaspEventError`` only for malformed JSON.
  @inlinable
  public mutating func kind() throws(RaspEventError) -> JSONKind {
    do {
      return try scanner.peekKind()
    } catch {
      throw RaspEventError(error)
    }
  }
}

/// The key of a payload field, compared with names without decoding or allocating.
///
/// ```swift
/// switch field {
/// case "heading": heading = try payload.double()
/// default: try payload.skip()
/// }
/// ```
public struct RaspFieldKey {
  @usableFromInline let raw: JSONRawString
  @usableFromInline let input: UnsafeBufferPointer<UInt8>

  @inlinable
  init(raw: JSONRawString, input: UnsafeBufferPointer<UInt8>) {
    self.raw = raw
    self.input = input
  }

  /// The key as a string.
  ///
  /// ```swift
  /// print(field.string)   // heading
  /// ```
  public var string: String { JSONScanner(input).string(raw) }

  /// Whether the key is `name`.
  ///
  /// ```swift
  /// if field == "heading" { heading = try payload.double() }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The field's key.
  ///   - name: A name.
  /// - Returns: `true` when they are the same text.
  @inlinable
  public static func == (key: RaspFieldKey, name: StaticString) -> Bool {
    if key.raw.hasEscapes { return JSONScanner(key.input).matches(key.raw, name) }
    let count = name.utf8CodeUnitCount
    guard key.raw.end - key.raw.start == count else { return false }
    let base = name.utf8Start
    for index in 0..<count where key.input[key.raw.start + index] != base[index] { return false }
    return true
  }

  /// Lets `switch` match a key against string literals.
  ///
  /// ```swift
  /// switch field { case "heading": … default: … }
  /// ```
  ///
  /// - Parameters:
  ///   - name: A name in a `case` pattern.
  ///   - key: The field's key.
  /// - Returns: `true` when they are the same text.
  @inlinable
  public static func ~= (name: StaticString, key: RaspFieldKey) -> Bool {
    key == name
  }
}
