import RaspDomains
import RaspJSON

extension Envelope {
  /// Reads a line the careful way, byte by byte with the JSON scanner, explaining any problem.
  static func parseCarefully(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) -> Envelope
  {
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
        if scanner.isAtEnd {
          throw RaspEventError(
            offset: 0, reason: .syntax(.unexpectedEnd(expected: "an event object")))
        }
        let start = scanner.position
        _ = try scanner.skipValue()
        throw RaspEventError(
          offset: start, reason: .notAnObject(found: scanner.describeValue(at: start)))
      }
      var members = try scanner.beginObject()
      var otherKeys = EnvelopeKeyList()
      var seenPayload = false
      var seenTimestamp = false
      var seenSource = false
      while let key = try scanner.nextMember(&members) {
        scanner.skipWhitespace()
        let valueStart = scanner.position
        let role = EnvelopeKey(key, in: scanner)
        if role == .type {
          guard type == nil else {
            throw JSONError(offset: key.start - 1, reason: .duplicateKey("type"))
          }
          guard try scanner.peekKind() == .string else {
            throw wrongType(scanner, "type", "a string such as 'geo.heading'", at: valueStart)
          }
          type = try scanner.readRawString()
        } else if role == .payload {
          guard !seenPayload else {
            throw JSONError(offset: key.start - 1, reason: .duplicateKey("payload"))
          }
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
          guard !seenTimestamp else {
            throw JSONError(offset: key.start - 1, reason: .duplicateKey("ts"))
          }
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
                offset: valueStart,
                reason: .invalidValue(field: "ts", reason: "not an RFC 3339 time: \(error)"))
            }
          case .number:
            try scanner.skipValue()
            isEpochSeconds = true
            let text = UnsafeBufferPointer(rebasing: line[valueStart..<scanner.position])
            if !RaspTimestamp.isPlainEpochSeconds(text) {
              // Exponents or many digits: convert now to check the range, and that it is not
              // milliseconds written as seconds.
              do throws(EpochTime.Failure) {
                try EpochTime.checkUnitlessSeconds(text)
              } catch {
                let number = JSONError.abbreviated(String(decoding: text, as: UTF8.self))
                throw RaspEventError(
                  offset: valueStart,
                  reason: .invalidValue(field: "ts", reason: "\(number) \(error)"))
              }
              do {
                _ = try RaspTimestamp(epochSeconds: text)
              } catch {
                throw RaspEventError(
                  offset: valueStart, reason: .invalidValue(field: "ts", reason: "\(error)"))
              }
            }
          case .null: _ = try scanner.readNull()
          default:
            throw wrongType(
              scanner, "ts", "an RFC 3339 string or a number of seconds", at: valueStart)
          }
          timestampRange = valueStart..<scanner.position
        } else if role == .source {
          guard !seenSource else {
            throw JSONError(offset: key.start - 1, reason: .duplicateKey("source"))
          }
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
    return Envelope(
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
          field: "type",
          reason:
            "'\(JSONError.abbreviated(scanner.string(type)))' is not of the form "
            + "'domain.event', such as 'geo.heading'"
        ))
    }
    if type.hasEscapes {
      let text = scanner.string(type)
      guard let dot = text.firstIndex(of: "."), dot != text.startIndex,
        text.index(after: dot) != text.endIndex
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
      if scanner.matches(key, "type") {
        self = .type
      } else if scanner.matches(key, "payload") {
        self = .payload
      } else if scanner.matches(key, "ts") {
        self = .timestamp
      } else if scanner.matches(key, "source") {
        self = .source
      } else {
        self = .other
      }
      return
    }
    let input = scanner.input
    let start = key.start
    switch key.end - start {
    case 2:
      self =
        input[start] == UInt8(ascii: "t") && input[start + 1] == UInt8(ascii: "s")
        ? .timestamp : .other
    case 4:
      self = input[start] == UInt8(ascii: "t") && scanner.matches(key, "type") ? .type : .other
    case 6:
      self = input[start] == UInt8(ascii: "s") && scanner.matches(key, "source") ? .source : .other
    case 7:
      self =
        input[start] == UInt8(ascii: "p") && scanner.matches(key, "payload") ? .payload : .other
    default:
      self = .other
    }
  }
}

/// The keys of one object seen so far, to reject duplicates without allocating for small objects.
struct EnvelopeKeyList {
  private var first:
    (JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?, JSONRawString?)
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
