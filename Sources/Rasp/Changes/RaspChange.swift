/// A snapshot together with the event that set it: RxDataFlow's `setBy`.
///
/// What ``RaspAggregator/subscribeChanges(_:)`` and ``RaspAggregator/changes`` deliver. The
/// event is the one whose application produced ``state``: for a composite, its last event; for
/// a composite that rolled back, its fallback. The first change a subscriber receives is the
/// snapshot current when it subscribed, which no event of its own set: its ``event`` is `nil`.
///
/// ```swift
/// let subscription = aggregator.subscribeChanges { change in
///   if let event = change.event { print("\(event) set count to \(change.state.count)") }
/// }
/// aggregator.send(.increment)   // prints "increment set count to 1"
/// ```
public struct RaspChange<State: RaspState & Sendable>: Sendable where State.Event: Sendable {
  /// The event that produced ``state``, or `nil` for the snapshot at subscription.
  public let event: State.Event?

  /// The snapshot after the event.
  public let state: State

  /// Creates a change.
  ///
  /// ```swift
  /// let change = RaspChange(event: .increment, state: CounterState(count: 1))
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event that produced the snapshot, or `nil`.
  ///   - state: The snapshot.
  public init(event: State.Event?, state: State) {
    self.event = event
    self.state = state
  }
}
