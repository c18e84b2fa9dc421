import RaspDomains
import RaspJSON

/// The envelope of one log line: the event's type, where its payload is, its time and source.
///
/// A log line is a JSON object with a required `type` (`domain.event`), an optional `payload`
/// object, an optional `ts` (RFC 3339 string or epoch seconds) and an optional `source` string;
/// other keys are allowed and kept in the line. ``parse(_:memo:assumingPayloadEnd:)`` checks
/// the whole line — syntax, duplicate keys, the envelope's fields — in one pass over its bytes,
/// without building a tree; the event's domain decodes the payload afterwards, straight from
/// the same bytes.
///
/// An envelope is a handful of offsets into the line and is valid only as long as the line's
/// bytes are. It is small on purpose: the replay copies one per line between threads and
/// stages.
///
/// ```swift
/// var memo = RaspTimestamp.Memo()
/// let envelope = try Envelope.parse(bytes, memo: &memo)
/// envelope.type                    // "geo.heading"
/// envelope.context.timestamp       // 2026-11-22T09:30:00Z
/// ```
package struct Envelope {
  /// The event's time and source, which also holds the line.
  package private(set) var context: RaspEventContext
  /// The type string's contents, after its opening quote and up to its closing quote.
  let typeStart: Int32
  let typeEnd: Int32
  /// How the type is written, packed in one number (``TypeSpelling/code``): the envelope is
  /// copied for every line, and an enum with a payload would make it larger.
  private let typeSpellingCode: Int32
  /// The payload object's first byte, or -1 when the event has none.
  let payloadStart: Int32
  /// Whether the payload's end was taken for granted (see ``AssumedPayloadEnd``).
  package let isPayloadEndAssumed: Bool

  /// An envelope from its places in `line`.
  init(
    line: UnsafeBufferPointer<UInt8>, type: JSONRawString, dot: Int?, payloadOffset: Int?,
    timestamp: RaspTimestamp?, timestampRange: Range<Int>?, isEpochSeconds: Bool,
    source: JSONRawString?, isPayloadEndAssumed: Bool = false
  ) {
    self.context = RaspEventContext(
      line: line, timestamp: timestamp, timestampRange: timestampRange,
      isEpochSeconds: isEpochSeconds, source: source)
    self.typeStart = Int32(truncatingIfNeeded: type.start)
    self.typeEnd = Int32(truncatingIfNeeded: type.end)
    self.typeSpellingCode = TypeSpelling.code(of: dot.map { .dotted(at: $0) } ?? .escaped)
    self.payloadStart = payloadOffset.map { Int32(truncatingIfNeeded: $0) } ?? -1
    self.isPayloadEndAssumed = isPayloadEndAssumed
  }

  /// An envelope read with a map file: its type is the one numbered `mappedType` in the
  /// replay's ``TypeTable``; `typeRange` is where the line has the first field it was made
  /// from, for errors about the type.
  init(
    line: UnsafeBufferPointer<UInt8>, mappedType: Int32, typeRange: Range<Int>,
    payloadOffset: Int?, timestamp: RaspTimestamp?, timestampRange: Range<Int>?,
    source: JSONRawString?, eventOffset: Int? = nil
  ) {
    self.context = RaspEventContext(
      line: line, timestamp: timestamp, timestampRange: timestampRange, isEpochSeconds: false,
      source: source, eventOffset: eventOffset)
    self.typeStart = Int32(truncatingIfNeeded: typeRange.lowerBound)
    self.typeEnd = Int32(truncatingIfNeeded: typeRange.upperBound)
    self.typeSpellingCode = TypeSpelling.code(of: .mapped(mappedType))
    self.payloadStart = payloadOffset.map { Int32(truncatingIfNeeded: $0) } ?? -1
    self.isPayloadEndAssumed = false
  }

  /// The same envelope, its event's own object said to start at `offset` of the line (see
  /// ``RaspDomains/RaspEventContext/eventOffset``).
  func locatingEvent(at offset: Int) -> Envelope {
    var envelope = self
    envelope.context = RaspEventContext(
      line: context.lineBytes, timestamp: context.timestamp, timestampRange: context.timestampRange,
      isEpochSeconds: false, source: context.sourceString, eventOffset: offset)
    return envelope
  }

  /// How the envelope's type is written, which says where its two parts are.
  enum TypeSpelling: Equatable {
    /// Plainly, with the dot between domain and event at this offset of the line.
    case dotted(at: Int)
    /// With escapes: the parts are found in the unescaped string.
    case escaped
    /// By a map file: the type numbered so in the replay's ``TypeTable``.
    case mapped(Int32)

    /// The spelling as one number: the dot's offset, which is never negative; -1 for
    /// ``escaped``; -2 minus the type's number for ``mapped(_:)``.
    static func code(of spelling: TypeSpelling) -> Int32 {
      switch spelling {
      case .dotted(let offset): Int32(truncatingIfNeeded: offset)
      case .escaped: -1
      case .mapped(let number): -2 - number
      }
    }

    /// The spelling that `code` stands for.
    init(code: Int32) {
      self = code >= 0 ? .dotted(at: Int(code)) : code == -1 ? .escaped : .mapped(-2 - code)
    }
  }

  /// How the type is written.
  var typeSpelling: TypeSpelling { TypeSpelling(code: typeSpellingCode) }

  /// The number of the type in the replay's ``TypeTable``, for a line read with a map file.
  package var mappedType: Int32? {
    if case .mapped(let number) = typeSpelling { return number }
    return nil
  }

  /// The line's bytes.
  package var line: UnsafeBufferPointer<UInt8> { context.lineBytes }

  /// The domain part of the type, `geo` in `geo.heading`.
  package var domain: EventTypePart { part(isDomain: true) }
  /// The event part of the type, `heading` in `geo.heading`.
  package var name: EventTypePart { part(isDomain: false) }
  /// Where the `type` string starts in the line (its opening quote).
  package var typeOffset: Int { Int(typeStart) - 1 }
  /// Where the payload object starts in the line, or `nil` when the event has none.
  package var payloadOffset: Int? { payloadStart < 0 ? nil : Int(payloadStart) }
  /// Where the payload must end for the envelope to be right, when its end was assumed.
  package var expectedPayloadEnd: Int? {
    isPayloadEndAssumed ? AssumedPayloadEnd.end(of: line) : nil
  }

  /// The event's type, `domain.event`.
  package var type: String { domain.string + "." + name.string }

  private func part(isDomain: Bool) -> EventTypePart {
    guard case .dotted(let dot) = typeSpelling else {
      let type = JSONRawString(start: Int(typeStart), end: Int(typeEnd), hasEscapes: true)
      return EventTypePart(line: line, escapedType: type, isDomain: isDomain)
    }
    return isDomain
      ? EventTypePart(line: line, start: Int(typeStart), end: dot)
      : EventTypePart(line: line, start: dot + 1, end: Int(typeEnd))
  }

  /// Reads the envelope of one log line.
  ///
  /// The shape loggers write is read in one tight pass
  /// (``parseQuickly(_:memo:assumingPayloadEnd:)``); any other line, and every mistake, is read
  /// carefully (``parseCarefully(_:)``), which explains the first problem. Both give the same
  /// envelope.
  ///
  /// - Parameters:
  ///   - line: The line, without its line end.
  ///   - memo: The minute of the last time read in this log, updated: most times share it.
  ///   - assumingPayloadEnd: Whether a payload that ends the line may be taken to end there
  ///     unchecked (see ``AssumedPayloadEnd``).
  /// - Returns: The envelope.
  /// - Throws: ``RaspEventError`` for invalid JSON, a line that is not an object, a missing or
  ///   malformed `type`, or a `payload`, `ts` or `source` of the wrong kind.
  package static func parse(
    _ line: UnsafeBufferPointer<UInt8>, memo: inout RaspTimestamp.Memo,
    assumingPayloadEnd: Bool = false
  ) throws(RaspEventError) -> Envelope {
    if let envelope = parseQuickly(line, memo: &memo, assumingPayloadEnd: assumingPayloadEnd) {
      return envelope
    }
    return try parseCarefully(line)
  }

  /// Reads the envelope of one line, on its own.
  ///
  /// - Parameter line: The line, without its line end.
  /// - Returns: The envelope.
  /// - Throws: ``RaspEventError``, as ``parse(_:memo:assumingPayloadEnd:)`` does.
  package static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) -> Envelope {
    var memo = RaspTimestamp.Memo()
    return try parse(line, memo: &memo)
  }
}

extension Envelope {
  /// Checks the payload completely — syntax, UTF-8, duplicate keys, and its end when that was
  /// assumed — for an event that no domain decodes (an unknown type, or a domain left out), so
  /// that a malformed line is reported whether or not its event is applied.
  ///
  /// ```swift
  /// guard let routed = router.route(envelope) else { try envelope.checkPayload(); … }
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for the first problem in the payload.
  package func checkPayload() throws(RaspEventError) {
    guard let payloadOffset else { return }
    // The plain payloads loggers write are checked in one quick pass; any other, and every
    // mistake, by the scanner, which explains it.
    if let end = Self.quickPayloadEnd(in: line, at: payloadOffset),
      end == expectedPayloadEnd ?? end
    {
      return
    }
    var scanner = JSONScanner(line, position: payloadOffset)
    scanner.depth = 1  // inside the event object, so the line's nesting limit holds
    do {
      try scanner.skipValue()
    } catch {
      throw RaspEventError(error)
    }
    if let expected = expectedPayloadEnd, scanner.position != expected {
      throw RaspPayload.unconfirmedEnd
    }
  }
}
