import RaspJSON
import RaspReplay

/// Keeps the states around each event `rasp find` prints: `--context N`, grep's `-C` for a
/// log.
///
/// It stands between the replay and the ``AssertionObserver`` that finds the events: every
/// event goes on to that observer, and the observer keeps, for each key (one stream without
/// `--key-by`), its last `N` events with the state after each. When the inner observer finds
/// an event, those `N` become its ``before`` context, and the next `N` events of the same key
/// its ``after`` context; a replay ended by `--first` goes on until they are seen (or the
/// log ends). Every event's state is written out while it is kept, so `--context` costs a
/// full snapshot per event, as `rasp replay --with-event` does.
///
/// ```swift
/// let context = ContextObserver(finding: observer, count: 2)
/// configuration.stateObserver = context
/// // … replay …
/// context.before[0]   // the two events before the first found, with their states
/// ```
final class ContextObserver: ReplayStateObserver {
  /// One event of a context: where it was, the event as read and the state after it.
  struct Entry {
    let seq: Int
    let input: Int
    let line: Int
    let event: [UInt8]
    let state: [UInt8]
  }

  /// The observer that finds the events.
  let finder: AssertionObserver
  private let count: Int
  /// Each key's last ``count`` events, by key number + 1.
  private var recent: [[Entry]] = []
  /// The found events whose after context is not full yet: their position in the finder's
  /// violations and their key's number.
  private var open: [(violation: Int, keyNumber: Int)] = []
  /// The events before each found event, by its position in the finder's violations.
  private(set) var before: [[Entry]] = []
  /// The events after each found event, by its position in the finder's violations.
  private(set) var after: [[Entry]] = []

  /// Whether the finder has seen enough and every after context is full.
  var isFinished: Bool { finder.isFinished && open.isEmpty }

  /// An observer that keeps `count` events on each side of what `finder` finds.
  ///
  /// - Parameters:
  ///   - finder: The observer that finds the events; it sees every event first.
  ///   - count: How many events to keep on each side, at least 1.
  init(finding finder: AssertionObserver, count: Int) {
    self.finder = finder
    self.count = count
  }

  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
    var asRead: [UInt8]?
    func read() -> [UInt8] {
      if let asRead { return asRead }
      let bytes = eventAsRead()
      asRead = bytes
      return bytes
    }
    let found = finder.violations.count
    finder.observe(event, eventAsRead: read)
    let entry = Entry(
      seq: event.seq, input: event.input, line: event.line, event: read(),
      state: event.state.json())
    open.removeAll { pending in
      guard pending.keyNumber == event.keyNumber else { return false }
      after[pending.violation].append(entry)
      return after[pending.violation].count >= count
    }
    let slot = event.keyNumber + 1
    if slot >= recent.count {
      recent.append(contentsOf: repeatElement([], count: slot + 1 - recent.count))
    }
    for violation in found..<finder.violations.count {
      before.append(recent[slot])
      after.append([])
      open.append((violation, event.keyNumber))
    }
    recent[slot].append(entry)
    if recent[slot].count > count { recent[slot].removeFirst() }
  }

  /// The context entries as `rasp find` prints them: `{"event":…,"file":…,"line":…,"seq":…,
  /// "state":…}` each.
  static func value(of entries: [Entry], inputNames: [String]) -> JSONValue {
    .array(
      entries.map { entry in
        var object = JSONObject()
        object["seq"] = .number(JSONNumber(entry.seq))
        object["file"] = .string(inputNames[entry.input])
        object["line"] = .number(JSONNumber(entry.line))
        object["event"] = parse(entry.event)
        object["state"] = parse(entry.state)
        return .object(object)
      })
  }

  private static func parse(_ bytes: [UInt8]) -> JSONValue {
    bytes.withUnsafeBufferPointer { (try? JSONParser.parse($0)) ?? .null }
  }
}
