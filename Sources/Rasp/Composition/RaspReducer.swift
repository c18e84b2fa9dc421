/// A reducer as a value: a way to fold an event into a state, that can own one field and be
/// combined with others.
///
/// A domain state often gathers fields that change independently — a heading from the compass,
/// a location from GPS. Rather than one `switch` that touches everything, give each field its
/// own reducer with `field(_:_:)`, addressed by a Swift key path, and combine them. Key paths
/// compose, so a reducer can own a nested field (`\.location.latitude`), and a whole sub-state
/// can have a reducer of its own, built the same way and lifted into the parent with
/// `field(_:_:)` too. The state's ``RaspState/apply(event:)`` then delegates to the result.
///
/// Combined reducers run in order on the same state. If one throws, the ones before it may have
/// changed their fields already; the pipeline's rollback (``RaspState/applyOrRollBack(event:)``)
/// discards those changes, so a throwing event still leaves the whole state as it was.
///
/// ```swift
/// struct GeoState: RaspState {
///   struct Location { var latitude = 0.0, longitude = 0.0 }
///   enum Event { case heading(Double), fix(latitude: Double, longitude: Double) }
///
///   var heading = 0.0
///   var location = Location()
///
///   static let reducer = RaspReducer<GeoState, Event> {
///     RaspReducer.field(\.heading) { heading, event in
///       if case .heading(let degrees) = event { heading = degrees }
///     }
///     RaspReducer.field(\.location.latitude) { latitude, event in
///       if case .fix(let fixed, _) = event { latitude = fixed }
///     }
///     RaspReducer.field(\.location.longitude) { longitude, event in
///       if case .fix(_, let fixed) = event { longitude = fixed }
///     }
///   }
///
///   mutating func apply(event: Event) throws {
///     try Self.reducer.reduce(into: &self, event: event)
///   }
/// }
/// ```
public struct RaspReducer<State, Event>: Sendable {
  /// The folding function.
  @usableFromInline
  let body: @Sendable (inout State, Event) throws -> Void

  /// Creates a reducer from a function that folds an event into the whole state.
  ///
  /// ```swift
  /// let count = RaspReducer<CounterState, CounterState.Event> { state, event in
  ///   if case .increment = event { state.count += 1 }
  /// }
  /// ```
  ///
  /// - Parameter reduce: Folds one event into the state; throws to reject the event.
  public init(_ reduce: @escaping @Sendable (inout State, Event) throws -> Void) {
    body = reduce
  }

  /// Creates a reducer that runs the reducers listed in `build`, in order.
  ///
  /// ```swift
  /// let reducer = RaspReducer<GeoState, GeoState.Event> {
  ///   RaspReducer.field(\.heading, headingReducer)
  ///   RaspReducer.field(\.location, locationReducer)
  /// }
  /// ```
  ///
  /// - Parameter build: The reducers, one per statement; `if`, `switch` and `for` are allowed.
  public init(@RaspReducerBuilder<State, Event> _ build: () -> RaspReducer<State, Event>) {
    self = build()
  }

  /// Folds `event` into `state`.
  ///
  /// ```swift
  /// var state = GeoState()
  /// try GeoState.reducer.reduce(into: &state, event: .heading(90))   // state.heading == 90
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state to change.
  ///   - event: The event to fold in.
  /// - Throws: The error of the first reducer that rejects the event.
  @inlinable
  public func reduce(into state: inout State, event: Event) throws {
    try body(&state, event)
  }

  /// A reducer that changes nothing.
  ///
  /// ```swift
  /// let reducer = RaspReducer<GeoState, GeoState.Event>.empty
  /// ```
  public static var empty: Self { Self { _, _ in } }

  /// A reducer that owns one field of the state, addressed by a key path.
  ///
  /// The reducer sees only the field and the event, so it cannot touch anything else. The field
  /// is changed in place, without copying the rest of the state.
  ///
  /// ```swift
  /// let heading = RaspReducer<GeoState, GeoState.Event>.field(\.heading) { heading, event in
  ///   if case .heading(let degrees) = event { heading = degrees }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field, possibly nested (`\.location.latitude`).
  ///   - reduce: Folds one event into the field; throws to reject the event.
  /// - Returns: A reducer of the whole state.
  public static func field<Value>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    _ reduce: @escaping @Sendable (inout Value, Event) throws -> Void
  ) -> Self {
    Self { state, event in try reduce(&state[keyPath: keyPath], event) }
  }

  /// Lifts a reducer of a sub-state into a reducer of the state that holds it.
  ///
  /// The sub-state's reducer can itself be made of field reducers, and so on: composition
  /// nests as deep as the state does.
  ///
  /// ```swift
  /// let location = RaspReducer<GeoState.Location, GeoState.Event>.field(\.latitude) { lat, e in
  ///   if case .fix(let fixed, _) = e { lat = fixed }
  /// }
  /// let geo = RaspReducer<GeoState, GeoState.Event>.field(\.location, location)
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The sub-state's field.
  ///   - reducer: The sub-state's reducer.
  /// - Returns: A reducer of the whole state.
  public static func field<Value>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable, _ reducer: RaspReducer<Value, Event>
  ) -> Self {
    Self { state, event in try reducer.body(&state[keyPath: keyPath], event) }
  }

  /// A reducer that runs `reducers` in order on the same state.
  ///
  /// ```swift
  /// let reducer = RaspReducer.combine(headingReducer, locationReducer)
  /// ```
  ///
  /// - Parameter reducers: The reducers, in the order to run them.
  /// - Returns: A reducer that stops at, and rethrows, the first error.
  /// - Complexity: O(*n*) calls per event, for *n* reducers.
  public static func combine(_ reducers: Self...) -> Self {
    combine(reducers)
  }

  /// A reducer that runs `reducers` in order on the same state.
  ///
  /// ```swift
  /// let reducer = RaspReducer.combine([headingReducer, locationReducer])
  /// ```
  ///
  /// - Parameter reducers: The reducers, in the order to run them.
  /// - Returns: A reducer that stops at, and rethrows, the first error.
  /// - Complexity: O(*n*) calls per event, for *n* reducers.
  public static func combine(_ reducers: [Self]) -> Self {
    switch reducers.count {
    case 0: return .empty
    case 1: return reducers[0]
    default:
      return Self { state, event in
        for reducer in reducers { try reducer.body(&state, event) }
      }
    }
  }

  /// This reducer followed by `next`, on the same state.
  ///
  /// ```swift
  /// let reducer = headingReducer.combined(with: locationReducer)
  /// ```
  ///
  /// - Parameter next: The reducer to run after this one.
  /// - Returns: A reducer that runs both, stopping at the first error.
  public func combined(with next: Self) -> Self {
    Self.combine(self, next)
  }
}
