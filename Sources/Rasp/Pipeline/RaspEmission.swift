/// When a pipeline emits a snapshot: after every applied event, or only when the state changed.
///
/// RASP's seeds emit a snapshot for every event, even one that changed nothing, and so does
/// ``always``. A state that is `Equatable` can opt into ``whenChanged``, which compares the
/// state before and after each event and stays silent when they are equal.
///
/// ```swift
/// var pipeline = RaspPipeline(initial: CounterState(), emission: .whenChanged)
/// ```
public struct RaspEmission<State>: Sendable {
  /// Returns `true` when two states are the same and no snapshot should be emitted; `nil`
  /// means every event emits.
  @usableFromInline
  let isUnchanged: (@Sendable (State, State) -> Bool)?

  @usableFromInline
  init(isUnchanged: (@Sendable (State, State) -> Bool)?) {
    self.isUnchanged = isUnchanged
  }

  /// Emit a snapshot after every applied event (the default, as in RaspSwift).
  ///
  /// ```swift
  /// let emission = RaspEmission<CounterState>.always
  /// ```
  public static var always: Self { Self(isUnchanged: nil) }

  /// Whether every applied event emits a snapshot.
  ///
  /// ```swift
  /// RaspEmission<CounterState>.always.emitsEveryEvent   // true
  /// ```
  public var emitsEveryEvent: Bool { isUnchanged == nil }
}

extension RaspEmission where State: Equatable & SendableMetatype {
  /// Emit a snapshot only when the event changed the state.
  ///
  /// The comparison runs on whichever thread applies events, so the state's `Equatable`
  /// conformance must not be isolated to an actor (`SendableMetatype`); every ordinary struct
  /// and enum qualifies.
  ///
  /// ```swift
  /// var pipeline = RaspPipeline(initial: CounterState(), emission: .whenChanged)
  /// ```
  public static var whenChanged: Self { Self(isUnchanged: { $0 == $1 }) }
}
