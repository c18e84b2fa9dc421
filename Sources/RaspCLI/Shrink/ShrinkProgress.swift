import Synchronization

/// What `rasp shrink` has done so far, for its progress line on a terminal: the smallest
/// failing log's keys and events, and the replays made.
///
/// The search updates it after each try, on its own thread; the display reads it from its
/// timer's.
///
/// ```swift
/// let progress = ShrinkProgress(events: 100_000, keys: 1_000)
/// progress.noteFailing(events: 50_000, keys: 500)
/// progress.noteReplay()
/// progress.line(elapsed: .seconds(3))
/// // "rasp: shrinking: keys 1000→500 · events 100000→50000 · 1 replay · 3 s"
/// ```
final class ShrinkProgress: Sendable {
  /// The log's events, and its keys (-1 until known, or when not keyed).
  private let events: Int
  private let keys: Atomic<Int>
  /// The smallest failing log's events and keys so far.
  private let keptEvents: Atomic<Int>
  private let keptKeys: Atomic<Int>
  /// The replays made.
  private let replays = Atomic<Int>(1)

  /// The progress of a search over a log of `events` events and, when keyed, `keys` keys.
  init(events: Int, keys: Int?) {
    self.events = events
    self.keys = Atomic(keys ?? -1)
    keptEvents = Atomic(events)
    keptKeys = Atomic(keys ?? -1)
  }

  /// Notes a keyed log's number of keys, once known.
  func noteKeys(_ count: Int) {
    keys.store(count, ordering: .relaxed)
    keptKeys.store(count, ordering: .relaxed)
  }

  /// Notes a candidate that still fails.
  func noteFailing(events count: Int, keys: Int? = nil) {
    keptEvents.store(count, ordering: .relaxed)
    if let keys { keptKeys.store(keys, ordering: .relaxed) }
  }

  /// Notes one more replay.
  func noteReplay() { replays.add(1, ordering: .relaxed) }

  /// The text of the progress line after `elapsed`.
  func line(elapsed: Duration) -> String {
    var parts: [String] = []
    let keys = keys.load(ordering: .relaxed)
    if keys >= 0 { parts.append("keys \(keys)→\(keptKeys.load(ordering: .relaxed))") }
    parts.append("events \(events)→\(keptEvents.load(ordering: .relaxed))")
    let count = replays.load(ordering: .relaxed)
    parts.append(count == 1 ? "1 replay" : "\(count) replays")
    parts.append(ProgressDisplay.duration(Double(elapsed.components.seconds)))
    return "rasp: shrinking: " + parts.joined(separator: " · ")
  }
}
