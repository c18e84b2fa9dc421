import RaspDomains
import RaspJSON

/// Turns each record of a replay into what changed since the record before — an RFC 6902
/// JSON Patch — and hands that to another sink: `rasp replay --emit diff`.
///
/// The engine writes records as usual (snapshots, selected values, `--with-event` wrappers); this
/// sink rewrites each one in place before passing it on, so the engine's loop does no extra work
/// when the option is off. The first record is compared with the initial state (or the value
/// selected in it), so a patch always applies to the state before its event. With
/// `--with-event`, the patch replaces the `state` (or `value`) member:
/// `{"diff":[…],"event":…,"file":…,"line":…,"seq":…}`. With `--changes-only`, records whose
/// patch is empty are dropped.
///
/// Only what changed is parsed: the sink keeps the previous record's top-level members as
/// bytes — the domains of a snapshot — and parses a member only when its bytes differ (the
/// replay's JSON is canonical, so equal values are equal bytes).
///
/// ```swift
/// var sink = ReplayDiffSink(base: StandardOutputSink(stream: output, isPretty: false), options: options)
/// let outcome = engine.run(into: &sink)
/// // [{"op":"replace","path":"/geo/heading","value":273}]
/// ```
struct ReplayDiffSink<Base: ReplaySink>: ReplaySink {
  /// The sink that takes the patches.
  var base: Base
  /// Whether records are `--with-event` wrappers.
  let withEvent: Bool
  /// Whether to drop empty patches.
  let changesOnly: Bool
  /// The previous record's value.
  private var previous: DiffBaseline

  /// Wraps a sink, starting from the initial state of the options' domains.
  init(base: Base, options: ReplayOptions) {
    self.base = base
    self.withEvent = options.withEvent
    self.changesOnly = options.changesOnly
    let initial = RaspSnapshotState(domains: options.domains)
    let bytes: [UInt8]
    if let path = options.select {
      let domain = path.firstKey.flatMap { initial.domainIndex(named: $0) }
      bytes = ReplayEngine.selectedBytes(path, domain: domain, in: initial)
    } else {
      bytes = initial.json()
    }
    previous = DiffBaseline(bytes[...])
  }

  mutating func endRecord(
    _ writer: inout JSONWriter, start: Int, meta: ReplayRecordMeta
  ) throws(ReplayStop) {
    let record = Array(writer.bytes[start...])
    writer.bytes.removeSubrange(start...)
    var members: [DiffBaseline.Member] = []
    var value = record[...]
    if withEvent, let wrapper = DiffBaseline.members(of: record[...]) {
      members = wrapper.filter { $0.key != "state" && $0.key != "value" }
      if let state = wrapper.first(where: { $0.key == "state" || $0.key == "value" }) {
        value = state.bytes
      }
    }
    let operations = previous.advance(to: value)
    if changesOnly, operations.isEmpty { return }
    if withEvent {
      writer.writeRaw("{\"diff\":")
      writer.write(.array(operations))
      for member in members {
        writer.writeRaw(",")
        writer.writeKey(member.key)
        writer.writeRaw(member.bytes)
      }
      writer.writeRaw("}")
    } else {
      writer.write(.array(operations))
    }
    try base.endRecord(&writer, start: start, meta: meta)
  }

  mutating func flush(_ writer: inout JSONWriter) throws(ReplayStop) {
    try base.flush(&writer)
  }

  mutating func finish(_ writer: inout JSONWriter) throws(ReplayStop) {
    try base.finish(&writer)
  }
}

extension ReplayEngine {
  /// Replays into `sink`, through a ``ReplayDiffSink`` when the options ask for `--emit diff`.
  ///
  /// ```swift
  /// var sink = StandardOutputSink(stream: environment.standardOutput, isPretty: false)
  /// let outcome = engine.run(emittingInto: &sink)
  /// ```
  func run<Sink: ReplaySink>(emittingInto sink: inout Sink) -> ReplayOutcome {
    guard options.emit == .diff else { return run(into: &sink) }
    var wrapped = ReplayDiffSink(base: sink, options: options)
    let outcome = run(into: &wrapped)
    sink = wrapped.base
    return outcome
  }
}

/// The previous record of a ``ReplayDiffSink``: its top-level members as bytes, each parsed
/// only once it is needed, or the whole value when it is not an object.
struct DiffBaseline {
  /// One member of an object, as canonical bytes.
  struct Member {
    /// The key.
    let key: String
    /// The value's bytes.
    let bytes: ArraySlice<UInt8>
    /// The value, once parsed.
    var value: JSONValue?

    /// The value, parsed now if it was not yet.
    mutating func parsed() -> JSONValue {
      if let value { return value }
      let parsed = DiffBaseline.parse(bytes)
      value = parsed
      return parsed
    }
  }

  /// The members of an object record, or `nil` for another value.
  private var members: [Member]?
  /// The whole record's bytes.
  private var bytes: ArraySlice<UInt8>
  /// The whole record, once parsed.
  private var value: JSONValue?

  /// Starts from a record.
  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.members = DiffBaseline.members(of: bytes)
  }

  /// The operations that turn the previous record into `next`, which becomes the previous one.
  ///
  /// - Parameter next: The next record's canonical JSON.
  /// - Returns: RFC 6902 operations, in document order; empty when nothing changed.
  mutating func advance(to next: ArraySlice<UInt8>) -> [JSONValue] {
    if next.elementsEqual(bytes) { return [] }
    defer { bytes = next }
    let nextMembers = DiffBaseline.members(of: next)
    if var old = members, var new = nextMembers, old.map(\.key) == new.map(\.key) {
      // The same keys: compare member by member, parsing only those whose bytes differ. The
      // new member keeps its parsed value, for when it is the old one.
      var operations: [JSONValue] = []
      for index in old.indices where !old[index].bytes.elementsEqual(new[index].bytes) {
        let key = old[index].key
        let differences = JSONDiff.differences(from: old[index].parsed(), to: new[index].parsed())
        for difference in differences {
          let path = JSONPath(components: [.key(key)] + difference.path.components)
          operations.append(
            JSONDifference(path: path, expected: difference.expected, actual: difference.actual)
              .patchOperation)
        }
      }
      members = new
      value = nil
      return operations
    }
    let oldValue = wholeValue()
    let newValue = DiffBaseline.parse(next)
    members = nextMembers
    value = newValue
    return JSONDiff.differences(from: oldValue, to: newValue).map(\.patchOperation)
  }

  /// The whole previous record.
  private mutating func wholeValue() -> JSONValue {
    if let value { return value }
    let parsed = DiffBaseline.parse(bytes)
    value = parsed
    return parsed
  }

  /// The top-level members of an object, as byte slices, or `nil` when the text is not an
  /// object.
  static func members(of text: ArraySlice<UInt8>) -> [Member]? {
    let found: [Member]?? = text.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      var members: [Member] = []
      do throws(JSONError) {
        guard try scanner.peekKind() == .object else { return nil }
        var progress = try scanner.beginObject()
        while let key = try scanner.nextMember(&progress) {
          let name = scanner.string(key)
          scanner.skipWhitespace()
          let start = try scanner.skipValue()
          let range = (text.startIndex + start)..<(text.startIndex + scanner.position)
          members.append(Member(key: name, bytes: text[range], value: nil))
        }
      } catch {
        return nil
      }
      return members
    }
    return found ?? nil
  }

  /// Parses canonical JSON written by the replay; `null` if it is not JSON, which cannot happen.
  static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue {
    (try? bytes.withUnsafeBufferPointer { buffer throws(JSONError) in try JSONParser.parse(buffer) })
      ?? .null
  }
}
