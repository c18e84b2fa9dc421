/// Everything an aggregator guards with its mutex: the pipeline, the queue, the subscribers and
/// the source tasks.
///
/// The core does the work of the drain loop that must happen under the lock — applying an event
/// and deciding who is to hear about it — and returns a ``RaspDelivery`` that the drainer
/// delivers after releasing the lock. It never calls subscriber code itself.
@usableFromInline
struct RaspAggregatorCore<State: RaspState & Sendable> where State.Event: Sendable {
  /// The state and the one way to change it.
  @usableFromInline var pipeline: RaspPipeline<State>

  /// Work that arrived while another thread was delivering.
  @usableFromInline var queue: RaspWorkQueue<RaspWork<State>>

  /// Whether a thread is draining the queue; new work is then queued, never applied directly.
  @usableFromInline var isDraining: Bool

  /// The state subscribers, in subscription order.
  @usableFromInline var observers: [RaspObserver<State>]

  /// The failure subscribers, in subscription order.
  @usableFromInline var failureObservers: [RaspObserver<RaspFailure<State>>]

  /// The next subscriber identifier.
  @usableFromInline var nextObserverID: Int

  /// The tasks iterating the current sources.
  @usableFromInline var sourceTasks: [Task<Void, Never>]

  /// Bumped by every `replaceSources`; events from older sources are dropped.
  @usableFromInline var sourceGeneration: Int

  /// The tasks of the sources added one by one (`addSource`), by their token: a negative
  /// number, so that it is never a generation. Events from a removed one are dropped.
  @usableFromInline var addedSourceTasks: [Int: Task<Void, Never>]

  /// The tasks of the actions under way (`run`), by identifier; each removes itself when done.
  @usableFromInline var actionTasks: [Int: Task<Void, Never>]

  /// The last token given to an added source.
  @usableFromInline var lastAddedSourceToken: Int

  /// How many sources were added since the last `replaceSources`, for their indices.
  @usableFromInline var addedSourceCount: Int

  /// The taps: called under the lock with every applied event, in registration order.
  @usableFromInline var taps: [RaspTap<State>]

  /// Whether ``taps`` is not empty, kept apart so that the fast path reads one `Bool`.
  @usableFromInline var hasTaps: Bool

  @usableFromInline
  init(pipeline: RaspPipeline<State>) {
    self.pipeline = pipeline
    self.queue = RaspWorkQueue()
    self.isDraining = false
    self.observers = []
    self.failureObservers = []
    self.nextObserverID = 0
    self.sourceTasks = []
    self.sourceGeneration = 0
    self.addedSourceTasks = [:]
    self.actionTasks = [:]
    self.lastAddedSourceToken = 0
    self.addedSourceCount = 0
    self.taps = []
    self.hasTaps = false
  }

  /// Returns a fresh subscriber identifier.
  @usableFromInline
  mutating func makeObserverID() -> Int {
    defer { nextObserverID += 1 }
    return nextObserverID
  }

  /// Applies one event and says who must hear about it.
  @inlinable
  mutating func perform(event: State.Event, source: String? = nil) -> RaspDelivery<State> {
    do {
      let isDue = try pipeline.send(event)
      if hasTaps { callTaps(event: event, source: source) }
      guard isDue, !observers.isEmpty else { return RaspDelivery() }
      return RaspDelivery(snapshot: pipeline.current, observers: observers)
    } catch {
      return failed(
        [RaspFailure(error: error, event: event, origin: .event, state: pipeline.current)],
        snapshot: nil)
    }
  }

  /// Performs one piece of work and says who must hear about it.
  @inlinable
  mutating func perform(_ work: RaspWork<State>) -> RaspDelivery<State> {
    switch work {
    case .event(let event, let source):
      return perform(event: event, source: source)
    case .composite(let events, let fallback):
      return perform(composite: events, fallback: fallback)
    case .failure(let error, let origin):
      return failed(
        [RaspFailure(error: error, event: nil, origin: origin, state: pipeline.current)],
        snapshot: nil)
    case .barrier(let resume):
      // Everything before it has been delivered. Resuming a continuation only schedules its
      // task, so it may run under the lock; a delivery with a callback would cost every event.
      resume()
      return RaspDelivery()
    case .subscribe(let observer):
      guard observer.isSubscribed else { return RaspDelivery() }
      observers.append(observer)
      return RaspDelivery(snapshot: pipeline.current, observers: [observer])
    case .subscribeFailures(let observer):
      if observer.isSubscribed { failureObservers.append(observer) }
      return RaspDelivery()
    }
  }

  /// Performs queued work until some of it is due to be delivered, and returns that delivery;
  /// when the queue runs dry, marks the aggregator idle and returns `nil`.
  @inlinable
  mutating func nextDelivery() -> RaspDelivery<State>? {
    while let work = queue.popFirst() {
      let delivery = perform(work)
      if !delivery.isEmpty { return delivery }
    }
    isDraining = false
    return nil
  }

  /// Applies a composite with its fallback, collecting the composite's and the fallback's errors.
  @usableFromInline
  mutating func perform(
    composite events: [State.Event], fallback: State.Event?
  ) -> RaspDelivery<State> {
    // Nothing to apply: nothing changes, nobody hears of it.
    if events.isEmpty { return RaspDelivery() }
    // The state before, for the taps and for a failure to carry: a copy of a reference at
    // most, and only taken when someone is to hear of it.
    let before = hasTaps || !failureObservers.isEmpty ? pipeline.current : nil
    let outcome = pipeline.send(composite: events, fallback: fallback)
    if hasTaps, let before {
      tapComposite(events, fallback: fallback, outcome: outcome, from: before)
    }
    var failures: [RaspFailure<State>] = []
    if let failure = outcome.failure, let before {
      let event = events.indices.contains(failure.index) ? events[failure.index] : nil
      failures.append(
        RaspFailure(error: failure, event: event, origin: .composite, state: before))
    }
    if let error = outcome.fallbackFailure {
      failures.append(
        RaspFailure(error: error, event: fallback, origin: .fallback, state: pipeline.current))
    }
    let snapshot = outcome.emitted && !observers.isEmpty ? pipeline.current : nil
    return failed(failures, snapshot: snapshot)
  }

  /// A delivery of `failures` (to the failure subscribers) and of `snapshot` (to the state
  /// subscribers).
  @usableFromInline
  func failed(_ failures: [RaspFailure<State>], snapshot: State?) -> RaspDelivery<State> {
    RaspDelivery(
      snapshot: snapshot, observers: snapshot == nil ? [] : observers,
      failures: failureObservers.isEmpty ? [] : failures, failureObservers: failureObservers)
  }

  /// Calls every tap with an applied event and the state after it.
  @inlinable
  func callTaps(event: State.Event, source: String?) {
    taps.withUnsafeBufferPointer { taps in
      for index in taps.indices { taps[index].body(event, pipeline.state, source) }
    }
  }

  /// Calls the taps for what a composite applied: each of its events in order, with the state
  /// after each, when it succeeded; the fallback, when it was applied instead.
  ///
  /// The pipeline applies a composite to a copy of the state and keeps only the end; the
  /// states in between are worked out again from `before`, since reducers are functions of the
  /// state and the event.
  @inlinable
  func tapComposite(
    _ events: [State.Event], fallback: State.Event?, outcome: RaspCompositeOutcome,
    from before: State
  ) {
    guard outcome.failure == nil else {
      if let fallback, outcome.fallbackFailure == nil {
        callTaps(event: fallback, source: nil)
      }
      return
    }
    var state = before
    for event in events {
      guard (try? state.apply(event: event)) != nil else { return }
      for tap in taps { tap.body(event, state, nil) }
    }
  }

  /// Whether events of the source with `generation` (a generation, or an added source's
  /// token) are still applied.
  @inlinable
  func isCurrentSource(_ generation: Int) -> Bool {
    generation >= 0 ? generation == sourceGeneration : addedSourceTasks[generation] != nil
  }

  /// Removes the tap with identifier `id`.
  @usableFromInline
  mutating func removeTap(id: Int) {
    taps.removeAll { $0.id == id }
    hasTaps = !taps.isEmpty
  }

  /// Removes the state subscriber with identifier `id`.
  @usableFromInline
  mutating func removeObserver(id: Int) {
    observers.removeAll { $0.id == id }
  }

  /// Removes the failure subscriber with identifier `id`.
  @usableFromInline
  mutating func removeFailureObserver(id: Int) {
    failureObservers.removeAll { $0.id == id }
  }
}
