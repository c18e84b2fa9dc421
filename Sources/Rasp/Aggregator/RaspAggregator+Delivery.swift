/// The drain loop: how queued work reaches subscribers one delivery at a time.
///
/// Whoever finds the aggregator idle becomes the drainer. Under the lock it performs a piece of
/// work and takes a copy of the subscriber list; it releases the lock and delivers; it takes the
/// lock again and performs the next piece of work, until the queue is empty. Work that arrives
/// meanwhile — from other threads, from sources, from subscribers — is only queued. So no two
/// deliveries ever overlap and each subscriber sees every snapshot in the same order.
extension RaspAggregator {
  /// Delivers `first`, then performs the queued work, delivering as it goes, until nothing is
  /// left; then marks the aggregator idle.
  ///
  /// Called by the thread that set `isDraining`, with the lock released.
  @inlinable
  func drain(startingWith first: RaspDelivery<State>) {
    var delivery = first
    while true {
      delivery.deliver()
      guard let next = core.withLock({ $0.nextDelivery() }) else { return }
      delivery = next
    }
  }

  /// Delivers `first`, then performs the rest of a batch, then the queued work, delivering as it
  /// goes, until nothing is left; then marks the aggregator idle.
  ///
  /// The rest of the batch comes before the queue, so that nothing arriving during the batch
  /// is applied in the middle of it.
  @inlinable
  func drain<Remaining: IteratorProtocol>(
    startingWith first: RaspDelivery<State>, remaining: inout Remaining
  ) where Remaining.Element == State.Event {
    var delivery = first
    while true {
      delivery.deliver()
      let next = core.withLock { core -> RaspDelivery<State>? in
        while let event = remaining.next() {
          let delivery = core.perform(event: event)
          if !delivery.isEmpty { return delivery }
        }
        return core.nextDelivery()
      }
      guard let next else { return }
      delivery = next
    }
  }

  /// Performs `work` now if the aggregator is idle, otherwise queues it for the drainer.
  ///
  /// With a `generation`, the work is dropped unless it comes from the current set of sources.
  ///
  /// - Returns: `false` when the work was dropped because its source has been replaced.
  @usableFromInline
  @discardableResult
  func submit(_ work: RaspWork<State>, generation: Int? = nil) -> Bool {
    var isCurrent = true
    let delivery = core.withLock { core -> RaspDelivery<State>? in
      if let generation, !core.isCurrentSource(generation) {
        isCurrent = false
        return nil
      }
      guard !core.isDraining else {
        core.queue.append(work)
        return nil
      }
      let delivery = core.perform(work)
      if delivery.isEmpty { return nil }
      core.isDraining = true
      return delivery
    }
    if let delivery { drain(startingWith: delivery) }
    return isCurrent
  }
}
