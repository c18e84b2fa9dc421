extension RaspAggregator {
  /// Calls `onChange` with a field of the state, first as it is now and then each time it changes.
  ///
  /// The field may be of any `Equatable` type — not only `Comparable` ones, as RaspSwift
  /// required. It is read from every snapshot and reported only when it differs from the last
  /// value reported (distinct until changed), so a subscriber to `\.links.count` hears 1, 2, 3,
  /// never 1, 1, 2. The ordering guarantees of ``subscribe(_:)`` hold.
  ///
  /// ```swift
  /// let subscription = aggregator.select(\.links.count) { count in print(count) }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field to follow; nested paths such as `\.location.latitude` work.
  ///   - onChange: Receives the field's value, once now and then on each change.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable,
    _ onChange: @escaping @Sendable (Value) -> Void
  ) -> RaspSubscription {
    select(RaspSelector(keyPath), onChange)
  }

  /// Calls `onChange` with a value computed from the state, now and each time it changes.
  ///
  /// ```swift
  /// let subscription = aggregator.select({ $0.links.isEmpty }) { isEmpty in print(isEmpty) }
  /// ```
  ///
  /// - Parameters:
  ///   - read: Computes the value from a snapshot; called once per snapshot.
  ///   - onChange: Receives the value, once now and then on each change.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ read: @escaping @Sendable (State) -> Value,
    _ onChange: @escaping @Sendable (Value) -> Void
  ) -> RaspSubscription {
    select(RaspSelector(read), onChange)
  }

  /// Calls `onChange` with the values a selector reports, now and each time they change.
  ///
  /// The aggregator uses its own copy of `selector`, starting from the selector's current
  /// ``RaspSelector/last`` value.
  ///
  /// ```swift
  /// let heading = RaspSelector(\GeoState.heading)
  /// let subscription = aggregator.select(heading) { degrees in print(degrees) }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: Reads the value and remembers the last one reported.
  ///   - onChange: Receives each value the selector reports.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ selector: RaspSelector<State, Value>,
    _ onChange: @escaping @Sendable (Value) -> Void
  ) -> RaspSubscription {
    let selection = RaspSelection(selector)
    return subscribe { state in
      if let value = selection.select(from: state) { onChange(value) }
    }
  }

  /// A field of the state as an asynchronous sequence: its value now, then each change.
  ///
  /// ```swift
  /// for await count in aggregator.select(\.links.count) {
  ///   print(count)
  /// }
  /// ```
  ///
  /// - Parameter keyPath: The field to follow.
  /// - Returns: A stream that ends when the consumer stops and finishes with the aggregator.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable
  ) -> AsyncStream<Value> {
    select(RaspSelector(keyPath))
  }

  /// A value computed from the state as an asynchronous sequence: now, then each change.
  ///
  /// ```swift
  /// for await isEmpty in aggregator.select({ $0.links.isEmpty }) {
  ///   print(isEmpty)
  /// }
  /// ```
  ///
  /// - Parameter read: Computes the value from a snapshot.
  /// - Returns: A stream that ends when the consumer stops and finishes with the aggregator.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ read: @escaping @Sendable (State) -> Value
  ) -> AsyncStream<Value> {
    select(RaspSelector(read))
  }

  /// The values a selector reports, as an asynchronous sequence.
  ///
  /// ```swift
  /// for await heading in aggregator.select(RaspSelector(\GeoState.heading)) {
  ///   print(heading)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: Reads the value and remembers the last one reported.
  ///   - buffering: Which values to keep for a consumer that falls behind; the newest 128 by
  ///     default (``RaspBuffering/default``).
  /// - Returns: A stream that ends when the consumer stops and finishes with the aggregator.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ selector: RaspSelector<State, Value>, buffering: RaspBuffering = .default
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: buffering.policy(for: Value.self))
    let selection = RaspSelection(selector)
    let subscription = subscribe(
      onState: { state in
        if let value = selection.select(from: state) { continuation.yield(value) }
      },
      onFinish: { continuation.finish() })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}

/// A selector shared by the deliveries of one subscription.
///
/// Only deliveries touch it, and an aggregator never runs two deliveries at once: the thread
/// that takes over the drain loop does so under the aggregator's lock, after the previous
/// drainer released it, so each delivery happens after the one before. That ordering, not a lock
/// of its own, is what makes the unsynchronized `selector` safe — the same reasoning as for the
/// state of an actor.
@usableFromInline
final class RaspSelection<State, Value: Equatable & Sendable>: @unchecked Sendable {
  /// Deliveries never overlap (see above), so accesses cannot conflict: no dynamic check.
  @exclusivity(unchecked) @usableFromInline var selector: RaspSelector<State, Value>

  @inlinable
  init(_ selector: RaspSelector<State, Value>) {
    self.selector = selector
  }

  @inlinable
  func select(from state: State) -> Value? {
    selector.select(from: state)
  }
}
