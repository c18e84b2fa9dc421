/// A composite event that may hold other composites: applied as its events in order, all or
/// nothing.
///
/// RxDataFlow's `CompositeAction` could hold composite actions; a `RaspComposite` can too. It is
/// flattened depth first — each nested composite's events where it stands — and the whole is one
/// unit: when any event fails, the state is left as it was before the first. An empty
/// composite, or one of empty composites, applies nothing and completes at once (the seed
/// waited for it for ever).
///
/// ```swift
/// let checkout: RaspComposite<CartEvent> = [.event(.add("A-1")), .composite([.event(.pay)])]
/// aggregator.send(composite: checkout, fallback: .clearCart)
/// checkout.events   // [.add("A-1"), .pay]
/// ```
public indirect enum RaspComposite<Event>: ExpressibleByArrayLiteral {
  /// One event.
  case event(Event)
  /// Several parts, in order, each an event or a composite.
  case composite([RaspComposite<Event>])

  /// Creates a composite of `parts`.
  ///
  /// ```swift
  /// let both: RaspComposite<Int> = [.event(1), .event(2)]
  /// ```
  ///
  /// - Parameter parts: The parts, in order.
  public init(arrayLiteral parts: RaspComposite<Event>...) {
    self = .composite(parts)
  }

  /// Creates a composite of plain events, in order.
  ///
  /// ```swift
  /// let composite = RaspComposite(events: [1, 2, 3])
  /// ```
  ///
  /// - Parameter events: The events, in the order to apply them.
  public init<Events: Sequence>(events: Events) where Events.Element == Event {
    self = .composite(events.map { .event($0) })
  }

  /// Every event of the composite and of the composites in it, in the order they apply.
  ///
  /// ```swift
  /// RaspComposite<Int>([.event(1), [.event(2), .event(3)]]).events   // [1, 2, 3]
  /// ```
  ///
  /// - Complexity: O(*n*) in the number of parts, nested ones included; no recursion, so any
  ///   depth is safe.
  public var events: [Event] {
    var events: [Event] = []
    var stack: [ArraySlice<RaspComposite<Event>>] = []
    switch self {
    case .event(let event): return [event]
    case .composite(let parts): stack.append(parts[...])
    }
    while var parts = stack.popLast() {
      guard let part = parts.popFirst() else { continue }
      stack.append(parts)
      switch part {
      case .event(let event): events.append(event)
      case .composite(let inner): stack.append(inner[...])
      }
    }
    return events
  }
}

extension RaspComposite: Sendable where Event: Sendable {}
extension RaspComposite: Equatable where Event: Equatable {}

extension RaspAggregator {
  /// Applies a composite that may hold composites — its events in order, all or nothing —
  /// falling back to another event if any of them fails.
  ///
  /// The nested composites are flattened first (``RaspComposite/events``); then it is one
  /// composite, as `send(composite:fallback:)` with a sequence applies it: one snapshot after the
  /// last event, or, when one fails, the state as it was, a failure with origin
  /// ``RaspFailure/Origin/composite`` naming the failing event's position in the flattened
  /// list, and the fallback. A composite without events applies nothing and delivers nothing.
  ///
  /// ```swift
  /// aggregator.send(composite: [.event(.increment), [.event(.increment), .event(.decrement)]])
  /// ```
  ///
  /// - Parameters:
  ///   - composite: The composite.
  ///   - fallback: An event to apply when the composite fails.
  public func send(composite: RaspComposite<State.Event>, fallback: State.Event? = nil) {
    send(composite: composite.events, fallback: fallback)
  }
}
