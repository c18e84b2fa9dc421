/// What the drainer delivers after one piece of work: failures first, then a snapshot.
///
/// Produced under the aggregator's lock, delivered after releasing it. On the fast path — an
/// event that applied cleanly and is due to be seen — it holds the snapshot and a copy of the
/// observer array, which costs two retains and no allocation.
@usableFromInline
struct RaspDelivery<State: RaspState & Sendable> where State.Event: Sendable {
  @usableFromInline var snapshot: State?
  @usableFromInline var observers: [RaspObserver<State>]
  @usableFromInline var failures: [RaspFailure<State>]
  @usableFromInline var failureObservers: [RaspObserver<RaspFailure<State>>]

  @inlinable
  init(
    snapshot: State? = nil, observers: [RaspObserver<State>] = [],
    failures: [RaspFailure<State>] = [],
    failureObservers: [RaspObserver<RaspFailure<State>>] = []
  ) {
    self.snapshot = snapshot
    self.observers = observers
    self.failures = failures
    self.failureObservers = failureObservers
  }

  /// Whether there is nobody to call.
  @inlinable
  var isEmpty: Bool {
    (snapshot == nil || observers.isEmpty) && (failures.isEmpty || failureObservers.isEmpty)
  }

  /// Calls the failure observers with each failure, then the state observers with the snapshot.
  ///
  /// Must be called without holding the aggregator's lock.
  @inlinable
  func deliver() {
    for failure in failures {
      for observer in failureObservers { observer.receive(failure) }
    }
    if let snapshot {
      for observer in observers { observer.receive(snapshot) }
    }
  }
}

extension RaspDelivery: Sendable {}
