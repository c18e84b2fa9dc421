import Rasp
import RaspJSON

/// A domain of application state that `rasp` can replay from a log: geolocation, REST links, …
///
/// A domain ties a typed ``Rasp/RaspState`` to the log format. It names the state in the
/// snapshot (`geo`), lists its events with their payload fields (for `rasp domains` and the
/// docs), decodes each event's payload straight from the log line's bytes into a typed event,
/// and writes its state as canonical JSON. The reducer itself is the state's
/// `apply(event:)`, so the same state works in an app with ``Rasp/RaspAggregator`` and in the
/// command line.
///
/// ```swift
/// struct CounterDomain: RaspDomain {
///   var name: String { "counter" }
///   var summary: String { "Counts taps." }
///   var events: [RaspEventSchema] {
///     [RaspEventSchema(name: "tap", summary: "Adds `by` (default 1).",
///                      fields: [RaspFieldSchema(name: "by", type: "integer", isRequired: false,
///                                               summary: "How much to add.")])]
///   }
///   var initialState: CounterState { CounterState() }
///
///   func decodeEvent(
///     _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
///   ) throws(RaspEventError) -> CounterState.Event {
///     var by: Int64 = 1
///     while let field = try payload.nextField() {
///       if field == "by" { by = try payload.integer() } else { try payload.skip() }
///     }
///     return .add(Int(by))
///   }
///
///   func encode(_ state: CounterState, into writer: inout JSONWriter) {
///     writer.writeRaw("{\"count\":")
///     writer.writeInteger(Int64(state.count))
///     writer.writeRaw("}")
///   }
/// }
/// ```
public protocol RaspDomain: Sendable {
  /// The domain's state; its `apply(event:)` is the domain's reducer.
  associatedtype State: RaspState

  /// The domain's name: the prefix of its event types (`geo` in `geo.heading`) and its key in
  /// the snapshot.
  var name: String { get }

  /// One sentence saying what the domain holds, for `rasp domains`.
  var summary: String { get }

  /// The domain's events, in the order `rasp domains` lists them.
  ///
  /// Only these names are routed to ``decodeEvent(_:payload:context:)``; any other
  /// `name.event` type is unknown (ignored and counted, or an error under `--strict`).
  var events: [RaspEventSchema] { get }

  /// The state before any event.
  var initialState: State { get }

  /// Decodes one event's payload into a typed event.
  ///
  /// Called only with names listed in ``events``. Read the payload with ``RaspPayload`` and
  /// throw its errors for missing, mistyped or invalid fields.
  ///
  /// - Parameters:
  ///   - name: The event's name within the domain (`heading` for `geo.heading`).
  ///   - payload: A reader positioned at the payload object.
  ///   - context: The event's timestamp and source.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a payload that does not describe a valid event.
  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> State.Event

  /// Writes the state as canonical JSON (keys sorted, no whitespace).
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write it.
  func encode(_ state: State, into writer: inout JSONWriter)

  /// Reads a state back from the JSON that ``encode(_:into:)`` wrote: how a replay resumes
  /// from a checkpoint (`rasp replay --resume`).
  ///
  /// Reading back what `encode` wrote must give a state that `encode` writes the same, and
  /// that every later event changes as it would have changed the original. The default
  /// implementation throws, so a domain that does not implement it still replays, but cannot
  /// be saved in a checkpoint. Read the value with ``RaspStateValue``, whose errors name the
  /// path of what is wrong.
  ///
  /// ```swift
  /// func decodeState(_ value: JSONValue) throws(RaspStateError) -> CounterState {
  ///   CounterState(count: try RaspStateValue(value).member("count").integer())
  /// }
  /// ```
  ///
  /// - Parameter value: The state's JSON, as `encode(_:into:)` wrote it.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` for JSON that is not a state of this domain, or when the
  ///   domain cannot read states back.
  func decodeState(_ value: JSONValue) throws(RaspStateError) -> State
}

extension RaspDomain {
  /// Refuses to read a state back: a domain that does not implement `decodeState(_:)` cannot
  /// be restored from a checkpoint.
  ///
  /// ```swift
  /// try CounterDomain().decodeState(.null)
  /// // throws: the domain 'counter' cannot be restored from a checkpoint: …
  /// ```
  ///
  /// - Parameter value: The state's JSON.
  /// - Returns: Never.
  /// - Throws: ``RaspStateError``, always.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> State {
    throw RaspStateError(
      path: "",
      reason: "the domain '\(name)' cannot be restored from a checkpoint: it does not implement "
        + "decodeState(_:)")
  }
}

extension RaspDomain {
  /// Decodes one event from its payload's JSON text, as a replay does: for a domain's tests.
  ///
  /// The payload is read by ``decodeEvent(_:payload:context:)`` and then checked to its end,
  /// so an error is the one a replay would report for the same payload; the event has no
  /// `ts` or `source`.
  ///
  /// ```swift
  /// let event = try GeoDomain().decodeEvent("heading", payloadJSON: #"{"heading":90}"#)
  /// // .heading(90.0)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The event's name within the domain, such as `heading`.
  ///   - payloadJSON: The payload object, or `null` for an event without one.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a name the domain does not define, or a payload that
  ///   does not decode; its offset counts in `payloadJSON`.
  public func decodeEvent(_ name: String, payloadJSON: String) throws(RaspEventError)
    -> State.Event
  {
    guard let index = events.firstIndex(where: { $0.name == name }) else {
      throw RaspEventError(offset: nil, reason: .unknownType(self.name + "." + name))
    }
    let eventName = RaspEventName(index: index, string: name)
    let bytes = Array(payloadJSON.utf8)
    let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    let result = bytes.withUnsafeBufferPointer { line in
      Result { () throws(RaspEventError) -> State.Event in
        let isNull = start.map { line[$0] == UInt8(ascii: "n") } ?? true
        var payload = RaspPayload(line: line, offset: isNull ? nil : start)
        return try decodedEvent(eventName, payload: &payload, context: .none)
      }
    }
    return try result.get()
  }

  /// Reads one event's payload into its typed event, to its end (``RaspPayload/finish()``):
  /// the decoding of every event, here and in the replay, whichever thread decodes it and
  /// whether the event then waits in a column or is applied at once.
  ///
  /// ```swift
  /// let event = try GeoDomain().decodedEvent(name, payload: &payload, context: .none)
  /// ```
  ///
  /// - Throws: ``RaspEventError`` for a payload that does not decode, or whose end is not the
  ///   one expected.
  @inlinable @inline(__always)
  package func decodedEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> State.Event {
    let event = try decodeEvent(name, payload: &payload, context: context)
    try payload.finish()
    return event
  }
}

/// The name of an event within its domain, compared with names without allocating.
///
/// ```swift
/// switch name {
/// case "heading": …
/// case "location": …
/// default: throw RaspEventError(offset: nil, reason: .unknownType(name.string))
/// }
/// ```
public struct RaspEventName: Sendable, CustomStringConvertible {
  /// The position of the event in the domain's ``RaspDomain/events``.
  public let index: Int
  /// The name as a string.
  public let string: String
  /// The number of UTF-8 bytes of the name, to reject most comparisons at once.
  @usableFromInline let count: Int
  /// The name's first eight UTF-8 bytes, little-endian, so that most comparisons are one
  /// integer comparison.
  @usableFromInline let head: UInt64

  /// Creates a name.
  ///
  /// ```swift
  /// let name = RaspEventName(index: 0, string: "heading")
  /// ```
  ///
  /// - Parameters:
  ///   - index: The event's position in the domain's list.
  ///   - string: The name.
  public init(index: Int, string: String) {
    self.index = index
    self.string = string
    self.count = string.utf8.count
    var head: UInt64 = 0
    for (offset, byte) in string.utf8.prefix(8).enumerated() {
      head |= UInt64(byte) << (8 * offset)
    }
    self.head = head
  }

  /// The name.
  ///
  /// ```swift
  /// print(name)   // heading
  /// ```
  public var description: String { string }

  /// Whether the name is `text`.
  ///
  /// ```swift
  /// if name == "heading" { … }
  /// ```
  ///
  /// - Parameters:
  ///   - name: An event name.
  ///   - text: A name to compare with.
  /// - Returns: `true` when they are equal.
  @inlinable
  @inline(__always)  // inlined, a literal's length and first bytes are constants
  public static func == (name: RaspEventName, text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard name.count == count else { return false }
    let base = text.utf8Start
    var head: UInt64 = 0
    for offset in 0..<Swift.min(count, 8) { head |= UInt64(base[offset]) << (8 * offset) }
    guard head == name.head else { return false }
    guard count > 8 else { return true }
    var string = name.string
    return string.withUTF8 { bytes in
      for index in 8..<count where bytes[index] != base[index] { return false }
      return true
    }
  }

  /// Lets `switch` match a name against string literals.
  ///
  /// ```swift
  /// switch name { case "heading": … default: … }
  /// ```
  ///
  /// - Parameters:
  ///   - text: A name in a `case` pattern.
  ///   - name: An event name.
  /// - Returns: `true` when they are equal.
  @inlinable
  @inline(__always)
  public static func ~= (text: StaticString, name: RaspEventName) -> Bool {
    name == text
  }
}
