/// A state that changes only by applying events: the reducer of the RASP pattern.
///
/// A state is a value. ``apply(event:)`` folds one event into it; the aggregator calls it once per
/// event, in arrival order, never concurrently. A reducer may throw to reject an event: the
/// aggregator then keeps the state exactly as it was before the event, reports the error with the
/// event, and goes on with the next one.
///
/// By default the pipeline guarantees that rollback by applying each event to a copy of the state
/// and keeping the copy only on success. A state whose reducer validates first and mutates
/// afterwards can say so with ``throwsBeforeMutating`` and be updated in place, which saves the
/// copy of any collection it holds.
///
/// ```swift
/// struct CounterState: RaspState {
///   enum Event { case increment, decrement }
///   struct Underflow: Error {}
///
///   var count = 0
///
///   mutating func apply(event: Event) throws {
///     switch event {
///     case .increment: count += 1
///     case .decrement:
///       guard count > 0 else { throw Underflow() }
///       count -= 1
///     }
///   }
/// }
/// ```
public protocol RaspState {
  /// The type of the events this state accepts.
  associatedtype Event

  /// Folds one event into the state.
  ///
  /// Called once per event, in order. Throw to reject the event; the pipeline restores the
  /// state as it was before the call (see ``throwsBeforeMutating``).
  ///
  /// ```swift
  /// var state = CounterState()
  /// try state.apply(event: .increment)   // state.count == 1
  /// ```
  ///
  /// - Parameter event: The event to apply.
  /// - Throws: Any error that rejects the event.
  mutating func apply(event: Event) throws

  /// Whether ``apply(event:)`` only ever throws before it changes anything.
  ///
  /// When `true`, the pipeline applies events to the state in place, because a rejected event
  /// cannot have left partial changes behind. When `false` (the default), it applies each event
  /// to a copy and keeps the copy only on success, which costs a copy of every collection that
  /// the event changes.
  ///
  /// ```swift
  /// extension CounterState {
  ///   static var throwsBeforeMutating: Bool { true }   // `decrement` checks, then changes
  /// }
  /// ```
  static var throwsBeforeMutating: Bool { get }
}

extension RaspState {
  /// `false`: by default the pipeline applies each event to a copy of the state.
  ///
  /// ```swift
  /// CounterState.throwsBeforeMutating   // false unless the type says otherwise
  /// ```
  public static var throwsBeforeMutating: Bool { false }

  /// Applies `event` so that a thrown error leaves the state exactly as it was.
  ///
  /// Uses ``apply(event:)`` in place when ``throwsBeforeMutating`` is `true`, otherwise applies
  /// the event to a copy and keeps the copy only on success.
  ///
  /// ```swift
  /// var state = CounterState()
  /// try? state.applyOrRollBack(event: .decrement)   // throws Underflow; state.count is still 0
  /// ```
  ///
  /// - Parameter event: The event to apply.
  /// - Throws: The reducer's error, after restoring the state.
  @inlinable
  public mutating func applyOrRollBack(event: Event) throws {
    if Self.throwsBeforeMutating {
      try apply(event: event)
    } else {
      var next = self
      try next.apply(event: event)
      self = next
    }
  }

  /// Applies several events as one unit: all of them, or — if any throws — none.
  ///
  /// The events are applied in order to a copy of the state; the copy replaces the state only
  /// when every event succeeded.
  ///
  /// ```swift
  /// var state = CounterState()
  /// try? state.applyAll(events: [.increment, .decrement, .decrement])   // throws; count is 0
  /// ```
  ///
  /// - Parameter events: The events, in the order to apply them.
  /// - Throws: ``RaspCompositeError`` naming the failing event's index and its error.
  /// - Complexity: O(*n*) applications, plus one copy of the state.
  @inlinable
  public mutating func applyAll<Events: Sequence>(events: Events) throws
  where Events.Element == Event {
    var next = self
    for (index, event) in events.enumerated() {
      do {
        try next.apply(event: event)
      } catch {
        throw RaspCompositeError(index: index, underlying: error)
      }
    }
    self = next
  }
}

/// The error of a composite event: which of its events failed, and why.
///
/// ```swift
/// do {
///   try state.applyAll(events: [.increment, .decrement, .decrement])
/// } catch let error as RaspCompositeError {
///   print(error.index)   // 2
/// }
/// ```
public struct RaspCompositeError: Error, CustomStringConvertible {
  /// The position of the failing event in the composite.
  public var index: Int
  /// The error the failing event's reducer threw.
  public var underlying: any Error

  /// Creates the error for the event at `index`.
  ///
  /// ```swift
  /// let error = RaspCompositeError(index: 0, underlying: CounterState.Underflow())
  /// ```
  ///
  /// - Parameters:
  ///   - index: The position of the failing event.
  ///   - underlying: The reducer's error.
  public init(index: Int, underlying: any Error) {
    self.index = index
    self.underlying = underlying
  }

  /// The underlying error's description, prefixed with the failing event's position.
  ///
  /// ```swift
  /// print(error)   // event 2 of the composite failed: Underflow()
  /// ```
  public var description: String { "event \(index) of the composite failed: \(underlying)" }
}
