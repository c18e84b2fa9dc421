/// A subscriber's hold on an aggregator channel; cancel it, or release it, to stop listening.
///
/// Every subscription method of ``RaspAggregator`` returns one. The subscriber hears values until
/// ``cancel()`` is called or the subscription is released, whichever comes first — as with
/// Combine's `AnyCancellable`, so keep the subscription for as long as you want the values.
/// A subscriber cancelled from inside a callback — its own or another subscriber's — hears
/// nothing after that callback. Cancelled from another thread, it hears nothing once `cancel()`
/// has returned, except for a call the delivering thread had already begun. Cancelling twice does
/// nothing, and cancelling never changes the aggregator's state.
///
/// ```swift
/// var subscriptions: Set<RaspSubscription> = []
/// aggregator.subscribe { print($0.count) }.store(in: &subscriptions)
///
/// let once = aggregator.subscribe { print($0) }
/// once.cancel()
/// ```
public final class RaspSubscription: Sendable, Hashable {
  /// What cancelling does; `nil` once cancelled.
  private let cancellation: RaspMutex<(@Sendable () -> Void)?>

  /// Creates a subscription that runs `onCancel` once, on the first ``cancel()`` or on release.
  @usableFromInline
  init(onCancel: @escaping @Sendable () -> Void) {
    cancellation = RaspMutex(onCancel)
  }

  deinit {
    cancel()
  }

  /// Whether ``cancel()`` has been called.
  ///
  /// ```swift
  /// subscription.cancel()
  /// subscription.isCancelled   // true
  /// ```
  public var isCancelled: Bool {
    cancellation.withLock { $0 == nil }
  }

  /// Stops the subscriber from receiving any further value.
  ///
  /// ```swift
  /// let subscription = aggregator.subscribe { print($0) }
  /// subscription.cancel()
  /// ```
  public func cancel() {
    let onCancel = cancellation.withLock { onCancel in
      defer { onCancel = nil }
      return onCancel
    }
    onCancel?()
  }

  /// Keeps the subscription alive in `set`, until the set releases it.
  ///
  /// ```swift
  /// var subscriptions: Set<RaspSubscription> = []
  /// aggregator.subscribe { print($0) }.store(in: &subscriptions)
  /// ```
  ///
  /// - Parameter set: The set that will own the subscription.
  public func store(in set: inout Set<RaspSubscription>) {
    set.insert(self)
  }

  /// Whether two subscriptions are the same object.
  ///
  /// ```swift
  /// subscription == subscription   // true
  /// ```
  ///
  /// - Parameters:
  ///   - lhs: A subscription.
  ///   - rhs: Another subscription.
  /// - Returns: `true` when both are the same subscription.
  public static func == (lhs: RaspSubscription, rhs: RaspSubscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the subscription's identity.
  ///
  /// ```swift
  /// var hasher = Hasher()
  /// subscription.hash(into: &hasher)
  /// ```
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
