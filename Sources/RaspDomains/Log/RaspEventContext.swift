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
    if let parsedTimestamp { return parsedTimestamp }
    guard isEpochSeconds, let timestampRange else { return nil }
    return try? RaspTimestamp(epochSeconds: UnsafeBufferPointer(rebasing: line[timestampRange]))
  }
  private let parsedTimestamp: RaspTimestamp?
  private let isEpochSeconds: Bool
  private let line: UnsafeBufferPointer<UInt8>
  private let timestampRange: Range<Int>?
  private let sourceRaw: JSONRawString?

  /// Creates a context for an event of `line`.
  ///
  /// ```swift
  /// let context = RaspEventContext.none
  /// ```
  ///
  /// - Parameters:
  ///   - line: The log line.
  ///   - timestamp: The parsed `ts`, or `nil` when it is absent or a number not yet converted.
  ///   - timestampRange: Where the `ts` value is in the line.
  ///   - isEpochSeconds: Whether the `ts` is a valid number of seconds, converted on demand.
  ///   - sourceRaw: Where the `source` string is in the line.
  @usableFromInline
  init(
    line: UnsafeBufferPointer<UInt8>, timestamp: RaspTimestamp?, timestampRange: Range<Int>?,
    isEpochSeconds: Bool = false, sourceRaw: JSONRawString?
  ) {
    self.line = line
    self.parsedTimestamp = timestamp
    self.isEpochSeconds = isEpochSeconds
    self.timestampRange = timestampRange
    self.sourceRaw = sourceRaw
  }

  /// A context without a time or a source, for events that do not come from a log.
  ///
  /// ```swift
  /// let event = try domain.decodeEvent(name, payload: &payload, context: .none)
  /// ```
  public static var none: RaspEventContext {
    RaspEventContext(
      line: UnsafeBufferPointer(start: nil, count: 0), timestamp: nil, timestampRange: nil, sourceRaw: nil)
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
    guard let sourceRaw else { return nil }
    return JSONScanner(line).string(sourceRaw)
  }
}
