/// How many values an aggregator's asynchronous sequences keep for a consumer that has fallen
/// behind, and which ones.
///
/// A subscriber callback runs for every snapshot; an `AsyncStream` consumer iterates at its own
/// pace, and the values delivered meanwhile wait in the stream's buffer. Without a bound, a
/// consumer that stalls (a UI that is not on screen, a task that awaits the network) makes the
/// buffer grow for as long as events arrive. The default keeps the newest 128: a consumer that
/// keeps up sees every value, and one that falls far behind skips the oldest and always gets
/// the latest — which is what a consumer of state wants.
///
/// ```swift
/// for await state in aggregator.states(buffering: .newest(1)) { render(state) }   // latest only
/// for await state in aggregator.states(buffering: .unbounded) { log(state) }      // every one
/// ```
public enum RaspBuffering: Sendable, Equatable {
  /// Keeps the newest `count` values; when the buffer is full, the oldest is dropped.
  case newest(Int)
  /// Keeps the oldest `count` values; when the buffer is full, new values are dropped.
  case oldest(Int)
  /// Keeps every value, however far behind the consumer is.
  case unbounded

  /// `.newest(128)`: the policy of ``RaspAggregator/states`` and of `select`'s streams.
  ///
  /// ```swift
  /// RaspBuffering.default   // .newest(128)
  /// ```
  public static var `default`: RaspBuffering { .newest(128) }

  /// The `AsyncStream` policy for values of type `Value`.
  @inlinable
  func policy<Value>(for _: Value.Type) -> AsyncStream<Value>.Continuation.BufferingPolicy {
    switch self {
    case .newest(let count): .bufferingNewest(max(0, count))
    case .oldest(let count): .bufferingOldest(max(0, count))
    case .unbounded: .unbounded
    }
  }
}
