/// The synchronous heart of RASP: a state, and the one way to change it.
///
/// A pipeline owns the current state and applies events to it one at a time, with rollback: an
/// event whose reducer throws leaves the state exactly as it was. It has no locks, no tasks and no
/// subscribers, and applying an event allocates nothing beyond what the reducer itself does,
/// which makes it the fast path for replaying recorded events. ``RaspAggregator`` wraps a pipeline
/// to merge live sources, deliver snapshots to subscribers and report errors.
///
/// ```swift
/// var pipeline = RaspPipeline(initial: CounterState())
/// try pipeline.send(.increment)          // true: a snapshot is due
/// pipeline.current.count                 // 1
/// try? pipeline.send(.decrement)
/// try? pipeline.send(.decrement)         // throws Underflow; count stays 0
/// ```
public struct RaspPipeline<State: RaspState> {
  /// The state after the last applied event.
  ///
  /// ```swift
  /// pipeline.current.count   // 1
  /// ```
  @inlinable
  public var current: State { state }

  @usableFromInline
  var state: State

  /// When a snapshot is emitted.
  public let emission: RaspEmission<State>

  /// Creates a pipeline with an initial state.
  ///
  /// ```swift
  /// var pipeline = RaspPipeline(initial: CounterState(), emission: .always)
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The state before any event.
  ///   - emission: When snapshots are emitted; ``RaspEmission/always`` by default.
  public init(initial: State, emission: RaspEmission<State> = .always) {
    self.state = initial
    self.emission = emission
  }

  /// Applies one event and tells whether a snapshot is due.
  ///
  /// When the reducer throws, the state is left exactly as it was and the error is rethrown.
  ///
  /// ```swift
  /// if try pipeline.send(.increment) { print(pipeline.current) }
  /// ```
  ///
  /// - Parameter event: The event to apply.
  /// - Returns: `true` when the emission policy calls for a snapshot of ``current``.
  /// - Throws: The reducer's error; the state is unchanged.
  @inlinable
  @discardableResult
  public mutating func send(_ event: State.Event) throws -> Bool {
    guard let isUnchanged = emission.isUnchanged else {
      try state.applyOrRollBack(event: event)
      return true
    }
    let before = state
    try state.applyOrRollBack(event: event)
    return !isUnchanged(before, state)
  }

  /// Applies several events as one unit, falling back to another event if any of them fails.
  ///
  /// The events are applied in order to a copy of the state. When all succeed, the copy becomes
  /// the state and a single snapshot is due. When one throws, the state is left exactly as it
  /// was, the failure is returned, and `fallback` (if any) is then applied as an ordinary event.
  ///
  /// ```swift
  /// let outcome = pipeline.send(composite: [.increment, .decrement, .decrement],
  ///                             fallback: .increment)
  /// outcome.failure?.index   // 2: the composite rolled back
  /// outcome.emitted          // true: the fallback applied
  /// ```
  ///
  /// - Parameters:
  ///   - events: The events of the composite, in order.
  ///   - fallback: An event to apply when the composite fails.
  /// - Returns: Whether a snapshot is due, and the composite's (or the fallback's) failure.
  /// - Complexity: O(*n*) applications, plus one copy of the state.
  @inlinable
  public mutating func send<Events: Sequence>(
    composite events: Events, fallback: State.Event? = nil
  ) -> RaspCompositeOutcome where Events.Element == State.Event {
    let before = state
    do {
      try state.applyAll(events: events)
      let changed = emission.isUnchanged.map { !$0(before, state) } ?? true
      return RaspCompositeOutcome(emitted: changed, failure: nil, fallbackFailure: nil)
    } catch {
      let failure = error as? RaspCompositeError ?? RaspCompositeError(index: 0, underlying: error)
      guard let fallback else {
        return RaspCompositeOutcome(emitted: false, failure: failure, fallbackFailure: nil)
      }
      do {
        let emitted = try send(fallback)
        return RaspCompositeOutcome(emitted: emitted, failure: failure, fallbackFailure: nil)
      } catch {
        return RaspCompositeOutcome(emitted: false, failure: failure, fallbackFailure: error)
      }
    }
  }

  /// Replaces the state without applying an event.
  ///
  /// For restoring a saved snapshot, not for ordinary changes: those are events.
  ///
  /// ```swift
  /// pipeline.reset(to: CounterState())
  /// ```
  ///
  /// - Parameter state: The new current state.
  public mutating func reset(to state: State) {
    self.state = state
  }
}

/// What happened when a composite event was sent.
///
/// ```swift
/// let outcome = pipeline.send(composite: [.increment, .increment])
/// outcome.emitted    // true
/// outcome.failure    // nil
/// ```
public struct RaspCompositeOutcome {
  /// Whether a snapshot is due: after the whole composite, or after the fallback.
  public var emitted: Bool
  /// The composite's failure, when one of its events threw and the state rolled back.
  public var failure: RaspCompositeError?
  /// The fallback event's own error, when it threw too.
  public var fallbackFailure: (any Error)?

  /// Creates an outcome.
  ///
  /// ```swift
  /// let outcome = RaspCompositeOutcome(emitted: true, failure: nil, fallbackFailure: nil)
  /// ```
  ///
  /// - Parameters:
  ///   - emitted: Whether a snapshot is due.
  ///   - failure: The composite's failure.
  ///   - fallbackFailure: The fallback's failure.
  public init(emitted: Bool, failure: RaspCompositeError?, fallbackFailure: (any Error)?) {
    self.emitted = emitted
    self.failure = failure
    self.fallbackFailure = fallbackFailure
  }
}
