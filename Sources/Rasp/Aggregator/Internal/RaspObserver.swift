import Synchronization

/// One subscriber of an aggregator channel: the callback, and whether it still wants values.
///
/// The aggregator keeps observers in arrays and hands a copy of the array to the drainer, which
/// calls them after releasing the lock. Cancelling clears ``isActive`` first, so a subscriber
/// cancelled from inside a callback (or from the delivering thread) hears nothing more, even
/// from a delivery whose observer list was taken before the cancellation.
@usableFromInline
final class RaspObserver<Value>: Sendable {
  /// Identifies the observer in the aggregator's lists.
  @usableFromInline let id: Int

  /// Cleared by cancellation; checked before every delivery.
  @usableFromInline let isActive: Atomic<Bool>

  /// The subscriber's callback.
  @usableFromInline let onValue: @Sendable (Value) -> Void

  /// Called once when the aggregator goes away, to finish an `AsyncStream`.
  @usableFromInline let onFinish: (@Sendable () -> Void)?

  @usableFromInline
  init(
    id: Int, onValue: @escaping @Sendable (Value) -> Void,
    onFinish: (@Sendable () -> Void)? = nil
  ) {
    self.id = id
    self.isActive = Atomic(true)
    self.onValue = onValue
    self.onFinish = onFinish
  }

  /// Whether the observer has not been cancelled.
  @inlinable
  var isSubscribed: Bool { isActive.load(ordering: .acquiring) }

  /// Calls the subscriber with `value`, unless it has been cancelled.
  @inlinable
  func receive(_ value: Value) {
    if isSubscribed { onValue(value) }
  }

  /// Marks the observer cancelled; returns whether it was active until now.
  @usableFromInline
  func deactivate() -> Bool {
    isActive.exchange(false, ordering: .acquiringAndReleasing)
  }

  /// Finishes the observer's stream, if it has one, when the aggregator is released.
  @usableFromInline
  func finish() {
    if deactivate() { onFinish?() }
  }
}
