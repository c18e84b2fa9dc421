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
  /// Whether the observer reads nothing of the other domains' states either, so that, when
  /// the replay's records are thrown away (``ReplayConfiguration/discardsRecords``), their
  /// events are passed over (``DomainDemand``): numbered and counted, not decoded nor applied.
  package let passesOverOthers: Bool

  /// The domains at the positions where `observes` is `true`.
  ///
  /// - Parameters:
  ///   - observes: For each domain of the replay, in order, whether its events are told of.
  ///   - passesOverOthers: Whether the observer reads no state of the other domains.
  package init(observes: [Bool], passesOverOthers: Bool = false) {
    observed = observes
    self.passesOverOthers = passesOverOthers
  }

  /// Whether the events of the domain at `domainIndex` are told of.
  package func observes(domainIndex: Int) -> Bool { observed[domainIndex] }

  /// Whether the observer is told of an event of the domain at `domainIndex` that also changed
  /// `otherDomains`.
  @inline(__always)
  package func observes(domainIndex: Int, otherDomains: [Int]) -> Bool {
    observed[domainIndex] || (!otherDomains.isEmpty && otherDomains.contains { observed[$0] })
  }
}
