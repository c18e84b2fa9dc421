import RaspJSON

/// What a decoder may want to know about an event besides its payload: when, and from where.
///
/// The context reads the event's `ts` and `source` from the log line only when a decoder asks:
/// most domains never do, and a replay hands a context to every event it decodes. It is valid
/// only while the decoder runs, as the payload is: keep the values it gives, not the context.
///
/// ```swift
/// func decodeEvent(_ name: RaspEventName, payload: inout RaspPayload,
///                  context: RaspEventContext) throws(RaspEventError) -> LifecycleEvent {
///   .enteredBackground(at: context.timestampValue)
/// }
/// ```
public struct RaspEventContext {
  /// The log line the `ts` and `source` are in.
  @usableFromInline let line: UnsafeBufferPointer<UInt8>
  /// The `ts` already read as an RFC 3339 time, or `nil`.
  @usableFromInline let parsedTimestamp: RaspTimestamp?
  /// The `ts` value's range in the line, or -1 when the event has none.
  @usableFromInline let timestampStart: Int32
  @usableFromInline let timestampEnd: Int32
  /// The `source` string's contents in the line, or -1 when the event has none.
  @usableFromInline let sourceStart: Int32
  @usableFromInline let sourceEnd: Int32
  /// Whether the `ts` is a number of seconds, checked but not yet converted.
  @usableFromInline let isEpochSeconds: Bool
  /// Whether the `source` string is written with escapes.
  @usableFromInline let sourceHasEscapes: Bool
  /// Where the event's own object starts in the line, when the line holds it inside another
  /// (a Kafka message's payload, in place); -1 when the event is the line.
  @usableFromInline let eventStart: Int32

  /// A context read from places in a log line: the replay's envelope parser makes these.
  ///
  /// - Parameters:
  ///   - line: The log line, which must outlive the context.
  ///   - timestamp: The `ts` read as an RFC 3339 time, or `nil`.
  ///   - timestampRange: Where the `ts` value is, or `nil` when the event has none.
  ///   - isEpochSeconds: Whether the `ts` at `timestampRange` is a number of seconds.
  ///   - source: Where the `source` string's contents are, or `nil`.
  ///   - eventOffset: Where the event's own object starts, when the line holds it inside
  ///     another; `nil` when the event is the line.
  @inlinable
  package init(
    line: UnsafeBufferPointer<UInt8>, timestamp: RaspTimestamp?, timestampRange: Range<Int>?,
    isEpochSeconds: Bool, source: JSONRawString?, eventOffset: Int? = nil
  ) {
    self.eventStart = eventOffset.map { Int32(truncatingIfNeeded: $0) } ?? -1
    self.line = line
    self.parsedTimestamp = timestamp
    self.timestampStart = timestampRange.map { Int32(truncatingIfNeeded: $0.lowerBound) } ?? -1
    self.timestampEnd = timestampRange.map { Int32(truncatingIfNeeded: $0.upperBound) } ?? -1
    self.sourceStart = source.map { Int32(truncatingIfNeeded: $0.start) } ?? -1
    self.sourceEnd = source.map { Int32(truncatingIfNeeded: $0.end) } ?? -1
    self.isEpochSeconds = isEpochSeconds
    self.sourceHasEscapes = source?.hasEscapes ?? false
  }

  /// The log line the context reads from.
  @inlinable package var lineBytes: UnsafeBufferPointer<UInt8> { line }

  /// A context without a time or a source, for events that do not come from a log.
  ///
  /// ```swift
  /// let event = try domain.decodeEvent(name, payload: &payload, context: .none)
  /// ```
  public static var none: RaspEventContext {
    RaspEventContext(
      line: UnsafeBufferPointer(start: nil, count: 0), timestamp: nil, timestampRange: nil,
      isEpochSeconds: false, source: nil)
  }

  /// Where the `ts` value is in the line, or `nil`.
  package var timestampRange: Range<Int>? {
    timestampStart < 0 ? nil : Int(timestampStart)..<Int(timestampEnd)
  }

  /// Where the event's own object starts in the line, when the line holds it inside another
  /// (a Kafka message's payload); `nil` when the event is the whole line.
  package var eventOffset: Int? { eventStart < 0 ? nil : Int(eventStart) }

  /// Where the `source` string's contents are in the line, or `nil`.
  package var sourceString: JSONRawString? {
    sourceStart < 0
      ? nil
      : JSONRawString(start: Int(sourceStart), end: Int(sourceEnd), hasEscapes: sourceHasEscapes)
  }

  /// The event's `ts`, or `nil` when it has none.
  ///
  /// A `ts` written as a number of seconds was checked when the line was read and is
  /// converted only when asked for.
  ///
  /// ```swift
  /// context.timestamp?.description   // "2026-11-22T09:30:00Z"
  /// ```
  public var timestamp: RaspTimestamp? {
    if let parsedTimestamp { return parsedTimestamp }
    guard isEpochSeconds, let timestampRange else { return nil }
    return try? RaspTimestamp(epochSeconds: UnsafeBufferPointer(rebasing: line[timestampRange]))
  }

  /// The `ts` exactly as the log wrote it (a string or a number), or `nil`.
  ///
  /// Domains that keep the time of a change store this value, so that the snapshot shows the
  /// time as the log wrote it.
  ///
  /// ```swift
  /// context.timestampValue   // "2026-11-22T09:30:00Z"
  /// ```
  public var timestampValue: JSONValue? {
    guard let timestampRange, parsedTimestamp != nil || isEpochSeconds else { return nil }
    return try? JSONParser.parse(UnsafeBufferPointer(rebasing: line[timestampRange]))
  }

  /// The event's `source`, or `nil` when it has none.
  ///
  /// ```swift
  /// context.source   // "gps"
  /// ```
  public var source: String? {
    guard sourceStart >= 0 else { return nil }
    let raw = JSONRawString(
      start: Int(sourceStart), end: Int(sourceEnd), hasEscapes: sourceHasEscapes)
    return JSONScanner(line).string(raw)
  }
}
