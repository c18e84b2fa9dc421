/// One tap of an aggregator: a callback that sees every applied event, under the lock.
///
/// Unlike a subscriber, a tap is called by the thread that applies the event, before the lock
/// is released, so it sees events in exactly the order they were applied — across aggregators
/// too — and sees the events that changed nothing as well as the others.
@usableFromInline
final class RaspTap<State: RaspState>: Sendable where State.Event: Sendable {
  /// Identifies the tap in the aggregator's list.
  @usableFromInline let id: Int

  /// The callback: the event, the state after it, and its source's name when it has one.
  @usableFromInline let body: @Sendable (State.Event, State, String?) -> Void

  @usableFromInline
  init(id: Int, body: @escaping @Sendable (State.Event, State, String?) -> Void) {
    self.id = id
    self.body = body
  }
}
