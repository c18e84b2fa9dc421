/// An error the aggregator caught and reported instead of stopping: what failed, where, and
/// the state it left as it was.
///
/// The aggregator never stops on an error. When a reducer throws, the state stays exactly as it
/// was and a failure carrying the error, the rejected event and that unchanged state goes to the
/// failure channel (``RaspAggregator/subscribeFailures(_:)`` and ``RaspAggregator/failures``);
/// the next event is applied as usual. When an event source throws, the failure names the source
/// and carries no event, and the other sources keep running.
///
/// The ``state`` is what RxDataFlow's error stream carried beside the action and the error: the
/// snapshot the failure left in force, so a handler can tell what the rejected event was
/// applied to without racing other events for ``RaspAggregator/current``.
///
/// ```swift
/// let subscription = aggregator.subscribeFailures { failure in
///   if case .source(let index) = failure.origin {
///     print("source \(index) stopped: \(failure.error)")
///   } else if let event = failure.event {
///     print("rejected \(event) at count \(failure.state.count): \(failure.error)")
///   }
/// }
/// ```
public struct RaspFailure<State: RaspState & Sendable>: Error, CustomStringConvertible
where State.Event: Sendable {
  /// The type of the events the failing state accepts.
  public typealias Event = State.Event

  /// Where a failure came from.
  ///
  /// ```swift
  /// if failure.origin == .source(index: 1) { print("the second source stopped") }
  /// ```
  public enum Origin: Hashable, Sendable {
    /// A reducer rejected an event sent on its own, by ``RaspAggregator/send(_:)`` or a source.
    case event
    /// A reducer rejected one of the events of a composite; the whole composite rolled back and
    /// the error is a ``RaspCompositeError`` naming the event's position.
    case composite
    /// A reducer rejected the fallback event applied after a failed composite.
    case fallback
    /// The event source at `index` threw and stopped. The index is the source's position in the
    /// list given to the initializer or to the latest ``RaspAggregator/replaceSources(_:)``.
    case source(index: Int)
    /// A recorder attached to the aggregator could not write its log (a full disk, a removed
    /// directory) and stopped recording; the app goes on. The failure carries no event.
    case recorder
    /// An action started with ``RaspAggregator/run(_:)`` threw before it yielded its event.
    /// The failure carries no event.
    case action
  }

  /// The error that was thrown.
  public var error: any Error

  /// The event whose reducer threw, or `nil` for a failed source.
  public var event: Event?

  /// Where the failure came from.
  public var origin: Origin

  /// The state the failure left in force: the snapshot the rejected event was applied to, and
  /// which it left unchanged.
  ///
  /// For a composite that rolled back, the state before its first event; for a rejected
  /// fallback, the same state, since the fallback changed nothing either. For a source's or a
  /// recorder's failure, the snapshot current when it was reported.
  ///
  /// ```swift
  /// aggregator.send(.decrement)   // at count 0: rejected
  /// failure.state.count           // 0, what the event was applied to
  /// ```
  public var state: State

  /// Creates a failure.
  ///
  /// ```swift
  /// let failure = RaspFailure(
  ///   error: Underflow(), event: .decrement, origin: .event, state: CounterState())
  /// ```
  ///
  /// - Parameters:
  ///   - error: The error that was thrown.
  ///   - event: The rejected event, if an event was rejected.
  ///   - origin: Where the failure came from.
  ///   - state: The state the failure left in force.
  public init(error: any Error, event: Event?, origin: Origin, state: State) {
    self.error = error
    self.event = event
    self.origin = origin
    self.state = state
  }

  /// The origin, the event when there is one, and the error, on one line.
  ///
  /// ```swift
  /// print(failure)   // event decrement rejected: Underflow()
  /// ```
  public var description: String {
    switch origin {
    case .event: "event \(describe(event)) rejected: \(error)"
    case .composite: "composite rolled back at event \(describe(event)): \(error)"
    case .fallback: "fallback event \(describe(event)) rejected: \(error)"
    case .source(let index): "source \(index) failed: \(error)"
    case .action: "action failed: \(error)"
    case .recorder: "recorder failed: \(error)"
    }
  }

  private func describe(_ event: Event?) -> String {
    event.map { String(describing: $0) } ?? "nil"
  }
}
