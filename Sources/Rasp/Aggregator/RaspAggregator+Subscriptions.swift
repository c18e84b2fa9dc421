extension RaspAggregator {
  /// Calls `onState` with the current snapshot, then with every new one, until cancelled.
  ///
  /// When the aggregator is idle, the current snapshot is delivered before `subscribe` returns,
  /// on the caller's thread. When a delivery is under way (for instance when subscribing from
  /// inside another subscriber), the subscription is queued like an event: the new subscriber
  /// receives the snapshot current at its turn, then every later one. Either way it never misses
  /// a snapshot nor receives one twice, and it sees them in the same order as everyone else.
  /// Callbacks run on whichever thread is delivering and never under the aggregator's lock, so
  /// they may call ``send(_:)``, subscribe, or cancel.
  ///
  /// **Keep the subscription.** It lives as long as the returned ``RaspSubscription``: the
  /// callback stops when it is cancelled or released. `_ = aggregator.subscribe { … }` releases
  /// it at once, so the callback hears the current snapshot and nothing more; store it in a
  /// property, or in a set with ``RaspSubscription/store(in:)``. (The result is not
  /// discardable, so the compiler warns when it is left unused.)
  ///
  /// ```swift
  /// let subscription = aggregator.subscribe { state in print(state.count) }   // prints 0
  /// aggregator.send(.increment)                                                // prints 1
  /// subscription.cancel()
  /// ```
  ///
  /// - Parameter onState: Receives each snapshot.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  @inlinable
  public func subscribe(_ onState: @escaping @Sendable (State) -> Void) -> RaspSubscription {
    subscribe(onState: onState, onFinish: nil)
  }

  /// The current snapshot and every later one, as an asynchronous sequence, keeping the newest
  /// 128 for a consumer that falls behind (``RaspBuffering/default``).
  ///
  /// Each access makes a new stream with its own subscription, which ends when the consumer
  /// stops iterating (or drops the stream) and finishes when the aggregator is released. A
  /// consumer that keeps up sees every snapshot in order; use ``states(buffering:)`` to keep
  /// more, or fewer.
  ///
  /// ```swift
  /// for await state in aggregator.states {
  ///   print(state.count)
  ///   if state.count == 3 { break }
  /// }
  /// ```
  public var states: AsyncStream<State> {
    states(buffering: .default)
  }

  /// The current snapshot and every later one, as an asynchronous sequence with the given
  /// buffering.
  ///
  /// ```swift
  /// for await state in aggregator.states(buffering: .newest(1)) {
  ///   render(state)   // a slow renderer skips to the latest snapshot
  /// }
  /// ```
  ///
  /// - Parameter buffering: Which snapshots to keep for a consumer that falls behind.
  /// - Returns: A stream that ends when the consumer stops and finishes with the aggregator.
  public func states(buffering: RaspBuffering) -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: buffering.policy(for: State.self))
    let subscription = subscribe(
      onState: { continuation.yield($0) }, onFinish: { continuation.finish() })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }

  /// Calls `onFailure` with every error the aggregator catches from now on, until cancelled.
  ///
  /// Failures are reported, not replayed: a new subscriber hears only failures that happen after
  /// it subscribed. A reducer's failure carries the rejected event; a source's failure carries
  /// the source's index. Failure callbacks run before the snapshot (if any) of the same piece of
  /// work — for a failed composite, before the snapshot of its fallback.
  ///
  /// ```swift
  /// let failures = aggregator.subscribeFailures { failure in print(failure) }
  /// aggregator.send(.decrement)   // prints "event decrement rejected: Underflow()"
  /// ```
  ///
  /// - Parameter onFailure: Receives each failure.
  /// - Returns: The subscription; the callback stops when it is cancelled or released.
  public func subscribeFailures(
    _ onFailure: @escaping @Sendable (RaspFailure<State>) -> Void
  ) -> RaspSubscription {
    subscribeFailures(onFailure: onFailure, onFinish: nil)
  }

  /// Every failure from now on, as an asynchronous sequence.
  ///
  /// Each access makes a new stream with its own subscription, which ends when the consumer
  /// stops iterating and finishes when the aggregator is released.
  ///
  /// ```swift
  /// for await failure in aggregator.failures {
  ///   print(failure.error)
  /// }
  /// ```
  public var failures: AsyncStream<RaspFailure<State>> {
    let (stream, continuation) = AsyncStream.makeStream(of: RaspFailure<State>.self)
    let subscription = subscribeFailures(
      onFailure: { continuation.yield($0) }, onFinish: { continuation.finish() })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }

  /// Registers a state subscriber, through the queue so that its first snapshot comes in turn.
  @inlinable
  func subscribe(
    onState: @escaping @Sendable (State) -> Void, onFinish: (@Sendable () -> Void)?
  ) -> RaspSubscription {
    let id = core.withLock { $0.makeObserverID() }
    let observer = RaspObserver(id: id, onValue: onState, onFinish: onFinish)
    let subscription = RaspSubscription { [weak self] in
      guard observer.deactivate() else { return }
      self?.core.withLock { $0.removeObserver(id: id) }
    }
    submit(.subscribe(observer))
    return subscription
  }

  /// Registers a failure subscriber, through the queue like a state subscriber.
  @usableFromInline
  func subscribeFailures(
    onFailure: @escaping @Sendable (RaspFailure<State>) -> Void,
    onFinish: (@Sendable () -> Void)?
  ) -> RaspSubscription {
    let id = core.withLock { $0.makeObserverID() }
    let observer = RaspObserver(id: id, onValue: onFailure, onFinish: onFinish)
    let subscription = RaspSubscription { [weak self] in
      guard observer.deactivate() else { return }
      self?.core.withLock { $0.removeFailureObserver(id: id) }
    }
    submit(.subscribeFailures(observer))
    return subscription
  }
}
