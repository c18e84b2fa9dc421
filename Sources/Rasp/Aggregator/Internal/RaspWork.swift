/// One piece of work waiting in an aggregator's queue.
///
/// Everything that reaches subscribers goes through the queue, so one drainer performs it all in
/// arrival order: events, composites, source failures, and the first snapshot of a new
/// subscriber (which must come after the deliveries already under way and before the next).
@usableFromInline
enum RaspWork<State: RaspState & Sendable> where State.Event: Sendable {
  /// An event from ``RaspAggregator/send(_:)`` (`source` is `nil`) or from a source (its
  /// name, if it has one, for taps).
  case event(State.Event, source: String? = nil)
  /// A composite event and its fallback.
  case composite([State.Event], fallback: State.Event?)
  /// A callback to run once everything queued before it has been delivered: how an awaited
  /// send learns that its snapshot reached every subscriber. It runs under the lock, so it
  /// must do no more than resume a continuation.
  case barrier(@Sendable () -> Void)
  /// A failure that carries no event: a source that threw, an action that threw, a recorder
  /// that could not write.
  case failure(any Error, origin: RaspFailure<State>.Origin)
  /// A new state subscriber, waiting for its first snapshot.
  case subscribe(RaspObserver<State>)
  /// A new failure subscriber.
  case subscribeFailures(RaspObserver<RaspFailure<State>>)
}

extension RaspWork: Sendable {}
