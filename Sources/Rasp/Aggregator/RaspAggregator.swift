/// A state that merges events from any number of sources and tells its subscribers every change.
///
/// An aggregator is the live form of RASP. It wraps a ``RaspPipeline`` under a mutex, merges the
/// events of its ``RaspSource``s and of ``send(_:)`` into one stream, applies them one at a time
/// in arrival order, and delivers each new snapshot to every subscriber — the whole state through
/// ``subscribe(_:)`` or ``states``, or one field through `select`, which speaks only when the
/// field changes. A reducer that throws leaves the state as it was; the error goes to the
/// failure channel (``subscribeFailures(_:)``, ``failures``) and the next event is applied.
///
/// **Ordering.** Events are never applied concurrently. The thread that finds the aggregator
/// idle applies its event and delivers the snapshot itself, with no task hop; work arriving in
/// the meantime — from other threads, from sources, or from inside a subscriber — is queued and
/// performed by that same thread, in arrival order, once the current delivery has finished. So
/// every subscriber sees the same snapshots in the same order, and an event sent from inside a
/// subscriber is applied after every subscriber has seen the snapshot that triggered it.
/// Subscriber code never runs under the lock; reducers do, so a reducer must not call back into
/// its aggregator.
///
/// The state lives as long as the aggregator, whoever subscribes or leaves. Releasing the
/// aggregator cancels its source tasks and finishes its `AsyncStream`s.
///
/// ```swift
/// let (taps, tapInput) = AsyncStream.makeStream(of: CounterState.Event.self)
/// let aggregator = RaspAggregator(initial: CounterState(), sources: RaspSource(taps))
/// let subscription = aggregator.subscribe { state in print(state.count) }   // prints 0
/// aggregator.send(.increment)                                                // prints 1
/// tapInput.yield(.increment)                       // prints 2, from the source's task
/// ```
public final class RaspAggregator<State: RaspState & Sendable>: Sendable
where State.Event: Sendable {
  /// The pipeline, the queue, the subscribers and the source tasks.
  @usableFromInline
  let core: RaspMutex<RaspAggregatorCore<State>>

  /// Creates an aggregator that starts from `initial` and listens to `sources`.
  ///
  /// Each source is iterated in a task of its own, started at once.
  ///
  /// ```swift
  /// let aggregator = RaspAggregator(
  ///   initial: GeoState(), emission: .whenChanged, sources: [RaspSource(headings)])
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The state before any event.
  ///   - emission: When snapshots are delivered; ``RaspEmission/always`` by default.
  ///   - sources: The event sources, in the order that ``RaspFailure/Origin/source(index:)``
  ///     numbers them.
  public init(
    initial: State, emission: RaspEmission<State> = .always, sources: [RaspSource<State.Event>]
  ) {
    core = RaspMutex(
      RaspAggregatorCore(pipeline: RaspPipeline(initial: initial, emission: emission)))
    if !sources.isEmpty { replaceSources(sources) }
  }

  /// Creates an aggregator that starts from `initial` and listens to zero or more sources.
  ///
  /// ```swift
  /// let aggregator = RaspAggregator(
  ///   initial: MyRestState(), sources: RaspSource(fastTicks), RaspSource(slowTicks))
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The state before any event.
  ///   - emission: When snapshots are delivered; ``RaspEmission/always`` by default.
  ///   - sources: The event sources, numbered from 0 in this order.
  public convenience init(
    initial: State, emission: RaspEmission<State> = .always, sources: RaspSource<State.Event>...
  ) {
    self.init(initial: initial, emission: emission, sources: sources)
  }

  deinit {
    let (tasks, observers, failureObservers) = core.withLock { core in
      let released = (
        core.sourceTasks + core.addedSourceTasks.values + core.actionTasks.values,
        core.observers, core.failureObservers
      )
      core.sourceTasks = []
      core.addedSourceTasks = [:]
      core.actionTasks = [:]
      core.observers = []
      core.failureObservers = []
      return released
    }
    for task in tasks { task.cancel() }
    for observer in observers { observer.finish() }
    for observer in failureObservers { observer.finish() }
  }

  /// The current snapshot: the state after the last applied event.
  ///
  /// Reading it takes the lock, so it never sees a half-applied event. Inside a subscriber it is
  /// the snapshot being delivered: events sent meanwhile are only queued until the delivery ends.
  ///
  /// ```swift
  /// aggregator.send(.increment)
  /// aggregator.current.count   // 1
  /// ```
  public var current: State {
    core.withLock { $0.pipeline.current }
  }

  /// Applies an event, or queues it when another delivery is under way.
  ///
  /// When the aggregator is idle, the event is applied and its snapshot delivered on the
  /// caller's thread before `send` returns: no task, no allocation, deterministic — the path
  /// for replaying recorded events. When a delivery is under way (another thread's, or this one
  /// because `send` was called from a subscriber), the event is queued and the delivering thread
  /// applies it once the current delivery has finished. A reducer error is reported on the
  /// failure channel; `send` itself never throws.
  ///
  /// ```swift
  /// aggregator.send(.increment)
  /// ```
  ///
  /// - Parameter event: The event to apply.
  /// - Complexity: O(1) plus the reducer and the subscribers.
  @inlinable
  public func send(_ event: State.Event) {
    let delivery = core.withLock { core -> RaspDelivery<State>? in
      guard !core.isDraining else {
        core.queue.append(.event(event))
        return nil
      }
      let delivery = core.perform(event: event)
      if delivery.isEmpty { return nil }
      core.isDraining = true
      return delivery
    }
    if let delivery { drain(startingWith: delivery) }
  }

  /// Applies an event and returns once it is applied and every subscriber has been called
  /// with its snapshot (or its failure).
  ///
  /// The event takes its turn as ``send(_:)``'s would; the call then waits for the deliveries
  /// queued before it, its own included, to end. For tests and for code that must see the
  /// effect of an event before it goes on, from any task. Do not await it from inside a
  /// subscriber: the subscriber's own delivery would never end.
  ///
  /// ```swift
  /// await aggregator.sendAndWait(.increment)
  /// // every subscriber has seen the count go up
  /// ```
  ///
  /// - Parameter event: The event to apply.
  public func sendAndWait(_ event: State.Event) async {
    send(event)
    await waitForDeliveries()
  }

  /// Returns once everything queued so far has been delivered.
  func waitForDeliveries() async {
    await withCheckedContinuation { continuation in
      submit(.barrier { continuation.resume() })
    }
  }

  /// Applies a batch of events in order, as one arrival: no other event comes between them.
  ///
  /// Every event still gets its own snapshot and its own failure report. Events sent from a
  /// subscriber during the batch are applied after the whole batch. The sequence is iterated
  /// under the lock, so it must not call back into this aggregator.
  ///
  /// ```swift
  /// aggregator.send(contentsOf: [.increment, .increment, .decrement])
  /// ```
  ///
  /// - Parameter events: The events, in the order to apply them.
  /// - Complexity: O(*n*) plus the reducers and the subscribers.
  @inlinable
  public func send<Events: Sequence>(contentsOf events: Events)
  where Events.Element == State.Event {
    var remaining = events.makeIterator()
    let delivery = core.withLock { core -> RaspDelivery<State>? in
      guard !core.isDraining else {
        while let event = remaining.next() { core.queue.append(.event(event)) }
        return nil
      }
      while let event = remaining.next() {
        let delivery = core.perform(event: event)
        if delivery.isEmpty { continue }
        core.isDraining = true
        return delivery
      }
      return nil
    }
    if let delivery { drain(startingWith: delivery, remaining: &remaining) }
  }

  /// Applies several events as one unit — all or nothing — falling back to another event if
  /// any of them fails.
  ///
  /// When every event succeeds, subscribers receive one snapshot after the last. When one throws,
  /// the state is left exactly as it was before the first, a ``RaspFailure`` with origin
  /// ``RaspFailure/Origin/composite`` (carrying the failing event and a ``RaspCompositeError``)
  /// goes to the failure channel, and `fallback`, if any, is then applied as an ordinary event.
  /// A composite without events applies nothing and delivers nothing. The events may be any
  /// sequence; a composite holding composites is a ``RaspComposite``.
  ///
  /// ```swift
  /// aggregator.send(composite: [.increment, .decrement, .decrement], fallback: .increment)
  /// aggregator.send(composite: repeatElement(.increment, count: 3))
  /// ```
  ///
  /// - Parameters:
  ///   - events: The events of the composite, in order.
  ///   - fallback: An event to apply when the composite fails.
  /// - Complexity: O(*n*) applications, plus one copy of the state.
  public func send<Events: Sequence>(composite events: Events, fallback: State.Event? = nil)
  where Events.Element == State.Event {
    submit(.composite(Array(events), fallback: fallback))
  }
}
