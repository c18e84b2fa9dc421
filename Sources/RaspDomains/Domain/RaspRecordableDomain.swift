import Rasp
import RaspJSON

/// A domain whose events can be written back as log lines: the inverse of its decoder, so that
/// an app's events can be recorded and replayed.
///
/// ``RaspDomain/decodeEvent(_:payload:context:)`` reads a log line into a typed event;
/// ``encodeEvent(_:into:)`` writes a typed event as the parts of a log line — its name within
/// the domain, its payload, and its own time when it carries one — such that decoding the line
/// gives back an equal event. A recorder (`RaspRecorder` in the `RaspRecording` module) uses
/// it to write what an app's aggregator applies as a log that `rasp replay` reads.
///
/// Every built-in domain conforms. A custom domain conforms by writing, for each event, the
/// name its ``RaspDomain/events`` lists and the payload fields its decoder reads:
///
/// ```swift
/// extension CounterDomain: RaspRecordableDomain {
///   func encodeEvent(_ event: CounterState.Event, into record: inout RaspEventRecord) {
///     switch event {
///     case .add(let by):
///       record.name = "tap"
///       record.payload.writeRaw("{\"by\":")
///       record.payload.writeInteger(Int64(by))
///       record.payload.writeRaw("}")
///     }
///   }
/// }
/// ```
public protocol RaspRecordableDomain: RaspDomain {
  /// Writes one event as the parts of a log line.
  ///
  /// Set ``RaspEventRecord/name`` to one of the names in ``RaspDomain/events``; write the
  /// payload as one JSON object into ``RaspEventRecord/payload`` (keys sorted, as the rest of
  /// rasp's output is), or leave it empty for an event without fields; set
  /// ``RaspEventRecord/time`` only for an event that carries the time of its line. The record
  /// arrives reset, with its buffer's capacity kept, so that recording allocates nothing once
  /// the buffer is large enough.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name, payload and time.
  func encodeEvent(_ event: State.Event, into record: inout RaspEventRecord)
}

/// The parts of one log line that a domain writes for an event: name, payload and time.
///
/// ```swift
/// var record = RaspEventRecord()
/// GeoDomain().encodeEvent(.heading(90), into: &record)
/// record.name                                  // "heading"
/// String(decoding: record.payload.bytes, as: UTF8.self)   // {"heading":90}
/// ```
public struct RaspEventRecord {
  /// Where a line's `ts` comes from.
  ///
  /// ```swift
  /// record.time = .given("2026-11-22T09:30:00Z")
  /// ```
  public enum Time: Sendable, Equatable {
    /// The recorder's clock: the moment the event was applied. Most events.
    case clock
    /// The event's own time, written as the line's `ts` exactly: for an event that keeps the
    /// time of its line, such as `lifecycle.launch`.
    case given(JSONValue)
    /// No `ts` at all: for an event that keeps the time of its line and had none.
    case absent
  }

  /// The event's name within its domain: `heading` for `geo.heading`.
  public var name: String
  /// The payload: one JSON object, or nothing for an event without fields.
  public var payload: JSONWriter
  /// Where the line's `ts` comes from; ``Time/clock`` unless the domain says otherwise.
  public var time: Time

  /// Creates an empty record.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// ```
  public init() {
    name = ""
    payload = JSONWriter(capacity: 256)
    time = .clock
  }

  /// Empties the record for the next event, keeping the payload buffer's capacity.
  ///
  /// ```swift
  /// record.reset()
  /// record.payload.bytes.isEmpty   // true
  /// ```
  public mutating func reset() {
    name = ""
    payload.removeAll()
    time = .clock
  }
}

extension RaspRecordableDomain {
  /// Encodes an event and decodes it again, as a replay of its line would: for tests that
  /// the encoding round-trips.
  ///
  /// The line is built from the record — its `ts` (a ``RaspEventRecord/Time/given(_:)`` time,
  /// or `clock` when the recorder's clock would stamp it), and its payload — and decoded with
  /// ``RaspDomain/decodeEvent(_:payload:context:)``, the payload checked to its end.
  ///
  /// ```swift
  /// let event = try GeoDomain().roundTrip(.heading(90), clock: "2026-11-22T09:30:00Z")
  /// // .heading(90.0)
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event to encode.
  ///   - clock: The `ts` a recorder's clock would write, for events whose time is
  ///     ``RaspEventRecord/Time/clock``; `nil` for none.
  /// - Returns: The event decoded from the encoded line.
  /// - Throws: ``RaspEventError`` when the line does not decode, naming what is wrong.
  public func roundTrip(_ event: State.Event, clock: JSONValue? = nil) throws(RaspEventError)
    -> State.Event
  {
    var record = RaspEventRecord()
    encodeEvent(event, into: &record)
    guard let index = events.firstIndex(where: { $0.name == record.name }) else {
      throw RaspEventError(offset: nil, reason: .unknownType(name + "." + record.name))
    }
    let time: JSONValue? =
      switch record.time {
      case .clock: clock
      case .given(let value): value
      case .absent: nil
      }
    var line = JSONWriter()
    line.writeRaw("{\"payload\":")
    let payloadStart = line.bytes.count
    if record.payload.bytes.isEmpty {
      line.writeNull()
    } else {
      line.writeRaw(record.payload.bytes)
    }
    line.writeRaw(",\"ts\":")
    let timeStart = line.bytes.count
    if let time { line.write(time) } else { line.writeNull() }
    let timeEnd = line.bytes.count
    line.writeRaw("}")
    let isNull = record.payload.bytes.isEmpty
    let eventName = RaspEventName(index: index, string: record.name)
    let bytes = line.bytes
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(RaspEventError) -> State.Event in
        let timestamp = time.flatMap { value -> RaspTimestamp? in
          guard case .string(let text) = value else { return nil }
          return try? RaspTimestamp(rfc3339: text)
        }
        let isEpoch: Bool = if case .number = time { true } else { false }
        let range = time == nil ? nil : timeStart..<timeEnd
        let context = RaspEventContext(
          line: buffer, timestamp: timestamp, timestampRange: range, isEpochSeconds: isEpoch,
          source: nil)
        var payload = RaspPayload(line: buffer, offset: isNull ? nil : payloadStart)
        return try decodedEvent(eventName, payload: &payload, context: context)
      }
    }
    return try result.get()
  }
}
