import RaspDomains
import RaspJSON
import RaspReplay

/// Writes a replay as one Redux DevTools export, the file its **Import** button reads: every
/// event an action, every snapshot a computed state (`rasp replay --emit devtools`).
///
/// The document is the DevTools' *lifted state*, the one shape that every import path reads
/// (see `fixtures/devtools/FORMAT.md`): action 0 is `@@INIT` with the initial snapshot, and
/// action *n* is the *n*-th event printed —
/// `{"type": "PERFORM_ACTION", "action": {"type": "geo/heading", "payload": …}, "timestamp": ms}`
/// — with `computedStates[n]` the snapshot after it. The action's type is the event's with its
/// domain and event joined by `/`, as Redux Toolkit names a slice's actions; its timestamp is
/// the event's `ts` in milliseconds (an RFC 3339 time, or a number of seconds, or of
/// milliseconds when it is too large for seconds), or the one before when it has none.
///
/// ```swift
/// var sink = DevToolsExportSink(stream: environment.standardOutput, initialState: initial)
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// ```
struct DevToolsExportSink: ReplaySink {
  let stream: any RaspOutputStream
  /// The `actionsById` members written so far, after `@@INIT`.
  private var actions = JSONWriter(capacity: 1 << 16)
  /// The `computedStates` elements written so far, after the initial one.
  private var states = JSONWriter(capacity: 1 << 16)
  /// The initial snapshot, as canonical JSON.
  private let initialState: [UInt8]
  /// How many events were taken.
  private var count = 0
  /// The last timestamp, in milliseconds, for events without one.
  private var lastTimestamp: Int64 = 0
  /// The first event's timestamp, which `@@INIT` takes so that the slider starts where the
  /// log does.
  private var firstTimestamp: Int64 = 0

  /// A sink that writes to `stream`, starting from the snapshot before any event.
  init(stream: any RaspOutputStream, initialState: [UInt8]) {
    self.stream = stream
    self.initialState = initialState
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    // The record is `{"event": {…}, "seq": n, "state": {…}, …}`: --with-event is on.
    let parsed = Result { () throws(JSONError) in
      try JSONParser.parse(
        Array(output[record.range]), maximumDepth: JSONLimits.maximumWrittenDepth)
    }
    output.removeSubrange(record.range.lowerBound...)
    // Never so for a record of rasp's own; said rather than left out of the export if it were.
    guard case .success(let value) = parsed, let event = value["event"],
      let state = value["state"]
    else { throw .unreadable(record, parsed) }
    count += 1
    if let timestamp = Self.milliseconds(event["ts"]) { lastTimestamp = timestamp }
    if count == 1 { firstTimestamp = lastTimestamp }
    actions.writeRaw(",")
    actions.writeKey(String(count))
    actions.writeRaw(#"{"type":"PERFORM_ACTION","action":{"type":"#)
    actions.writeString(Self.actionType(event["type"]))
    if let payload = event["payload"] {
      actions.writeRaw(#","payload":"#)
      actions.write(payload)
    }
    actions.writeRaw(#"},"timestamp":"#)
    actions.writeInteger(lastTimestamp)
    actions.writeRaw("}")
    states.writeRaw(#",{"state":"#)
    states.write(state)
    states.writeRaw("}")
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {
    // The document is written whole at the end: nothing to deliver before.
  }

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    var document = JSONWriter(capacity: actions.bytes.count + states.bytes.count + 512)
    document.writeRaw(#"{"actionsById":{"0":{"type":"PERFORM_ACTION","action":{"type":"@@INIT"},"#)
    document.writeRaw(#""timestamp":"#)
    document.writeInteger(firstTimestamp)
    document.writeRaw("}")
    document.writeRaw(actions.bytes)
    document.writeRaw(#"},"committedState":"#)
    document.writeRaw(initialState)
    document.writeRaw(#","computedStates":[{"state":"#)
    document.writeRaw(initialState)
    document.writeRaw("}")
    document.writeRaw(states.bytes)
    document.writeRaw(#"],"currentStateIndex":"#)
    document.writeInteger(Int64(count))
    document.writeRaw(#","isLocked":false,"isPaused":false,"monitorState":{},"nextActionId":"#)
    document.writeInteger(Int64(count + 1))
    document.writeRaw(#","skippedActionIds":[],"stagedActionIds":["#)
    for id in 0...count {
      if id > 0 { document.writeRaw(",") }
      document.writeInteger(Int64(id))
    }
    document.writeRaw("]}\n")
    do {
      try stream.write(document.bytes)
    } catch {
      switch error {
      case .brokenPipe: throw .brokenPipe
      case .failed(let message): throw .outputFailed(message)
      }
    }
  }

  /// `geo.heading` as `geo/heading`: the domain and the event joined by a slash.
  static func actionType(_ type: JSONValue?) -> String {
    guard case .string(let text)? = type else { return "unknown" }
    guard let dot = text.firstIndex(of: ".") else { return text }
    return text[..<dot] + "/" + text[text.index(after: dot)...]
  }

  /// An event's time in milliseconds since the epoch, or `nil` when it has none that reads.
  static func milliseconds(_ time: JSONValue?) -> Int64? {
    switch time {
    case .string(let text)?:
      guard let timestamp = try? RaspTimestamp(rfc3339: text) else { return nil }
      return timestamp.seconds &* 1000 &+ Int64(timestamp.nanoseconds / 1_000_000)
    case .number(let number)?:
      let value = number.doubleValue
      guard value.isFinite, abs(value) < 1e17 else { return nil }
      // A number of seconds up to the year 5138, as rasp's own format reads it; beyond, ms.
      return abs(value) < 1e11 ? Int64((value * 1000).rounded()) : Int64(value.rounded())
    default:
      return nil
    }
  }
}
