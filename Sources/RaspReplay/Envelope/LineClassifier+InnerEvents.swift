import RaspDomains
import RaspJSON

extension LineClassifier {
  /// Where the value of the line's member `key` is, found quickly: the values before it are
  /// skipped without being checked, and the search stops at it — the event read next is the
  /// whole line, checked then. The value found is checked.
  /// The error a consumer wrote beside a value it could not decode — kcat's `payload_error`
  /// for `payload` — as the line's problem, at that field; `nil` when there is none.
  static func decodingError(of path: JSONPath, in line: UnsafeBufferPointer<UInt8>)
    -> RaspEventError?
  {
    guard path.components.count == 1, case .key(let key) = path.components[0],
      let range = try? findMember(key + "_error", in: line),
      line[range.lowerBound] == UInt8(ascii: "\""),
      case .string(let message)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: line[range]))
    else { return nil }
    return RaspEventError(
      offset: range.lowerBound,
      reason: .invalidValue(
        field: key, reason: "the consumer could not decode it: \(message)"))
  }

  static func findMember(_ key: String, in line: UnsafeBufferPointer<UInt8>)
    throws(JSONError) -> Range<Int>?
  {
    var scanner = JSONScanner(line)
    var progress = try scanner.beginObject()
    let utf8 = Array(key.utf8)
    while let name = try scanner.nextMember(&progress) {
      scanner.skipWhitespace()
      let start = scanner.position
      let isKey =
        name.hasEscapes
        ? scanner.string(name).utf8.elementsEqual(utf8)
        : name.end - name.start == utf8.count
          && utf8.indices.allSatisfy { line[name.start + $0] == utf8[$0] }
      if isKey {
        try scanner.skipValue()
        return start..<scanner.position
      }
      switch scanner.peek() {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if !scanner.skipContainerWithoutValidating() { try scanner.skipValue() }
      default:
        try scanner.skipValue()
      }
    }
    return nil
  }

  /// Classifies a line whose event is JSON text in one of its strings (a map's `inner`: a
  /// Kafka message's `payload`): the event read is the line with that string replaced by the
  /// JSON it holds, written into the batch's `arena`, so that the message's other fields (its
  /// `key`, `partition`, `offset`) stay readable beside the event's.
  ///
  /// A message whose payload is `null` (a tombstone) is dropped, and counted; a line without
  /// the field is a bad line; a payload that is an object already (kcat's `-s value=avro`) is
  /// the event as it is. A message in the shape producers write is read in one pass
  /// (``InnerEventQuickReader``); any other by the map's reader.
  mutating func classifyInner(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena
  ) -> ReplayItem {
    guard let innerPath, !isTooLong, !JSONLine.isBlank(bytes) else {
      return classify(bytes, number: number, isTooLong: isTooLong, problems: &problems)
    }
    var origin = EventOrigin()
    if let read = innerQuick?.read(bytes, arena: &arena, memo: &memo) {
      origin.place = .unescaped
      origin.start = Int32(truncatingIfNeeded: read.stringRange.lowerBound)
      origin.length = Int32(truncatingIfNeeded: read.textLength)
      origin.rawLength = Int32(truncatingIfNeeded: read.stringRange.count)
      if tracksTime, let time = read.envelope.context.timestamp { lastTime = time }
      return item(bytes, number, .event(read.envelope), origin)
    }
    do throws(RaspEventError) {
      guard Self.startsObject(bytes) else {
        return classify(bytes, number: number, isTooLong: false, problems: &problems)
      }
      var found: Range<Int>?
      do {
        if innerPath.components.count == 1, case .key(let key) = innerPath.components[0] {
          found = try Self.findMember(key, in: bytes)
        } else {
          let locator = innerLocator ?? FieldLocator(paths: [innerPath])
          innerLocator = locator
          var results = [Range<Int>?](repeating: nil, count: 1)
          try locator.locate(in: bytes, into: &results)
          found = results[0]
        }
      } catch {
        throw RaspEventError(error)
      }
      // A value its consumer could not decode (kcat's `payload_error`, `-s value=avro`) is a
      // bad line, not a tombstone: the message has a value, which is lost.
      if found == nil || bytes[found?.lowerBound ?? 0] == UInt8(ascii: "n"),
        let failure = Self.decodingError(of: innerPath, in: bytes)
      {
        throw failure
      }
      guard let range = found else {
        throw RaspEventError(offset: 0, reason: .missingField(innerPath.description))
      }
      // A message without a value (a tombstone) holds no event.
      if bytes[range.lowerBound] == UInt8(ascii: "n") { return item(bytes, number, .dropped) }
      // A value kcat decoded already (`-s value=avro`) is the event as it is, in place.
      if bytes[range.lowerBound] == UInt8(ascii: "{") {
        return try readEvent(
          bytes, of: bytes, number: number, origin: EventOrigin(), arena: &arena,
          eventOffset: range.lowerBound)
      }
      guard bytes[range.lowerBound] == UInt8(ascii: "\"") else {
        throw RaspEventError.wrongType(
          field: innerPath.description, expected: "a string holding an event's JSON, or an object",
          at: range.lowerBound, in: JSONScanner(bytes))
      }
      // The line, its string replaced by the text it holds, written straight into the arena.
      var length = 0
      let event = arena.write(maximumCount: bytes.count) { output in
        let prefix = UnsafeBufferPointer(rebasing: bytes[..<range.lowerBound])
        _ = UnsafeMutableBufferPointer(rebasing: output[..<prefix.count])
          .initialize(fromContentsOf: prefix)
        let end = JSONScanner.unescape(
          UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]),
          into: output, at: prefix.count)
        length = end - prefix.count
        let suffix = UnsafeBufferPointer(rebasing: bytes[range.upperBound...])
        _ = UnsafeMutableBufferPointer(rebasing: output[end..<end + suffix.count])
          .initialize(fromContentsOf: suffix)
        return end + suffix.count
      }
      origin.place = .unescaped
      origin.start = Int32(truncatingIfNeeded: range.lowerBound)
      origin.length = Int32(truncatingIfNeeded: length)
      origin.rawLength = Int32(truncatingIfNeeded: range.count)
      var eventStart = range.lowerBound
      while eventStart < range.lowerBound + length, JSONScanner.isWhitespace(event[eventStart]) {
        eventStart += 1
      }
      do {
        return try readEvent(
          event, of: bytes, number: number, origin: origin, arena: &arena, eventOffset: eventStart)
      } catch {
        // A field the event lacks: pointed at the event, not at the message's first byte.
        if case .missingField = error.reason, (error.offset ?? 0) == 0 {
          throw RaspEventError(offset: eventStart, reason: error.reason)
        }
        // JSON that is not, in the string: said so.
        guard case .syntax(var reason) = error.reason, var offset = error.offset,
          offset >= range.lowerBound
        else { throw error }
        if offset >= range.lowerBound + length {
          // The text ended before its JSON did (or held none): read alone, it says why.
          let text = Array(event[range.lowerBound..<(range.lowerBound + length)])
          guard !text.allSatisfy(JSONScanner.isWhitespace) else {
            throw RaspEventError(
              offset: range.lowerBound,
              reason: .invalidValue(
                field: innerPath.description, reason: "the string holds no JSON event: it is empty")
            )
          }
          do throws(JSONError) {
            _ = try JSONParser.parse(text)
          } catch {
            reason = error.reason
            offset = range.lowerBound + min(error.offset, length)
          }
        }
        throw RaspEventError(
          offset: offset,
          reason: .invalidValue(
            field: innerPath.description, reason: "the string holds no JSON event: \(reason)"))
      }
    } catch {
      problems.append(.invalid(error))
      return item(bytes, number, .problem(problems.count - 1), origin)
    }
  }
}
