/// Builds a ``RaspReducer`` from a list of reducers, one per statement.
///
/// The statements run in the order written. `if`, `if`-`else`, `switch` and `for` choose or
/// repeat reducers when the reducer is built, not per event.
///
/// ```swift
/// static let reducer = RaspReducer<GeoState, GeoState.Event> {
///   RaspReducer.field(\.heading, headingReducer)
///   if tracksLocation {
///     RaspReducer.field(\.location, locationReducer)
///   }
/// }
/// ```
@resultBuilder
public enum RaspReducerBuilder<State, Event> {
  /// The reducer type built here.
  public typealias Reducer = RaspReducer<State, Event>

  /// Accepts one reducer statement.
  ///
  /// ```swift
  /// RaspReducer.field(\.heading, headingReducer)   // one statement
  /// ```
  ///
  /// - Parameter reducer: The reducer.
  /// - Returns: The same reducer.
  public static func buildExpression(_ reducer: Reducer) -> Reducer {
    reducer
  }

  /// Runs the statements' reducers in order.
  ///
  /// ```swift
  /// RaspReducer<GeoState, GeoState.Event> { headingReducer; locationReducer }
  /// ```
  ///
  /// - Parameter reducers: The reducers, in the order written.
  /// - Returns: Their combination.
  public static func buildBlock(_ reducers: Reducer...) -> Reducer {
    Reducer.combine(reducers)
  }

  /// An `if` without `else`: the reducer when the condition held, otherwise nothing.
  ///
  /// ```swift
  /// if tracksLocation { locationReducer }
  /// ```
  ///
  /// - Parameter reducer: The reducer of the `if` branch, or `nil`.
  /// - Returns: The reducer, or ``RaspReducer/empty``.
  public static func buildOptional(_ reducer: Reducer?) -> Reducer {
    reducer ?? .empty
  }

  /// The first branch of an `if`-`else` or `switch`.
  ///
  /// ```swift
  /// if metric { metricReducer } else { imperialReducer }
  /// ```
  ///
  /// - Parameter reducer: The branch's reducer.
  /// - Returns: The same reducer.
  public static func buildEither(first reducer: Reducer) -> Reducer {
    reducer
  }

  /// The second branch of an `if`-`else` or `switch`.
  ///
  /// ```swift
  /// if metric { metricReducer } else { imperialReducer }
  /// ```
  ///
  /// - Parameter reducer: The branch's reducer.
  /// - Returns: The same reducer.
  public static func buildEither(second reducer: Reducer) -> Reducer {
    reducer
  }

  /// A `for` loop: each iteration's reducer, in order.
  ///
  /// ```swift
  /// for index in 0..<3 { RaspReducer.field(\.sensors[index], sensorReducer) }
  /// ```
  ///
  /// - Parameter reducers: The reducers of the iterations.
  /// - Returns: Their combination.
  public static func buildArray(_ reducers: [Reducer]) -> Reducer {
    Reducer.combine(reducers)
  }
}
