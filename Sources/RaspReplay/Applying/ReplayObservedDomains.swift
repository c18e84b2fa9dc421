/// The domains whose events a ``ReplayStateObserver`` is told of, and how many events of the
/// others it was not told of.
///
/// An observer that reads some domains only (`rasp check --assert '.geo.heading < 360'`) gives
/// the kernel this, through ``ReplayStateObserver/observedDomains``: an event that changed none
/// of those domains is then applied, numbered and counted as ever, but the observer is not
/// called for it — only ``passedOver`` counts it, so that the observer can still say how many
/// events were applied. An event is told of when any domain it changed (its own, or one that
/// listens to its type) is observed.
///
/// ```swift
/// let observed = ReplayObservedDomains(observes: [false, true, false])   // nav only
/// observed.observes(domainIndex: 1, otherDomains: [])   // true
/// observed.passedOver                                     // the events of geo and the others
/// ```
package final class ReplayObservedDomains {
  /// Whether the observer is told of an event that changed the domain at each position of
  /// ``SnapshotState/domainNames``.
  private let observed: [Bool]
  /// How many events the observer was not told of: the kernel counts them.
  @exclusivity(unchecked) package internal(set) var passedOver = 0
  /// The domains whose states the observer reads, when it reads nothing of the others: when
  /// the replay's records are thrown away (``ReplayConfiguration/discardsRecords``), the
  /// others' events are passed over (``DomainDemand``) — numbered, counted and told of as
  /// ever, not decoded nor applied. `nil` when it may read every domain's state.
  package let statesRead: [Bool]?

  /// The domains at the positions where `observes` is `true`.
  ///
  /// - Parameters:
  ///   - observes: For each domain of the replay, in order, whether its events are told of.
  ///   - statesRead: For each domain, whether the observer reads its state; `nil` for all.
  package init(observes: [Bool], statesRead: [Bool]? = nil) {
    observed = observes
    self.statesRead = statesRead
  }

  /// Whether the observer is told of an event of the domain at `domainIndex` that also changed
  /// `otherDomains`.
  @inline(__always)
  package func observes(domainIndex: Int, otherDomains: [Int]) -> Bool {
    observed[domainIndex] || (!otherDomains.isEmpty && otherDomains.contains { observed[$0] })
  }
}
