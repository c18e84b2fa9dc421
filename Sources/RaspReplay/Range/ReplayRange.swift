import RaspDomains

/// Where a replay's records start and where its reading stops (`--since`, `--until`, `--at`):
/// the range stage, which the kernel asks before and after each item.
///
/// Before an item, ``enter(_:applied:)`` tells whether the item is past `--until` — the replay
/// ends before it, which is then left unread and uncounted — and whether it is before
/// `--since`, whose events are applied but write no record. After it,
/// ``endsAfter(_:applied:)`` tells whether the replay ends there, at once: a followed file
/// may not have the next line yet.
///
/// - `.time(t)`: the replay stops before an item whose time is after `t`; `--since` is reached
///   at the first item whose time is at or after `t`.
/// - `.line(i, n)`: it stops before a line of input `i` after line `n`, and ends after line `n`
///   (the events of a batch line all have its number: the next line ends it); `--since` is
///   reached at line `n` of input `i` or a later one.
/// - `.event(n)`: it ends once `n` events are applied; `--since` is reached at the item that
///   would be event `n` or a later one.
///
/// ```swift
/// if var range = ReplayRange(since: .event(2), until: .line(input: 0, line: 3)) {
///   range.enter(.init(time: nil, input: 0, line: 1), applied: 0)   // before --since
/// }
/// ```
struct ReplayRange {
  /// What the range stage knows of an item.
  struct Place {
    /// The time the merge orders the item by (``ReplayItem/time``).
    var time: RaspTimestamp?
    /// The item's input and line.
    var input: Int
    var line: Int
    /// Whether the item is an event of a batch line: the line's events all have its number,
    /// so the entry of the next line ends the replay at `--until`, not this event.
    var isMember = false
  }

  /// What becomes of an item.
  enum Entry: Equatable {
    /// It is past `--until`: the replay ends before it.
    case stop
    /// It is handled; before `--since`, its event writes no record.
    case handle(isBeforeSince: Bool)
  }

  /// Where records start (`--since`).
  let since: ReplayPosition?
  /// Where reading stops (`--until`, `--at`).
  let until: ReplayPosition?
  /// Whether `--since` was reached: every item from then on is in the range.
  private(set) var isSinceReached = false

  /// A range from two positions, either or both `nil`; `nil` when both are.
  init?(since: ReplayPosition?, until: ReplayPosition?) {
    guard since != nil || until != nil else { return nil }
    self.since = since
    self.until = until
  }

  /// What becomes of the item at `place`, when `applied` events were applied before it.
  ///
  /// - Parameters:
  ///   - place: The item's time, input and line.
  ///   - applied: How many events the replay applied before the item.
  /// - Returns: Whether the replay stops before it, or handles it, before `--since` or not.
  mutating func enter(_ place: Place, applied: Int) -> Entry {
    switch until {
    case .time(let time)?:
      if let itemTime = place.time, itemTime > time { return .stop }
    case .line(let input, let line)?:
      if place.input == input, place.line > line { return .stop }
    case .event(let number)?:
      if applied >= number { return .stop }
    case nil:
      break
    }
    if !isSinceReached {
      switch since {
      case .time(let time)?:
        if let itemTime = place.time, itemTime >= time { isSinceReached = true }
      case .line(let input, let line)?:
        if place.input == input, place.line >= line { isSinceReached = true }
      case .event(let number)?:
        if applied + 1 >= number { isSinceReached = true }
      case nil:
        isSinceReached = true
      }
    }
    return .handle(isBeforeSince: !isSinceReached)
  }

  /// Whether the replay ends right after the item at `place`, when `applied` events were
  /// applied up to and including it: at the event or the line of `--until`.
  ///
  /// - Parameters:
  ///   - place: The item's input and line, and whether more events of its line follow.
  ///   - applied: How many events the replay applied up to and including the item.
  /// - Returns: `true` when nothing more is to be read.
  func endsAfter(_ place: Place, applied: Int) -> Bool {
    switch until {
    case .event(let number)?:
      return applied >= number
    case .line(let input, let line)?:
      // A batch line's events all have its number: the next line stops it.
      return place.input == input && place.line >= line && !place.isMember
    default:
      return false
    }
  }
}
