import RaspDomains
import RaspJSON
import RaspReplay

/// Gathers what a report shows from a replay's records, one event at a time: the events in a
/// compact form, the snapshots as keyframes plus patches, the numeric fields' series, the geo
/// track and the counts.
///
/// Each record is the replay's `--with-event --emit diff` line: the event, where it was read,
/// and the JSON Patch from the snapshot before it (of its key's state, with `--key-by`). The
/// builder applies each patch to its own copy of the snapshot, which it writes whole — a
/// keyframe — whenever the patches since the last one add up to its size, so that the page
/// rebuilds any snapshot from the nearest keyframe with few patches, and the file stays at
/// most about twice the patches' size.
///
/// ```swift
/// var builder = ReportBuilder(initial: initialSnapshot, isKeyed: false)
/// builder.add(record: try JSONParser.parse(line))
/// var data = JSONWriter()
/// builder.write(to: &data, summary: summary)
/// ```
struct ReportBuilder {
  /// Whether the replay keeps a state per key (`--key-by`).
  let isKeyed: Bool
  /// The snapshot before any event; with keys, the state each key starts from.
  let initial: JSONValue
  /// The current snapshot, without keys.
  private var state: JSONValue
  /// The current state of each key, by the key's index in ``keys``.
  private var keyStates: [JSONValue] = []
  /// The keys in the order they were first seen.
  private(set) var keys: [JSONValue] = []
  private var keyIndex: [[UInt8]: Int] = [:]
  /// Each key's canonical JSON.
  private var keyBytes: [[UInt8]] = []

  /// The event types seen, in order, and their counts.
  private(set) var types: [String] = []
  private(set) var typeCounts: [Int] = []
  private var typeIndex: [String: Int] = [:]
  /// The paths of the patches' operations (of a key's state, with keys).
  private var paths: [String] = []
  private var pathTokens: [[String]] = []
  private var pathIndex: [String: Int] = [:]
  /// The input files' names, as records give them.
  private var files: [String] = []
  private var fileIndex: [String: Int] = [:]

  /// Each event's type index, for the timeline.
  private(set) var eventTypes: [Int32] = []
  /// Each event's time in milliseconds, the previous one's when it has none.
  private(set) var eventTimes: [Int64] = []
  /// How many events had a time.
  private(set) var timedEvents = 0
  /// The events, one compact array each: `[type, dt, (key,) code, value, code, …]`, where
  /// `code` is three times the path's index plus the operation (0 add, 1 replace, 2 remove),
  /// and -1, without a value, starts a key from the initial state.
  private var events = JSONWriter(capacity: 1 << 20)
  /// `[event, seq, file, line]` where the events stop being consecutive lines.
  private var runs = JSONWriter(capacity: 1 << 12)
  private var lastRun: (seq: Int, file: Int, line: Int) = (-1, -1, -1)
  /// `[event, snapshot]`, the snapshot after the event (0 the initial one).
  private var keyframes = JSONWriter(capacity: 1 << 16)
  private var bytesSinceKeyframe = 0
  private var lastKeyframeSize = 0
  /// `[event, latitude, longitude, heading]` (and the key's index) for each `geo.location`.
  private var track:
    [(
      event: Int32, latitude: Double, longitude: Double, heading: Double?,
      key: Int
    )] = []
  private(set) var series: ReportSeries

  /// Starts from the snapshot before any event (each key's first state, with keys).
  init(initial: JSONValue, isKeyed: Bool, selection: String? = nil) {
    self.initial = initial
    self.isKeyed = isKeyed
    self.series = ReportSeries(labelPrefix: selection ?? "")
    self.state = isKeyed ? .array([]) : initial
    keyframes.writeRaw("[0,")
    keyframes.write(state)
    keyframes.writeRaw("]")
    lastKeyframeSize = keyframes.bytes.count
    if !isKeyed {
      series.record(tokens: [], pointer: "", value: initial, in: initial, event: 0)
    }
  }

  /// How many events were taken.
  var count: Int { eventTypes.count }

  /// Takes one record: the event, its place, and the patch from the snapshot before it.
  mutating func add(_ record: ReportRecord) {
    let number = Int32(truncatingIfNeeded: eventTypes.count + 1)
    let type = record.type
    let typeNumber: Int
    if let known = typeIndex[type] {
      typeNumber = known
    } else {
      typeNumber = types.count
      types.append(type)
      typeCounts.append(0)
      typeIndex[type] = typeNumber
    }
    typeCounts[typeNumber] += 1
    eventTypes.append(Int32(typeNumber))
    let previous = eventTimes.last ?? 0
    var time = previous
    if let milliseconds = DevToolsExportSink.milliseconds(record.time) {
      time = milliseconds
      if timedEvents == 0 {
        // Events before the first with a time take its time.
        for index in eventTimes.indices { eventTimes[index] = time }
      }
      timedEvents += 1
    }
    eventTimes.append(time)
    let start = events.bytes.count
    events.writeRaw(eventTypes.count == 1 ? "[" : ",[")
    events.writeInteger(Int64(typeNumber))
    events.writeRaw(",")
    events.writeInteger(eventTimes.count == 1 || timedEvents <= 1 ? 0 : time &- previous)
    addRun(record, event: Int(number))

    var key = -1
    var scope = ""
    if isKeyed {
      let keyValue = record.key ?? .null
      var writer = JSONWriter(capacity: 32)
      writer.write(keyValue)
      scope = String(decoding: writer.bytes, as: UTF8.self)
      let isNew = keyIndex[writer.bytes] == nil
      if let known = keyIndex[writer.bytes] {
        key = known
      } else {
        key = keys.count
        keyIndex[writer.bytes] = key
        keys.append(keyValue)
        keyBytes.append(writer.bytes)
        keyStates.append(initial)
      }
      events.writeRaw(",")
      events.writeInteger(Int64(key))
      if isNew {
        // The key's first event starts it from the initial state: code -1.
        events.writeRaw(",-1")
        series.record(
          tokens: [], pointer: "", value: initial, in: initial, event: number - 1, scope: scope)
      }
    }
    // Each operation: written, applied to the builder's snapshot, its numbers followed.
    for operation in record.operations {
      guard case .string(let op)? = operation["op"], case .string(let path)? = operation["path"]
      else { continue }
      let kind = op == "add" ? 0 : op == "replace" ? 1 : 2
      let value = kind == 2 ? nil : operation["value"] ?? .null
      let index = writeOperation(path: path, kind: kind, value: value)
      let tokens = pathTokens[index]
      if isKeyed {
        Self.apply(kind, tokens, value, path, to: &keyStates[key])
        follow(kind, tokens, path, value, in: keyStates[key], event: number, scope: scope)
      } else {
        Self.apply(kind, tokens, value, path, to: &state)
        follow(kind, tokens, path, value, in: state, event: number, scope: scope)
      }
    }
    events.writeRaw("]")
    bytesSinceKeyframe += events.bytes.count - start

    if type == "geo.location" {
      let current = isKeyed ? keyStates[key] : state
      if case .object(let location)? = current["geo"]?["location"],
        case .number(let latitude)? = location["latitude"],
        case .number(let longitude)? = location["longitude"]
      {
        var heading: Double?
        if case .number(let value)? = current["geo"]?["heading"] { heading = value.doubleValue }
        track.append((number, latitude.doubleValue, longitude.doubleValue, heading, key))
      }
    }
    if bytesSinceKeyframe >= max(lastKeyframeSize, 8192) { writeKeyframe() }
  }

  /// Follows the numbers an operation set, and the length of the container it added to or
  /// removed from.
  private mutating func follow(
    _ kind: Int, _ tokens: [String], _ pointer: String, _ value: JSONValue?,
    in document: JSONValue, event: Int32, scope: String
  ) {
    series.record(
      tokens: tokens, pointer: pointer, value: value, in: document, event: event, scope: scope)
    if kind != 1, !tokens.isEmpty {
      let parent = pointer.lastIndex(of: "/").map { String(pointer[..<$0]) } ?? ""
      series.recordLength(
        tokens: Array(tokens.dropLast()), pointer: parent, in: document, event: event,
        scope: scope)
    }
  }

  /// Applies one operation of a patch the replay made, which always applies; one that would
  /// not is left out.
  private static func apply(
    _ kind: Int, _ tokens: [String], _ value: JSONValue?, _ pointer: String,
    to document: inout JSONValue
  ) {
    switch kind {
    case 0: try? JSONPatch.add(value ?? .null, at: tokens[...], pointer: pointer, in: &document)
    case 1:
      try? JSONPatch.replace(
        at: tokens[...], with: value ?? .null, pointer: pointer, in: &document)
    default: try? JSONPatch.remove(at: tokens[...], pointer: pointer, in: &document)
    }
  }

  /// Writes an operation, with its path's number in the table (added when new), which it
  /// returns.
  private mutating func writeOperation(path: String, kind: Int, value: JSONValue?) -> Int {
    let index: Int
    if let known = pathIndex[path] {
      index = known
    } else {
      index = paths.count
      paths.append(path)
      pathTokens.append(ReportPointer.tokens(path))
      pathIndex[path] = index
    }
    events.writeRaw(",")
    events.writeInteger(Int64(index * 3 + kind))
    if kind != 2 {
      events.writeRaw(",")
      events.write(value ?? .null)
    }
    return index
  }

  private mutating func addRun(_ record: ReportRecord, event: Int) {
    let seq = record.seq ?? event
    let line = record.line ?? 0
    var file = 0
    if let name = record.file {
      if let known = fileIndex[name] {
        file = known
      } else {
        file = files.count
        files.append(name)
        fileIndex[name] = file
      }
    }
    defer { lastRun = (seq, file, line) }
    if seq == lastRun.seq + 1, file == lastRun.file, line == lastRun.line + 1 { return }
    runs.writeRaw(runs.bytes.isEmpty ? "[" : ",[")
    for (index, value) in [event, seq, file, line].enumerated() {
      if index > 0 { runs.writeRaw(",") }
      runs.writeInteger(Int64(value))
    }
    runs.writeRaw("]")
  }

  private mutating func writeKeyframe() {
    let start = keyframes.bytes.count
    keyframes.writeRaw(",[")
    keyframes.writeInteger(Int64(count))
    keyframes.writeRaw(",")
    keyframes.write(isKeyed ? .array(keyStates) : state)
    keyframes.writeRaw("]")
    lastKeyframeSize = keyframes.bytes.count - start
    bytesSinceKeyframe = 0
  }

  /// Where each event sits on the x axis of the timeline and the plots, `[0]` the initial
  /// snapshot's: its time in milliseconds from the first event's, when every event had one
  /// and they never go back; otherwise its number.
  var positions: [Double] {
    guard isTimed, let first = eventTimes.first else { return (0...count).map(Double.init) }
    return [0] + eventTimes.map { Double($0 &- first) }
  }

  /// Whether ``positions`` are times.
  var isTimed: Bool {
    guard let first = eventTimes.first, let last = eventTimes.last else { return false }
    return timedEvents == count && last > first
      && zip(eventTimes, eventTimes.dropFirst()).allSatisfy { $0 <= $1 }
  }

  /// Writes the report's data members (without braces) for the page.
  func writeMembers(
    to writer: inout JSONWriter, domains: [String], columns: Int, trackLimit: Int
  ) {
    let positions = self.positions
    writer.writeRaw(#""count":"#)
    writer.writeInteger(Int64(count))
    writer.writeRaw(#","keyed":"#)
    writer.writeBool(isKeyed)
    writer.writeRaw(#","keys":"#)
    writer.write(.array(keys))
    writer.writeRaw(#","initial":"#)
    writer.write(isKeyed ? initial : .null)
    writer.writeRaw(#","keyOrder":"#)
    let sortKeys = keyBytes.map(KeyOrder.SortKey.init)
    let order = keys.indices.sorted { KeyOrder.precedes(sortKeys[$0], sortKeys[$1]) }
    writer.write(.array(order.map { .number(JSONNumber($0)) }))
    writer.writeRaw(#","timed":"#)
    writer.writeBool(isTimed)
    writer.writeRaw(#","start":"#)
    writer.writeInteger(eventTimes.first ?? 0)
    writer.writeRaw(#","hasTimes":"#)
    writer.writeBool(timedEvents > 0)
    writer.writeRaw(#","types":"#)
    writer.write(.array(types.map { .string($0) }))
    writer.writeRaw(#","typeCounts":"#)
    writer.write(.array(typeCounts.map { .number(JSONNumber($0)) }))
    writer.writeRaw(#","files":"#)
    writer.write(.array(files.map { .string($0) }))
    writer.writeRaw(#","paths":"#)
    writer.write(.array(paths.map { .string($0) }))
    writer.writeRaw(#","events":["#)
    writer.writeRaw(events.bytes)
    writer.writeRaw(#"],"runs":["#)
    writer.writeRaw(runs.bytes)
    writer.writeRaw(#"],"keyframes":["#)
    writer.writeRaw(keyframes.bytes)
    writer.writeRaw("]")
    writeTimeline(to: &writer, domains: domains, positions: positions, columns: columns)
    writer.writeRaw(#","series":["#)
    let finished = series.finished(positions: positions, columns: columns)
    for (index, line) in finished.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeRaw(#"{"label":"#)
      writer.writeString(line.label)
      writer.writeRaw(#","points":["#)
      for (position, event) in line.events.enumerated() {
        if position > 0 { writer.writeRaw(",") }
        writer.writeRaw("[")
        writer.writeInteger(Int64(event))
        writer.writeRaw(",")
        if let value = line.values[position] {
          writer.writeNumber(value)
        } else {
          writer.writeNull()
        }
        writer.writeRaw("]")
      }
      writer.writeRaw("]}")
    }
    writer.writeRaw(#"],"untrackedSeries":"#)
    writer.writeInteger(Int64(series.untracked))
    writer.writeRaw(#","trackCount":"#)
    writer.writeInteger(Int64(track.count))
    writer.writeRaw(#","track":["#)
    let step = max(1, (track.count + trackLimit - 1) / max(trackLimit, 1))
    var written = 0
    for (index, point) in track.enumerated()
    where index % step == 0 || index == track.count - 1 {
      if written > 0 { writer.writeRaw(",") }
      written += 1
      writer.writeRaw("[")
      writer.writeInteger(Int64(point.event))
      writer.writeRaw(",")
      writer.writeNumber(point.latitude)
      writer.writeRaw(",")
      writer.writeNumber(point.longitude)
      writer.writeRaw(",")
      if let heading = point.heading { writer.writeNumber(heading) } else { writer.writeNull() }
      if isKeyed {
        writer.writeRaw(",")
        writer.writeInteger(Int64(point.key))
      }
      writer.writeRaw("]")
    }
    writer.writeRaw("]")
  }

  /// `"timeline":{"columns":n,"counts":[[…per domain…],…]}`: how many events of each domain
  /// fall in each column of the x range.
  private func writeTimeline(
    to writer: inout JSONWriter, domains: [String], positions: [Double], columns: Int
  ) {
    let domainOfType = types.map { type -> Int in
      let domain = type.split(separator: ".", maxSplits: 1).first.map(String.init) ?? type
      return domains.firstIndex(of: domain) ?? domains.count
    }
    var counts = Array(repeating: Array(repeating: 0, count: columns), count: domains.count + 1)
    let first = positions.first ?? 0
    let width = max((positions.last ?? 0) - first, 1e-9)
    for (index, type) in eventTypes.enumerated() {
      let column = min(columns - 1, Int(Double(columns) * (positions[index + 1] - first) / width))
      counts[domainOfType[Int(type)]][max(0, column)] += 1
    }
    writer.writeRaw(#","timeline":{"columns":"#)
    writer.writeInteger(Int64(columns))
    writer.writeRaw(#","counts":["#)
    for (index, row) in counts.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      // Runs of empty columns as negative numbers, to keep sparse rows small.
      writer.writeRaw("[")
      var written = 0
      var empty = 0
      for count in row {
        if count == 0 {
          empty += 1
          continue
        }
        if empty > 0 {
          if written > 0 { writer.writeRaw(",") }
          writer.writeInteger(Int64(-empty))
          written += 1
          empty = 0
        }
        if written > 0 { writer.writeRaw(",") }
        writer.writeInteger(Int64(count))
        written += 1
      }
      writer.writeRaw("]")
    }
    writer.writeRaw("]}")
  }
}
