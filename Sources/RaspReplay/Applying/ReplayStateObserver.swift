import RaspJSON

/// Sees the state after every event a replay applies, on the replay's own thread, without
/// the state being written out and read back: how `rasp check --assert` evaluates its
/// assertions.
///
/// The kernel calls ``observe(_:eventAsRead:)`` after each event applied (of the domains of
/// ``observedDomains``, when it says), before it writes the event's record (if any). The
/// observer reads what it needs of the state — usually one domain's JSON,
/// ``SnapshotState/encodedState(ofDomainAt:)``, and only when the event changed that domain —
/// and must not keep the state: a snapshot kept alive would be copied on the next event
/// instead of changed in place.
///
/// A replay with an observer runs its kernel on one thread (keyed replays too, whatever
/// ``ReplayConfiguration/jobs``), so that the observer sees the events in the log's order.
///
/// ```swift
/// final class Counter: ReplayStateObserver {
///   var events = 0
///   func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) { events += 1 }
/// }
/// configuration.stateObserver = Counter()
/// ```
package protocol ReplayStateObserver: AnyObject {
  /// Sees one applied event and the state after it.
  ///
  /// - Parameters:
  ///   - event: The event, where it was, and the state after it.
  ///   - eventAsRead: Makes the event as rasp read it, in rasp's own format
  ///     (`{"payload":…,"ts":…,"type":…}`), whatever the log's.
  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8])

  /// Whether the observer has seen enough: the replay then ends after the event it saw last,
  /// as at `--until`, without reading further (`rasp find --first`).
  var isFinished: Bool { get }

  /// Sees a state a resumed replay takes from its checkpoint (`--resume`), before any event:
  /// the whole state without keys, and each key's with them. The state before the next event
  /// of that key is this one, not the initial state.
  ///
  /// - Parameters:
  ///   - state: The state restored.
  ///   - keyNumber: Its key's number in a keyed replay, or -1.
  ///   - key: Its key's canonical JSON in a keyed replay, or `nil`.
  ///   - last: The last event applied to it before the checkpoint: its number, input and
  ///     line; `nil` when there was none.
  func restored(
    _ state: SnapshotState, keyNumber: Int, key: ArraySlice<UInt8>?,
    last: (seq: Int, input: Int, line: Int)?)

  /// The domains whose events the observer is told of, read once when the replay starts;
  /// `nil` for every event. The kernel counts the events it was not told of in
  /// ``ReplayObservedDomains/passedOver``.
  var observedDomains: ReplayObservedDomains? { get }
}

extension ReplayStateObserver {
  /// Most observers see the whole replay.
  package var isFinished: Bool { false }

  /// Most observers are told of every event.
  package var observedDomains: ReplayObservedDomains? { nil }

  /// Most observers need nothing of a checkpoint's states.
  package func restored(
    _ state: SnapshotState, keyNumber: Int, key: ArraySlice<UInt8>?,
    last: (seq: Int, input: Int, line: Int)?
  ) {}
}

/// An event just applied, and the state after it: what a ``ReplayStateObserver`` sees.
package struct ReplayAppliedEvent {
  /// The event's number in the replay, counting from 1.
  package let seq: Int
  /// The position of its input in the replay's inputs.
  package let input: Int
  /// Its line in its input.
  package let line: Int
  /// Its key's number in a keyed replay (each key's state is its own), or -1.
  package let keyNumber: Int
  /// Its key's canonical JSON in a keyed replay, or `nil`.
  package let key: ArraySlice<UInt8>?
  /// The position, in ``SnapshotState/domainNames``, of the domain it changed.
  package let domainIndex: Int
  /// The state after it: its key's, in a keyed replay.
  package let state: SnapshotState
  /// Whether it comes before `--since`: applied, for the state from there on, but not in the
  /// range the output shows.
  package var isBeforeSince = false
  /// The other domains it changed, in order, when domains listen to its type
  /// (``RaspDomains/RaspEventSchema/listensTo``): `user.loggedOut` may empty the cart too.
  package var otherDomains: [Int] = []

  /// Every domain it changed: ``domainIndex``, then ``otherDomains``.
  package var changedDomains: [Int] { [domainIndex] + otherDomains }

  /// Whether it changed the domain at `index`.
  @inline(__always)
  package func changed(_ index: Int) -> Bool {
    index == domainIndex || (!otherDomains.isEmpty && otherDomains.contains(index))
  }
}
