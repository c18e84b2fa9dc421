import RaspJSON

/// Reads an event's payload field by field, straight from the log line's bytes.
///
/// A domain's decoder walks the payload object with ``nextField()``, reads the fields it knows
/// with the typed readers (``double()``, ``string()``, …) and skips the others. No tree is built,
/// and every mistake becomes a ``RaspEventError`` that names the field's full path
/// (`payload.location.latitude`) and points at the offending value's column.
///
/// The reader reads the log line in place: it, and the field keys it returns, are valid only
/// while the decoder runs. Keep the values read, not the reader or its keys. To try a decoder
/// on a payload of your own, in a test, use ``RaspDomain/decodeEvent(_:payloadJSON:)``.
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
  /// The progress through the object being read: the payload, or a nested object.
  @usableFromInline var progress: JSONContainerProgress
  /// The keys of the object being read so far, to reject duplicates.
  @usableFromInline var keys: RaspPayloadKeys
  /// The key of the field being read, or `nil` before the first.
  @usableFromInline var currentKey: JSONRawString?
  /// Where the value of the field being read starts.
  @usableFromInline var currentValueOffset = 0
  /// Where the object being read starts.
  @usableFromInline var objectStart: Int
  /// How many objects enclose the one being read (0 for the payload itself).
  @usableFromInline var depth = 0
  /// Whether the event has no payload at all.
  @usableFromInline var isAbsent: Bool
  /// Whether the payload object's closing brace has been read.
  @usableFromInline var isFinished = false
  /// The key and start of the nested object that ended last, for errors about it.
  @usableFromInline var closedKey: JSONRawString?
  @usableFromInline var closedStart = 0
  /// What is kept only when needed: enclosing objects, keys beyond four.
  @usableFromInline var nesting: RaspPayloadNesting?
  /// Where the payload must end — just past its closing brace — when the reader was told
  /// (see ``init(line:offset:expectedEnd:)``); -1 otherwise.
  @usableFromInline var expectedEnd: Int
  /// Where a payload that is not an object starts — a string, a number, an array, as Redux
  /// actions and CloudEvents may have — or -1. Such a payload has no fields: ``nextField()``
  /// throws, and ``nonObjectValue()`` reads it whole.
  @usableFromInline var valueStart = -1
  /// Whether a field of the payload itself (not of a nested object) was skipped: one the
  /// decoder does not read, perhaps one its type does not define, which the replay then looks
  /// for (an unknown field is a warning).
  @usableFromInline package var hasSkippedField = false

  /// A reader for the payload object starting at `offset` in `line`, or for an absent payload
  /// when `offset` is `nil` (every field is then missing).
  ///
  /// With an `expectedEnd`, ``finish()`` also checks that the payload's closing brace is just
  /// before it, and throws ``unconfirmedEnd`` when it is not: the replay's envelope parser may
  /// take a payload's end for granted, and the payload reader, which reads every byte of it
  /// anyway, is where that is confirmed.
  ///
  /// - Parameters:
  ///   - line: The log line, which must outlive the reader.
  ///   - offset: Where the payload object starts, or `nil` when the event has none.
  ///   - expectedEnd: Where the payload must end, just past its closing brace, or `nil`.
  ///
  /// A payload that is not an object is accepted here, and refused by ``nextField()``: a domain
  /// that reads fields reports it, one that reads the whole value (a spec's `from: "payload"`)
  /// takes it. So nothing is refused here, and the reader is built where it is kept: a
  /// throwing initializer, or one that delegates in several branches, built it aside and
  /// copied its 273 bytes for every event.
  @inlinable @inline(__always)
  package init(line: UnsafeBufferPointer<UInt8>, offset: Int?, expectedEnd: Int? = nil) {
    var scanner = JSONScanner(line, position: offset ?? line.count)
    var progress = JSONContainerProgress(start: offset ?? 0)
    var end = -1
    var isObject = false
    if offset != nil {
      scanner.depth = 1  // inside the event object, so the line's nesting limit holds
      if let begun = try? scanner.beginObject() {
        progress = begun
        end = expectedEnd ?? -1
        isObject = true
      }
    }
    self.init(
      scanner: scanner, progress: progress, objectStart: offset ?? 0, isAbsent: offset == nil,
      expectedEnd: end)
    if let offset, !isObject {
      isFinished = true
      valueStart = offset
    }
  }

  /// A reader at the start of an object, or of an absent payload.
  @inlinable
  init(
    scanner: JSONScanner, progress: JSONContainerProgress, objectStart: Int, isAbsent: Bool,
    expectedEnd: Int
  ) {
    self.scanner = scanner
    self.expectedEnd = expectedEnd
    self.progress = progress
    self.keys = RaspPayloadKeys()
    self.objectStart = objectStart
    self.isAbsent = isAbsent
    self.isFinished = isAbsent
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
  /// - Throws: ``RaspEventError`` for malformed JSON or a duplicate key.
  @inlinable
  public mutating func nextField() throws(RaspEventError) -> RaspFieldKey? {
    guard !isFinished || depth > 0 else {
      if valueStart >= 0 { throw notAnObject() }
      return nil
    }
    let key: JSONRawString?
    do {
      key = try scanner.nextMember(&progress)
      if let key { try keys.record(key, in: scanner, overflow: &nesting) }
    } catch {
      throw RaspEventError(error)
    }
    guard let key else {
      if depth > 0 {
        leaveNestedObject()
      } else {
        // The payload itself ended: errors now concern it, not a nested object read before.
        closedKey = nil
        isFinished = true
      }
      return nil
    }
    closedKey = nil
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
    guard (try? scanner.peekKind()) == .object else {
      throw wrongType(expected: "an object")
    }
    let inner: JSONContainerProgress
    do {
      inner = try scanner.beginObject()
    } catch {
      throw RaspEventError(error)
    }
    let frame = RaspPayloadFrame(
      progress: progress, keys: keys,
      key: currentKey ?? JSONRawString(start: 0, end: 0, hasEscapes: false),
      objectStart: objectStart)
    let holder = nesting ?? RaspPayloadNesting()
    nesting = holder
    holder.frames.append(frame)
    // Keys beyond four are tracked per object: set the enclosing object's aside.
    holder.overflows.append(holder.overflow)
    holder.overflow = nil
    depth += 1
    progress = inner
    keys = RaspPayloadKeys()
    objectStart = currentValueOffset
    currentKey = nil
    closedKey = nil
  }

  /// Goes back to the enclosing object after a nested one ended.
  @usableFromInline
  mutating func leaveNestedObject() {
    guard let holder = nesting, let frame = holder.frames.popLast() else { return }
    depth -= 1
    closedKey = frame.key
    closedStart = objectStart
    progress = frame.progress
    keys = frame.keys
    currentKey = frame.key
    currentValueOffset = objectStart
    objectStart = frame.objectStart
    holder.overflow = holder.overflows.popLast() ?? nil
  }

  /// Skips the current field's value.
  ///
  /// ```swift
  /// default: try payload.skip()
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for malformed JSON in the value.
  @inlinable
  public mutating func skip() throws(RaspEventError) {
    if depth == 0 { hasSkippedField = true }
    do {
      try scanner.skipValue()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// Reads whatever fields the decoder left unread, checking them, up to the payload's end.
  ///
  /// The replay calls this after a domain's decoder, so that every payload is checked
  /// completely — syntax and duplicate keys — even when a decoder stops reading early. For a
  /// payload whose end the envelope assumed, it also confirms that end.
  ///
  /// ```swift
  /// let event = try domain.decodeEvent(name, payload: &payload, context: context)
  /// try payload.finish()
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for malformed JSON or a duplicate key in the unread part.
  @inlinable
  public mutating func finish() throws(RaspEventError) {
    while !isFinished || depth > 0 {
      if try nextField() != nil { try skip() }
    }
    if expectedEnd >= 0, scanner.position != expectedEnd { throw RaspPayload.unexpectedEnd() }
  }

  /// The error for a payload that is not an object, read field by field.
  @usableFromInline
  @inline(never)
  func notAnObject() -> RaspEventError {
    RaspEventError.wrongType(field: "payload", expected: "an object", at: valueStart, in: scanner)
  }

  /// The payload when it is not an object (`"Buy milk"`, `42`, `[1, 2]`), read whole; `nil` for
  /// an object or an absent payload.
  ///
  /// - Throws: ``RaspEventError`` for malformed JSON.
  package mutating func nonObjectValue() throws(RaspEventError) -> JSONValue? {
    guard valueStart >= 0 else { return nil }
    var reader = JSONScanner(scanner.input, position: valueStart)
    reader.depth = 1
    do {
      return try reader.readValue()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// The error for a payload that does not end where the reader was told it would.
  @usableFromInline
  @inline(never)
  static func unexpectedEnd() -> RaspEventError {
    unconfirmedEnd
  }

  /// The error ``finish()`` throws when the payload does not end at the expected end: the
  /// envelope that expected it was wrong, so the replay reads the line again without
  /// expecting, and never reports this error.
  package static var unconfirmedEnd: RaspEventError {
    RaspEventError(offset: nil, reason: .rejected("the payload does not end the line"))
  }

  /// Where the payload ended — just past its closing brace — once it has been read to its end;
  /// `nil` before, or when there is no payload.
  package var endOffset: Int? {
    isFinished && depth == 0 && !isAbsent && valueStart < 0 ? scanner.position : nil
  }

  /// The dotted path of the object being read: `payload`, or a nested object's.
  func objectPath() -> String {
    var path = "payload"
    for frame in nesting?.frames ?? [] { path += "." + scanner.string(frame.key) }
    return path
  }

  /// The full path of the current field, such as `payload.location.latitude`.
  ///
  /// ```swift
  /// payload.fieldPath()   // "payload.heading"
  /// ```
  ///
  /// - Returns: The dotted path of the field being read.
  public func fieldPath() -> String {
    let prefix = objectPath()
    guard let currentKey else { return prefix }
    return prefix + "." + scanner.string(currentKey)
  }

  /// The object that errors about "the object that just ended" concern: (name, start).
  func endedObject() -> (name: String, start: Int?) {
    if let closedKey { return (objectPath() + "." + scanner.string(closedKey), closedStart) }
    return (objectPath(), isAbsent ? nil : objectStart)
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
    let object = endedObject()
    return RaspEventError(offset: object.start, reason: .missingField(object.name + "." + field))
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
    let object = endedObject()
    return RaspEventError(
      offset: object.start, reason: .invalidValue(field: object.name, reason: reason))
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
    RaspEventError(
      offset: currentValueOffset, reason: .invalidValue(field: fieldPath(), reason: reason))
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
    RaspEventError.wrongType(
      field: fieldPath(), expected: expected, at: currentValueOffset, in: scanner)
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

/// The keys of one object of a payload, to reject duplicates: four inline, more in
/// ``RaspPayloadNesting/overflow``.
@usableFromInline
struct RaspPayloadKeys {
  @usableFromInline var first: (JSONRawString, JSONRawString, JSONRawString, JSONRawString)
  @usableFromInline var count = 0

  @inlinable
  init() {
    let empty = JSONRawString(start: 0, end: 0, hasEscapes: false)
    first = (empty, empty, empty, empty)
  }

  /// Records a key, or throws when the object already has it.
  @inlinable
  mutating func record(
    _ key: JSONRawString, in scanner: JSONScanner, overflow nesting: inout RaspPayloadNesting?
  ) throws(JSONError) {
    if count >= 4 {
      let holder = nesting ?? RaspPayloadNesting()
      nesting = holder
      if holder.overflow == nil {
        var tracker = JSONKeyTracker()
        try tracker.record(first.0, in: scanner)
        try tracker.record(first.1, in: scanner)
        try tracker.record(first.2, in: scanner)
        try tracker.record(first.3, in: scanner)
        holder.overflow = tracker
      }
      try holder.overflow?.record(key, in: scanner)
      count += 1
      return
    }
    if count > 0, scanner.sameKey(first.0, key) { throw scanner.duplicate(key) }
    if count > 1, scanner.sameKey(first.1, key) { throw scanner.duplicate(key) }
    if count > 2, scanner.sameKey(first.2, key) { throw scanner.duplicate(key) }
    switch count {
    case 0: first.0 = key
    case 1: first.1 = key
    case 2: first.2 = key
    default: first.3 = key
    }
    count += 1
  }
}

/// An object enclosing the nested one a payload reader is in.
@usableFromInline
struct RaspPayloadFrame {
  @usableFromInline let progress: JSONContainerProgress
  @usableFromInline let keys: RaspPayloadKeys
  /// The key of the nested object within this one.
  @usableFromInline let key: JSONRawString
  @usableFromInline let objectStart: Int

  @inlinable
  init(progress: JSONContainerProgress, keys: RaspPayloadKeys, key: JSONRawString, objectStart: Int)
  {
    self.progress = progress
    self.keys = keys
    self.key = key
    self.objectStart = objectStart
  }
}

/// What a payload reader keeps only when it needs it: the objects enclosing a nested one, and
/// the keys of objects with more than four fields.
@usableFromInline
final class RaspPayloadNesting {
  // Owned by one payload reader on one thread: no runtime exclusivity checks.
  /// The enclosing objects, innermost last.
  @exclusivity(unchecked) @usableFromInline var frames: [RaspPayloadFrame] = []
  /// The keys beyond the fourth of the object being read.
  @exclusivity(unchecked) @usableFromInline var overflow: JSONKeyTracker?
  /// The ``overflow`` of each enclosing object, once any object needed one.
  @exclusivity(unchecked) @usableFromInline var overflows: [JSONKeyTracker?] = []

  @usableFromInline
  init() {}
}
