/// The domains whose state the output can show: what is printed decides what is computed.
///
/// With `--select` on a path of one domain (`nav.tab`), only that domain's events can change
/// what is printed. An event of another domain is then passed over: counted as applied, with
/// its number, its key and its record as before, and its payload checked to be JSON (as for an
/// event `--drop` matches), but neither decoded against its type nor applied. A selection of
/// the event itself (`event.meta.user`) needs no domain at all.
///
/// When the records are thrown away and an observer is what the replay is for (`rasp check
/// --assert`, `rasp find`; ``ReplayConfiguration/discardsRecords``), the domains needed are
/// those whose states the observer reads (``ReplayObservedDomains/statesRead``): the events of
/// the others are passed over in the same way.
///
/// Every domain is needed otherwise: without `--select`, for a path of the whole snapshot,
/// under `--strict` (which keeps every check of every event), with any other observer
/// (`blame`, `report --assert`, `find --with-state`, an assertion over `$event` or the whole
/// state), and with checkpoints, which save every domain's state for a replay resumed with
/// other options.
///
/// An event that domains listen to (``TypeListeners``) is applied all or nothing, so a domain
/// that shares such an event with a needed domain is needed too: its refusal would keep the
/// needed domain's state.
///
/// ```swift
/// let demand = DomainDemand(configuration, selection: selection, listeners: listeners,
///                           domainCount: 6)
/// demand.needsEvery     // false, for --select nav.tab
/// demand.needs(1)       // true: nav
/// demand.needs(0)       // false: geo's events are passed over
/// ```
struct DomainDemand {
  /// Whether each domain is needed, by its position in ``SnapshotState/domainNames``.
  private let needed: [Bool]
  /// Whether every domain is needed: then nothing is passed over.
  let needsEvery: Bool
  /// Whether the domains needed are those an observer reads, not those `--select` reads.
  let isForObserver: Bool

  /// The demand of a replay of `configuration`, whose `--select` is `selection`, with the
  /// `listeners` of its `domainCount` domains.
  init(
    _ configuration: ReplayConfiguration, selection: ReplaySelection?,
    listeners: TypeListeners, domainCount: Int
  ) {
    let keepsEveryCheck =
      configuration.isStrict || configuration.checkpointInterval != nil
      || configuration.checkpointsAtEnd
    var needed = Array(repeating: false, count: domainCount)
    if !keepsEveryCheck, configuration.discardsRecords,
      let statesRead = configuration.stateObserver?.observedDomains?.statesRead,
      statesRead.count == domainCount
    {
      needed = statesRead
      isForObserver = true
    } else if !keepsEveryCheck, configuration.stateObserver == nil, let selection,
      selection.domain != nil || selection.isOfEvent
    {
      if let domain = selection.domain { needed[domain] = true }
      isForObserver = false
    } else {
      self.needed = Array(repeating: true, count: domainCount)
      needsEvery = true
      isForObserver = false
      return
    }
    listeners.includeDomainsSharingEvents(in: &needed)
    self.needed = needed
    needsEvery = !needed.contains(false)
  }

  /// Whether the domain at `index` is needed.
  @inline(__always)
  func needs(_ index: Int) -> Bool { needed[index] }
}
