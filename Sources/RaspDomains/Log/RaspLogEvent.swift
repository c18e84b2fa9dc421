import RaspJSON

/// One event read from a log line: its type, where its payload is, its time and source.
///
/// A log line is a JSON object with a required `type` (`domain.event`), an optional `payload`
/// object, an optional `ts` (RFC 3339 string or epoch seconds) and an optional `source` string;
/// other keys are allowed and kept in the line. ``parse(_:)`` validates the whole line — syntax,
/// duplicate keys, the envelope's fields — in one pass over its bytes, without building a tree;
/// the domain decodes the payload afterwards, straight from the same bytes.
///
/// The event refers to the line's bytes and is valid only as long as they are.
///
/// ```swift
/// let line = Array(#"{"type":"geo.heading","ts":"2026-11-22T09:30:00Z","payload":{"heading":90}}"#.utf8)
/// try line.withUnsafeBufferPointer { bytes in
///   let event = try RaspLogEvent.parse(bytes)
///   print(event.type)                   // geo.heading
///   print(event.context.timestamp!)     // 2026-11-22T09:30:00Z
/// }
/// ```
public struct RaspLogEvent {
  /// The line's bytes.
  public let line: UnsafeBufferPointer<UInt8>
  // The envelope as offsets in the line, in 32 bits (a line is at most 16 MiB): the replay
  // copies events between threads and stages, and a small event copies fast.
  /// The `ts` read as an RFC 3339 time, or `nil`.
  @usableFromInline let parsedTimestamp: RaspTimestamp?
  /// The type string's contents, after its opening quote and up to its closing quote.
  @usableFromInline let typeStart: Int32
  @usableFromInline let typeEnd: Int32
  /// The dot between domain and event, or -1 when the type is written with escapes.
  @usableFromInline let dot: Int32
  /// The payload object's first byte, or -1 when the event has none.
  @usableFromInline let payloadStart: Int32
  /// The `ts` value's range, or -1 when the event has none.
  @usableFromInline let timestampStart: Int32
  @usableFromInline let timestampEnd: Int32
  /// The `source` string's contents, or -1 when the event has none.
  @usableFromInline let sourceStart: Int32
  @usableFromInline let sourceEnd: Int32
  /// Bit 0: the `ts` is a number of seconds; bit 1: the `source` has escapes; bit 2: the
  /// payload's end is assumed (see ``isPayloadEndAssumed``).
  @usableFromInline let flags: UInt8

  /// The domain part of the type, `geo` in `geo.heading`.
  @inlinable public var domain: RaspTypePart { part(isDomain: true) }
  /// The event part of the type, `heading` in `geo.heading`.
  @inlinable public var name: RaspTypePart { part(isDomain: false) }
  /// Where the `type` string starts in the line (its opening quote).
  @inlinable public var typeOffset: Int { Int(typeStart) - 1 }
  /// Where the payload object starts in the line, or `nil` when the event has none.
  @inlinable public var payloadOffset: Int? { payloadStart < 0 ? nil : Int(payloadStart) }

  /// Whether the payload was taken to end at the line's last byte but one without its braces
  /// being matched: read with `assumingPayloadEnd`, the envelope is only known to be right
  /// once a reader of the payload confirms that end (``confirmsPayloadEnd(_:)``).
  package var isPayloadEndAssumed: Bool { flags & Self.payloadEndAssumedFlag != 0 }

  /// The bit of ``flags`` that says the payload's end is assumed.
  @usableFromInline static var payloadEndAssumedFlag: UInt8 { 4 }

  /// Whether a reader that read the payload completely, up to `end` (just past its closing
  /// brace; `nil` when it stopped before), confirms the envelope: always, unless the payload's
  /// end was assumed, and then when the payload's closing brace is the line's last byte but one.
  ///
  /// When it does not, the event is not the line's: read the line again without assuming.
  package func confirmsPayloadEnd(_ end: Int?) -> Bool {
    flags & 4 == 0 || end == line.count - 1
  }

  /// The error for an event whose assumed payload end a reader did not confirm. The replay reads
  /// such a line again without assuming, so this error is never reported.
  package static var unconfirmedPayloadEnd: RaspEventError {
    RaspEventError(offset: nil, reason: .rejected("the payload does not end the line"))
  }

  /// The event's time and source.
  @inlinable public var context: RaspEventContext { RaspEventContext(event: self) }


  @inlinable
  func part(isDomain: Bool) -> RaspTypePart {
    guard dot >= 0 else {
      let type = JSONRawString(start: Int(typeStart), end: Int(typeEnd), hasEscapes: true)
      return RaspTypePart(line: line, escapedType: type, isDomain: isDomain)
    }
    return isDomain
      ? RaspTypePart(line: line, start: Int(typeStart), end: Int(dot))
      : RaspTypePart(line: line, start: Int(dot) + 1, end: Int(typeEnd))
  }

  /// An event from the envelope's places in `line`.
  @usableFromInline
  init(
    line: UnsafeBufferPointer<UInt8>, type: JSONRawString, dot: Int?, payloadOffset: Int?,
    timestamp: RaspTimestamp?, timestampRange: Range<Int>?, isEpochSeconds: Bool, source: JSONRawString?,
    isPayloadEndAssumed: Bool = false
  ) {
    self.line = line
    self.parsedTimestamp = timestamp
    self.typeStart = Int32(truncatingIfNeeded: type.start)
    self.typeEnd = Int32(truncatingIfNeeded: type.end)
    self.dot = dot.map { Int32(truncatingIfNeeded: $0) } ?? -1
    self.payloadStart = payloadOffset.map { Int32(truncatingIfNeeded: $0) } ?? -1
    self.timestampStart = timestampRange.map { Int32(truncatingIfNeeded: $0.lowerBound) } ?? -1
    self.timestampEnd = timestampRange.map { Int32(truncatingIfNeeded: $0.upperBound) } ?? -1
    self.sourceStart = source.map { Int32(truncatingIfNeeded: $0.start) } ?? -1
    self.sourceEnd = source.map { Int32(truncatingIfNeeded: $0.end) } ?? -1
    self.flags = (isEpochSeconds ? 1 : 0) | (source?.hasEscapes == true ? 2 : 0) | (isPayloadEndAssumed ? 4 : 0)
  }

  /// Checks the payload completely — syntax, UTF-8, duplicate keys — for an event that no
  /// domain decodes (an unknown type, or a domain left out), so that a malformed line is
  /// reported whether or not its event is applied.
  ///
  /// ```swift
  /// guard let routed = router.route(event) else { try event.checkPayload(); … }
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for the first problem in the payload.
  public func checkPayload() throws(RaspEventError) {
    guard let payloadOffset else { return }
    var scanner = JSONScanner(line, position: payloadOffset)
    scanner.depth = 1  // inside the event object, so the line's nesting limit holds
    do {
      try scanner.skipValue()
    } catch {
      throw RaspEventError(error)
    }
    guard confirmsPayloadEnd(scanner.position) else { throw Self.unconfirmedPayloadEnd }
  }

  /// The event's type, `domain.event`.
  ///
  /// ```swift
  /// event.type   // "geo.heading"
  /// ```
  public var type: String { domain.string + "." + name.string }

  /// Reads the envelope of one log line.
  ///
  /// ```swift
  /// let event = try RaspLogEvent.parse(line.bytes)
  /// ```
  ///
  /// - Parameter line: The line, without its line end.
  /// - Returns: The event.
  /// - Throws: ``RaspEventError`` for invalid JSON, a line that is not an object, a missing or
  ///   malformed `type`, or a `payload`, `ts` or `source` of the wrong kind.
  public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) -> RaspLogEvent {
    var memo = RaspTimestamp.Memo()
    return try parse(line, memo: &memo)
  }

  /// Reads the envelope of one of a log's lines, reusing what the lines before it had in
  /// common with it.
  ///
  /// The event is the one ``parse(_:)`` reads; `memo` only saves work — reading a `ts` in the
  /// same minute as the last one starts at its seconds. Keep one memo per log, or per thread
  /// reading one.
  ///
  /// ```swift
  /// var memo = RaspTimestamp.Memo()
  /// while let line = try reader.next() {
  ///   let event = try RaspLogEvent.parse(line.bytes, memo: &memo)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - line: The line, without its line end.
  ///   - memo: The minute of the last time read, updated.
  /// - Returns: The event.
  /// - Throws: ``RaspEventError``, as ``parse(_:)`` does.
  public static func parse(
    _ line: UnsafeBufferPointer<UInt8>, memo: inout RaspTimestamp.Memo
  ) throws(RaspEventError) -> RaspLogEvent {
    try parse(line, memo: &memo, assumingPayloadEnd: false)
  }

  /// Reads the envelope of one of a log's lines; with `assumingPayloadEnd`, a payload that is
  /// the line's last member is taken to end at the line's last byte but one, unchecked.
  ///
  /// Matching the payload's braces is a good part of reading an envelope, and the payload's
  /// decoder reads every byte of it again. A reader that trusts the decoder with that end
  /// passes `assumingPayloadEnd`, and then must hand every event with ``isPayloadEndAssumed``
  /// to a reader that confirms it (a domain's slot or decoder, or ``checkPayload()``), and read
  /// the line again without assuming whenever one throws: only then is the event the one
  /// ``parse(_:memo:)`` reads, and any error the right one.
  package static func parse(
    _ line: UnsafeBufferPointer<UInt8>, memo: inout RaspTimestamp.Memo, assumingPayloadEnd: Bool
  ) throws(RaspEventError) -> RaspLogEvent {
    if let event = parseQuickly(line, memo: &memo, assumingPayloadEnd: assumingPayloadEnd) { return event }
    return try parseCarefully(line)
  }

  /// Reads a line the careful way, byte by byte with the JSON scanner, explaining any problem.
  static func parseCarefully(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) -> RaspLogEvent {
    var scanner = JSONScanner(line)
    var type: JSONRawString?
    var payloadOffset: Int?
    var timestamp: RaspTimestamp?
    var timestampRange: Range<Int>?
    var source: JSONRawString?
    var isEpochSeconds = false
    do {
      scanner.skipWhitespace()
      guard scanner.peek() == UInt8(ascii: "{") else {
        if scanner.isAtEnd { throw RaspEventError(offset: 0, reason: .syntax(.unexpectedEnd(expected: "an event object"))) }
        let start = scanner.position
        _ = try scanner.skipValue()
        throw RaspEventError(offset: start, reason: .notAnObject(found: scanner.describeValue(at: start)))
      }
      var members = try scanner.beginObject()
      var otherKeys = RaspKeyList()
      var seenPayload = false
      var seenTimestamp = false
      var seenSource = false
      while let key = try scanner.nextMember(&members) {
        scanner.skipWhitespace()
        let valueStart = scanner.position
        let role = EnvelopeKey(key, in: scanner)
        if role == .type {
          guard type == nil else { throw JSONError(offset: key.start - 1, reason: .duplicateKey("type")) }
          guard try scanner.peekKind() == .string else {
            throw wrongType(scanner, "type", "a string such as 'geo.heading'", at: valueStart)
          }
          type = try scanner.readRawString()
        } else if role == .payload {
          guard !seenPayload else { throw JSONError(offset: key.start - 1, reason: .duplicateKey("payload")) }
          seenPayload = true
          switch try scanner.peekKind() {
          case .object:
            // Matching braces is enough here: the domain's decoder reads and checks every
            // byte of the payload next, and ``checkPayload()`` does for events nobody decodes.
            payloadOffset = valueStart
            if !scanner.skipContainerWithoutValidating() { try scanner.skipValue() }
          case .null: _ = try scanner.readNull()
          default: throw wrongType(scanner, "payload", "an object", at: valueStart)
          }
        } else if role == .timestamp {
          guard !seenTimestamp else { throw JSONError(offset: key.start - 1, reason: .duplicateKey("ts")) }
          seenTimestamp = true
          switch try scanner.peekKind() {
          case .string:
            let raw = try scanner.readRawString()
            do {
              if raw.hasEscapes {  // rare: `\u002B01:00`; parse the unescaped text
                timestamp = try RaspTimestamp(rfc3339: scanner.string(raw))
              } else {
                timestamp = try RaspTimestamp(rfc3339: scanner.bytes(of: raw))
              }
            } catch {
              throw RaspEventError(
                offset: valueStart, reason: .invalidValue(field: "ts", reason: "not an RFC 3339 time: \(error)"))
            }
          case .number:
            try scanner.skipValue()
            isEpochSeconds = true
            let text = UnsafeBufferPointer(rebasing: line[valueStart..<scanner.position])
            if !RaspTimestamp.isPlainEpochSeconds(text) {
              // Exponents or many digits: convert now to check the range.
              do {
                _ = try RaspTimestamp(epochSeconds: text)
              } catch {
                throw RaspEventError(offset: valueStart, reason: .invalidValue(field: "ts", reason: "\(error)"))
              }
            }
          case .null: _ = try scanner.readNull()
          default:
            throw wrongType(scanner, "ts", "an RFC 3339 string or a number of seconds", at: valueStart)
          }
          timestampRange = valueStart..<scanner.position
        } else if role == .source {
          guard !seenSource else { throw JSONError(offset: key.start - 1, reason: .duplicateKey("source")) }
          seenSource = true
          switch try scanner.peekKind() {
          case .string: source = try scanner.readRawString()
          case .null: _ = try scanner.readNull()
          default: throw wrongType(scanner, "source", "a string", at: valueStart)
          }
        } else {
          try otherKeys.insert(key, in: scanner)
          try scanner.skipValue()
        }
      }
      try scanner.expectEnd()
    } catch let error as JSONError {
      throw RaspEventError(error)
    } catch let error as RaspEventError {
      throw error
    } catch {
      throw RaspEventError(offset: 0, reason: .rejected("\(error)"))
    }
    guard let type else { throw RaspEventError(offset: 0, reason: .missingField("type")) }
    let dot = try split(type, in: scanner)
    return RaspLogEvent(
      line: line, type: type, dot: dot, payloadOffset: payloadOffset, timestamp: timestamp,
      timestampRange: timestampRange, isEpochSeconds: isEpochSeconds, source: source)
  }

  private static func wrongType(
    _ scanner: JSONScanner, _ field: String, _ expected: String, at offset: Int
  ) -> RaspEventError {
    RaspEventError.wrongType(field: field, expected: expected, at: offset, in: scanner)
  }

  /// Finds the first dot of `domain.event`, checking that both parts are there; `nil` for a
  /// type written with escapes, whose parts are found in its unescaped text.
  private static func split(
    _ type: JSONRawString, in scanner: JSONScanner
  ) throws(RaspEventError) -> Int? {
    func invalid() -> RaspEventError {
      RaspEventError(
        offset: type.start - 1,
        reason: .invalidValue(
          field: "type", reason: "'\(JSONError.abbreviated(scanner.string(type)))' is not of the form 'domain.event', such as 'geo.heading'"))
    }
    if type.hasEscapes {
      let text = scanner.string(type)
      guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex
      else { throw invalid() }
      return nil
    }
    var dot = type.start
    while dot < type.end, scanner.input[dot] != UInt8(ascii: ".") { dot += 1 }
    guard dot > type.start, dot + 1 < type.end else { throw invalid() }
    return dot
  }
}

/// Which envelope field a key of the event object names, found by its length and bytes.
enum EnvelopeKey: Equatable {
  case type, payload, timestamp, source, other

  init(_ key: JSONRawString, in scanner: JSONScanner) {
    guard !key.hasEscapes else {
      if scanner.matches(key, "type") { self = .type }
      else if scanner.matches(key, "payload") { self = .payload }
      else if scanner.matches(key, "ts") { self = .timestamp }
      else if scanner.matches(key, "source") { self = .source }
      else { self = .other }
      return
    }
    let input = scanner.input
    let start = key.start
    switch key.end - start {
    case 2:
      self = input[start] == UInt8(ascii: "t") && input[start + 1] == UInt8(ascii: "s") ? .timestamp : .other
    case 4:
      self = input[start] == UInt8(ascii: "t") && scanner.matches(key, "type") ? .type : .other
    case 6:
      self = input[start] == UInt8(ascii: "s") && scanner.matches(key, "source") ? .source : .other
    case 7:
      self = input[start] == UInt8(ascii: "p") && scanner.matches(key, "payload") ? .payload : .other
    default:
      self = .other
    }
  }
}

/// One part of an event type, `geo` or `heading` in `geo.heading`, read from the line's bytes.
///
/// ```swift
/// if event.domain.equals(Array("geo".utf8)) { … }
/// ```
public struct RaspTypePart {
  private let line: UnsafeBufferPointer<UInt8>
  /// The part's range in the line, or the whole type's when it is written with escapes.
  private let start: Int
  private let end: Int
  /// For a type written with escapes: whether this is the domain part; `nil` otherwise.
  private let escapedIsDomain: Bool?

  @usableFromInline
  init(line: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
    self.line = line
    self.start = start
    self.end = end
    self.escapedIsDomain = nil
  }

  @usableFromInline
  init(line: UnsafeBufferPointer<UInt8>, escapedType type: JSONRawString, isDomain: Bool) {
    self.line = line
    self.start = type.start
    self.end = type.end
    self.escapedIsDomain = isDomain
  }

  /// The part as a string.
  ///
  /// ```swift
  /// event.name.string   // "heading"
  /// ```
  public var string: String {
    guard let isDomain = escapedIsDomain else {
      return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
    }
    let text = JSONScanner(line).string(JSONRawString(start: start, end: end, hasEscapes: true))
    guard let dot = text.firstIndex(of: ".") else { return text }
    return isDomain ? String(text[..<dot]) : String(text[text.index(after: dot)...])
  }

  /// The part's length and first eight bytes, for comparing names as integers; `nil` when
  /// the type is written with escapes.
  @inline(__always)
  var nameKey: (count: Int, head: UInt64)? {
    guard escapedIsDomain == nil else { return nil }
    let count = end - start
    if line.count - start >= 8, let base = line.baseAddress {
      // The part is followed by at least its closing quote and the line's closing brace, so
      // eight bytes are usually there to load at once; the bytes past the part are masked off.
      let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
      return (count, count >= 8 ? word : word & ((1 << (UInt64(count) &* 8)) &- 1))
    }
    var head: UInt64 = 0
    var shift: UInt64 = 0
    var index = start
    let stop = start + Swift.min(count, 8)
    while index < stop {
      head |= UInt64(line[index]) << shift
      shift += 8
      index += 1
    }
    return (count, head)
  }

  /// Whether the bytes after the first eight equal those of `utf8`, which has the same length.
  @inline(__always)
  func tailEquals(_ utf8: [UInt8]) -> Bool {
    let count = end - start
    guard count > 8 else { return true }
    return utf8.withUnsafeBufferPointer { other in
      for index in 8..<count where other[index] != line[start + index] { return false }
      return true
    }
  }

  /// Whether the part is exactly `utf8`.
  ///
  /// ```swift
  /// event.domain.equals(Array("geo".utf8))
  /// ```
  ///
  /// - Parameter utf8: The bytes to compare with.
  /// - Returns: `true` when they are equal.
  @inline(__always)
  public func equals(_ utf8: [UInt8]) -> Bool {
    guard escapedIsDomain == nil else { return string.utf8.elementsEqual(utf8) }
    let count = end - start
    guard count == utf8.count else { return false }
    return utf8.withUnsafeBufferPointer { other in
      for index in 0..<count where other[index] != line[start + index] { return false }
      return true
    }
  }
}

/// A domain's or an event's name, prepared for comparing with a type part quickly.
struct RaspNameKey {
  let bytes: [UInt8]
  let count: Int
  let head: UInt64

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    count = bytes.count
    var head: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { head |= UInt64(byte) << (8 * UInt64(index)) }
    self.head = head
  }

  /// Whether a type part, whose length and head are `key`, is this name.
  @inline(__always)
  func matches(_ key: (count: Int, head: UInt64), _ part: RaspTypePart) -> Bool {
    key.count == count && key.head == head && part.tailEquals(bytes)
  }
}

/// The keys of one object seen so far, to reject duplicates without allocating for small objects.
struct RaspKeyList {
  private var first: (JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?)
  private var count = 0
  private var more: [JSONRawString] = []
  private var many: Set<String>?

  init() {
    first = (nil, nil, nil, nil, nil, nil)
  }

  mutating func insert(_ key: JSONRawString, in scanner: JSONScanner) throws(JSONError) {
    func check(_ earlier: JSONRawString?) throws(JSONError) {
      if let earlier, scanner.sameKey(earlier, key) {
        throw JSONError(offset: key.start - 1, reason: .duplicateKey(scanner.string(key)))
      }
    }
    if many != nil {
      let text = scanner.string(key)
      guard many?.insert(text).inserted == true else {
        throw JSONError(offset: key.start - 1, reason: .duplicateKey(text))
      }
      return
    }
    try check(first.0)
    try check(first.1)
    try check(first.2)
    try check(first.3)
    try check(first.4)
    try check(first.5)
    for earlier in more { try check(earlier) }
    switch count {
    case 0: first.0 = key
    case 1: first.1 = key
    case 2: first.2 = key
    case 3: first.3 = key
    case 4: first.4 = key
    case 5: first.5 = key
    default: more.append(key)
    }
    count += 1
    if count > 32 {
      var keys = Set(more.map { scanner.string($0) })
      for earlier in [first.0, first.1, first.2, first.3, first.4, first.5] {
        if let earlier { keys.insert(scanner.string(earlier)) }
      }
      many = keys
    }
  }
}
