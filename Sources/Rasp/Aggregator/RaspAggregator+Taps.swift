extension RaspAggregator {
  /// Calls `body` with every event the aggregator applies, the state right after it, and the
  /// name of the source it came from — in the order the events are applied.
  ///
  /// A tap is how a recorder sees an app's events. It differs from a subscriber in three ways:
  /// - it is called by the thread that applies the event, **under the aggregator's lock**, so
  ///   taps of several aggregators see events in the order they were applied; it must be quick,
  ///   must not block for long, and must not call back into the aggregator;
  /// - it sees every applied event, whether or not the emission policy delivers a snapshot;
  ///   a rejected event (the reducer threw) is not applied and not seen;
  /// - a composite that succeeds is seen as its events, one by one, each with the state after
  ///   it; a composite that rolls back is not seen, and its fallback is, when it applies.
  ///
  /// The source is the ``RaspSource/name`` of the source that produced the event; `nil` for
  /// events from ``send(_:)``, composites, and sources without a name. The tap is called from
  /// the first event applied after this method returns, until the subscription is cancelled.
  ///
  /// ```swift
  /// let tap = aggregator.tapAppliedEvents { event, state, source in
  ///   print(source ?? "send", event, state.count)
  /// }
  /// aggregator.send(.increment)   // prints "send increment 1"
  /// ```
  ///
  /// - Parameter body: The callback: the event, the state after it, and the source's name.
  /// - Returns: The subscription; cancelling it (or releasing it) removes the tap.
  public func tapAppliedEvents(
    _ body: @escaping @Sendable (_ event: State.Event, _ state: State, _ source: String?) -> Void
  ) -> RaspSubscription {
    let id = core.withLock { core -> Int in
      let id = core.makeObserverID()
      core.taps.append(RaspTap(id: id, body: body))
      core.hasTaps = true
      return id
    }
    return RaspSubscription { [weak self] in
      self?.core.withLock { $0.removeTap(id: id) }
    }
  }

  /// Reports a recorder's failure to the failure subscribers, with origin
  /// ``RaspFailure/Origin/recorder``.
  ///
  /// For a recorder attached to the aggregator through ``tapAppliedEvents(_:)`` that can no
  /// longer write (a full disk, a removed directory). The failure is delivered in turn, as
  /// every failure is, and the state is untouched.
  ///
  /// ```swift
  /// aggregator.reportRecorderFailure(error)
  /// ```
  ///
  /// - Parameter error: What went wrong.
  public func reportRecorderFailure(_ error: any Error) {
    submit(.failure(error, origin: .recorder))
  }
}
