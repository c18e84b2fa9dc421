import RaspJSON

/// What a decoder may want to know about an event besides its payload: when, and from where.
///
/// ```swift
/// func decodeEvent(_ name: RaspEventName, payload: inout RaspPayload,
///                  context: RaspEventContext) throws(RaspEventError) -> LifecycleEvent {
///   .enteredBackground(at: context.timestampValue)
/// }
/// ```
public struct RaspEventContext {
  /// The event's `ts`, or `nil` when it has none.
  ///
  /// A `ts` written as a number of seconds was checked when the line was read and is
  /// converted only when asked for, since most replays of one log never need it.
  ///
  /// ```swift
  /// context.timestamp?.description   // "2026-11-22T09:30:00Z"
  /// ```
  public var timestamp: RaspTimestamp? {
    if let parsed = event.parsedTimestamp { return parsed }
    guard event.flags & 1 != 0, let timestampRange else { return nil }
    return try? RaspTimestamp(epochSeconds: UnsafeBufferPointer(rebasing: event.line[timestampRange]))
  }

  /// The event, whose envelope holds the time and the source: a context is a copy of it, and
  /// decoding them waits until a decoder asks.
  @usableFromInline let event: RaspLogEvent

  /// Creates the context of a log event.
  ///
  /// ```swift
  /// let context = RaspEventContext(event: event)
  /// ```
  ///
  /// - Parameter event: The event.
  @inlinable
  init(event: RaspLogEvent) {
    self.event = event
  }

  /// Where the `ts` value is in the line, or `nil`.
  private var timestampRange: Range<Int>? {
    event.timestampStart < 0 ? nil : Int(event.timestampStart)..<Int(event.timestampEnd)
  }

  /// A context without a time or a source, for events that do not come from a log.
  ///
  /// ```swift
  /// let event = try domain.decodeEvent(name, payload: &payload, context: .none)
  /// ```
  public static var none: RaspEventContext {
    let noBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    return RaspEventContext(
      event: RaspLogEvent(
        line: noBytes, type: JSONRawString(start: 0, end: 0, hasEscapes: false), dot: nil, payloadOffset: nil,
        timestamp: nil, timestampRange: nil, isEpochSeconds: false, source: nil))
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
    guard let timestampRange, event.parsedTimestamp != nil || event.flags & 1 != 0 else { return nil }
    return try? JSONParser.parse(UnsafeBufferPointer(rebasing: event.line[timestampRange]))
  }

  /// The event's `source`, or `nil` when it has none.
  ///
  /// ```swift
  /// context.source   // "gps"
  /// ```
  public var source: String? {
    guard event.sourceStart >= 0 else { return nil }
    let raw = JSONRawString(start: Int(event.sourceStart), end: Int(event.sourceEnd), hasEscapes: event.flags & 2 != 0)
    return JSONScanner(event.line).string(raw)
  }
}
