import RaspDomains
import RaspJSON
import RaspReplay

/// Follows one value of the state through a replay and keeps each event that changed it: the
/// engine of `rasp blame`.
///
/// After an event of the path's domain, the observer writes that domain's state, locates the
/// path in it (``JSONPath/locate(in:droppingFirst:)``, no value built) and compares the bytes
/// with the value before the event, for the event's key (one stream without `--key-by`). The
/// state is written canonically, keys sorted, so equal bytes are an equal value. Events of
/// other domains cost one comparison.
///
/// ```swift
/// let observer = BlameObserver(
///   path: try JSONPath("geo.heading"), domains: domains, inputNames: ["events.jsonl"])
/// configuration.stateObserver = observer
/// // … replay …
/// observer.changes.count   // the events that changed geo.heading
/// ```
final class BlameObserver: ReplayStateObserver {
  /// One event that changed the value.
  struct Change {
    let seq: Int
    let file: String
    let line: Int
    /// The key's canonical JSON, or `nil` without `--key-by`.
    let key: [UInt8]?
    let event: [UInt8]
    let before: [UInt8]
    let after: [UInt8]

    /// The change as one JSON line, its keys sorted.
    var jsonLine: [UInt8] {
      var bytes = Array(#"{"after":"#.utf8) + after
      bytes += Array(#","before":"#.utf8) + before
      bytes += Array(#","event":"#.utf8) + event
      var writer = JSONWriter()
      writer.write(.string(file))
      bytes += Array(#","file":"#.utf8) + writer.bytes
      bytes += Array(#","key":"#.utf8) + (key ?? Array("null".utf8))
      bytes += Array(#","line":\#(line),"seq":\#(seq)}"#.utf8) + [0x0A]
      return bytes
    }
  }

  private let path: JSONPath
  private let domainIndex: Int
  private let inputNames: [String]
  /// The value at the path in the initial state.
  private let initialValue: [UInt8]
  /// The value after the last event, for each key (key `n` at `n + 1`).
  private var values: [[UInt8]?] = []
  @exclusivity(unchecked) private var writer = JSONWriter()
  /// Whether to keep every change, or only each key's last (`--at`).
  private let keepsEveryChange: Bool
  /// The changes, in the replay's order (with `--at`, only each key's last).
  private(set) var changes: [Change] = []
  /// With `--at`, each key's last change, by key number + 1.
  private var lastChanges: [Change?] = []
  /// The key number (+ 1) of the last event applied, for `--at`.
  private(set) var lastKeyNumber: Int?
  /// How many events were applied (from `--since` on).
  private(set) var events = 0

  /// An observer of the value at `path` (whose first key names one of `domains`).
  ///
  /// - Parameters:
  ///   - path: A locatable path that starts with a domain's name.
  ///   - domains: The replay's domains.
  ///   - inputNames: The inputs' names, as the records show them.
  ///   - keepsEveryChange: `false` to keep only each key's last change (`--at`).
  init(
    path: JSONPath, domains: [any RaspDomain], inputNames: [String], keepsEveryChange: Bool
  ) {
    self.path = path
    let initial = SnapshotState(domains: domains)
    domainIndex = initial.domainNames.firstIndex(of: path.firstKey ?? "") ?? 0
    self.inputNames = inputNames
    self.keepsEveryChange = keepsEveryChange
    var writer = JSONWriter()
    initial.encodeState(ofDomainAt: domainIndex, into: &writer)
    initialValue = Self.value(at: path, in: writer.bytes)
  }

  /// The bytes of the value at `path` (from its second component on) in a domain's JSON:
  /// `null` where it is missing.
  private static func value(at path: JSONPath, in bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer { buffer in
      switch try? path.locate(in: buffer, droppingFirst: 1) {
      case .value(let range)?: return Array(buffer[range])
      case .length(let count)?: return Array("\(count)".utf8)
      case .missing?, nil: return Array("null".utf8)
      }
    }
  }

  /// `bytes` written as every record is: compact, keys sorted (a spec domain's event keeps
  /// its payload's members in the log's order).
  private static func canonical(_ bytes: [UInt8]) -> [UInt8] {
    guard let value = bytes.withUnsafeBufferPointer({ try? JSONParser.parse($0) }) else {
      return bytes
    }
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
    // Before --since, the value is followed but its changes are not the range's.
    if !event.isBeforeSince { events += 1 }
    let slot = event.keyNumber + 1
    lastKeyNumber = slot
    guard event.changed(domainIndex) else { return }
    if slot >= values.count {
      values += Array(repeating: nil, count: slot - values.count + 1)
      if !keepsEveryChange {
        lastChanges += Array(repeating: nil, count: slot - lastChanges.count + 1)
      }
    }
    writer.removeAll()
    event.state.encodeState(ofDomainAt: domainIndex, into: &writer)
    let after = Self.value(at: path, in: writer.bytes)
    let before = values[slot] ?? initialValue
    values[slot] = after
    guard after != before, !event.isBeforeSince || !keepsEveryChange else { return }
    let file = inputNames.indices.contains(event.input) ? inputNames[event.input] : ""
    let change = Change(
      seq: event.seq, file: file, line: event.line, key: event.key.map(Array.init),
      event: Self.canonical(eventAsRead()), before: before, after: after)
    if keepsEveryChange {
      changes.append(change)
    } else {
      lastChanges[slot] = change
    }
  }

  /// With `--at`: the change that set the value the last event's key holds, if any did.
  var changeInForce: Change? {
    guard let slot = lastKeyNumber, slot < lastChanges.count else { return nil }
    return lastChanges[slot]
  }
}
