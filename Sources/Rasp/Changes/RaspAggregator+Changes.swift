extension RaspAggregator {
  /// Calls `onChange` with the current snapshot, then with every new one together with the event
  /// that set it, until cancelled.
  ///
  /// The same deliveries as ``subscribe(_:)`` — in the same order, on the delivering thread,
  /// never under the aggregator's lock — each paired with its event (RxDataFlow's `setBy`). The
  /// first is the snapshot at subscription, with no event. Under an emission policy that skips
  /// snapshots, a change carries the event of the snapshot delivered: the events in between set
  /// nothing anyone saw. Use ``tapAppliedEvents(_:)`` to see every applied event instead.
  ///
  /// **Keep the subscription**, as with ``subscribe(_:)``: it lives as long as the returned
  /// ``RaspSubscription``.
  ///
  /// ```swift
  /// let subscription = aggregator.subscribeChanges { change in
  ///   print(change.event.map { "\($0)" } ?? "start", change.state.count)
  /// }                              // prints "start 0"
  /// aggregator.send(.increment)    // prints "increment 1"
  /// ```
  ///
  /// - Parameter onChange: Receives each snapshot with the event that set it.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  public func subscribeChanges(
    _ onChange: @escaping @Sendable (RaspChange<State>) -> Void
  ) -> RaspSubscription {
    subscribeChanges(onChange: onChange, onFinish: nil)
  }

  /// The current snapshot and every later one, each with the event that set it, as an
  /// asynchronous sequence that keeps the newest 128 for a consumer that falls behind.
  ///
  /// ```swift
  /// for await change in aggregator.changes {
  ///   print(change.event as Any, change.state)
  /// }
  /// ```
  public var changes: AsyncStream<RaspChange<State>> {
    changes(buffering: .default)
  }

  /// The current snapshot and every later one, each with the event that set it, as an
  /// asynchronous sequence with the given buffering.
  ///
  /// ```swift
  /// for await change in aggregator.changes(buffering: .unbounded) { audit(change) }
  /// ```
  ///
  /// - Parameter buffering: Which changes to keep for a consumer that falls behind.
  /// - Returns: A stream that ends when the consumer stops and finishes with the aggregator.
  public func changes(buffering: RaspBuffering) -> AsyncStream<RaspChange<State>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: RaspChange<State>.self, bufferingPolicy: buffering.policy(for: RaspChange<State>.self))
    let subscription = subscribeChanges(
      onChange: { continuation.yield($0) }, onFinish: { continuation.finish() })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }

  /// Pairs a state subscriber with a tap that notes each applied event.
  ///
  /// The tap runs under the lock as each event is applied; the subscriber runs when the
  /// snapshot is delivered. Nothing is applied between an event's tap and the delivery of its
  /// snapshot — the drainer delivers before it applies the next piece of work — so the event the
  /// tap noted last is the one that set the snapshot delivered. The subscriber's first delivery
  /// is the snapshot at subscription, which pairs with no event.
  func subscribeChanges(
    onChange: @escaping @Sendable (RaspChange<State>) -> Void, onFinish: (@Sendable () -> Void)?
  ) -> RaspSubscription {
    let lastEvent = RaspLastEvent<State.Event>()
    let tap = tapAppliedEvents { event, _, _ in lastEvent.note(event) }
    let subscription = subscribe(
      onState: { state in onChange(RaspChange(event: lastEvent.take(), state: state)) },
      onFinish: onFinish)
    return RaspSubscription {
      subscription.cancel()
      tap.cancel()
    }
  }
}

/// The last event a change subscription's tap noted, until its snapshot is delivered.
final class RaspLastEvent<Event: Sendable>: Sendable {
  /// The event, and whether the first snapshot (the one at subscription) has been delivered.
  private let slot = RaspMutex<(event: Event?, hasDeliveredFirst: Bool)>((nil, false))

  /// Notes an applied event, replacing one whose snapshot was not delivered.
  func note(_ event: Event) {
    slot.withLock { $0.event = event }
  }

  /// The event that set the snapshot being delivered: `nil` for the first one.
  func take() -> Event? {
    slot.withLock { slot in
      defer { slot = (nil, true) }
      return slot.hasDeliveredFirst ? slot.event : nil
    }
  }
}
