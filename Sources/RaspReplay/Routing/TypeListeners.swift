/// The events domains ask for besides their own: for each type, the events of other domains
/// that stand for it (``RaspDomains/RaspEventSchema/listensTo``, a spec's `"on"`), as Redux
/// Toolkit's `extraReducers` makes a slice react to another slice's action.
///
/// An event of a type that domains listen to is applied, all or nothing, to its own domain
/// (when it has one) and to each listening domain, in the order of the domains' names — the
/// order of their keys in the snapshot, as `combineReducers` applies its slices in key order.
/// In one domain, every event that stands for the type applies, in the order the domain lists
/// them. A domain's own types are never its listeners': `*.reset` in domain `cart` does not
/// stand for `cart.reset`, which is `cart`'s own event.
///
/// The targets of a routed type are found once, when the replay starts; those of a type no
/// domain has (`user.loggedOut` with no `user` domain, `ADD_TODO` in a Redux log) once per
/// type, when it first arrives.
///
/// ```swift
/// var listeners = TypeListeners(domains: snapshot.listeningDomains, typeNames: router.typeNames)
/// listeners.targets(domain: 3, event: 0)          // [Target(domain: 0, event: 2)]
/// listeners.targets(ofTypeNamed: "ADD_TODO")      // [Target(domain: 5, event: 1)]
/// ```
struct TypeListeners {
  /// An event of a domain that stands for a type.
  struct Target: Equatable {
    /// The domain's position in ``SnapshotState/domainNames``.
    let domain: Int
    /// The event's position in its domain's schema.
    let event: Int
  }

  /// Each listening event, with its domain's name and its patterns.
  private let listeners: [(target: Target, domainName: String, patterns: [TypeGlob])]
  /// The targets of each routed type, domain after domain, by event index.
  private let routed: [[Target]]
  /// Where each domain's types start in ``routed``.
  private let starts: [Int]
  /// The targets of the types no domain has, as found so far.
  private var unrouted: [String: [Target]] = [:]
  /// Whether no domain listens to any type other than its own: then nothing changes.
  let isEmpty: Bool

  /// The listeners of `domains` — each domain's name and, by event index, the patterns of
  /// the types its events stand for, in the snapshot's order — for the types `typeNames`, by
  /// domain and event index as the router numbers them.
  init(domains: [(name: String, listensTo: [[String]])], typeNames: [[String]]) {
    var listeners: [(target: Target, domainName: String, patterns: [TypeGlob])] = []
    for (domainIndex, domain) in domains.enumerated() {
      for (eventIndex, patterns) in domain.listensTo.enumerated() where !patterns.isEmpty {
        listeners.append(
          (Target(domain: domainIndex, event: eventIndex), domain.name, patterns.map(TypeGlob.init))
        )
      }
    }
    self.listeners = listeners
    isEmpty = listeners.isEmpty
    var starts: [Int] = []
    var routed: [[Target]] = []
    for names in typeNames {
      starts.append(routed.count)
      for name in names { routed.append(Self.targets(of: name, among: listeners)) }
    }
    self.routed = routed
    self.starts = starts
  }

  /// The events that stand for the routed type numbered `event` of domain `domain`, besides
  /// its own; empty when there are none.
  @inline(__always)
  func targets(domain: Int, event: Int) -> [Target] {
    guard domain >= 0, domain < starts.count else { return [] }
    let index = starts[domain] + event
    guard index < routed.count else { return [] }
    return routed[index]
  }

  /// The events that stand for `type`, a type no domain here has (`user.loggedOut`, `ADD_TODO`).
  mutating func targets(ofTypeNamed type: String) -> [Target] {
    if let known = unrouted[type] { return known }
    let found = Self.targets(of: type, among: listeners)
    unrouted[type] = found
    return found
  }

  /// Marks, in `domains` (by position), every domain that shares an event with a marked one:
  /// the owner and the listeners of a type, applied all or nothing, are all marked or none.
  /// The types no domain has are not known yet: a marked domain that listens at all marks
  /// every listening domain.
  func includeDomainsSharingEvents(in domains: inout [Bool]) {
    guard !isEmpty else { return }
    var groups: [[Int]] = [listeners.map(\.target.domain)]
    for domain in starts.indices {
      let end = domain + 1 < starts.count ? starts[domain + 1] : routed.count
      for index in starts[domain]..<end where !routed[index].isEmpty {
        groups.append([domain] + routed[index].map(\.domain))
      }
    }
    var changed = true
    while changed {
      changed = false
      for group in groups where group.contains(where: { domains[$0] }) {
        for domain in group where !domains[domain] {
          domains[domain] = true
          changed = true
        }
      }
    }
  }

  /// The listening events whose patterns match `type`, in the order of the domains and of
  /// their events, but none of the type's own domain.
  private static func targets(
    of type: String, among listeners: [(target: Target, domainName: String, patterns: [TypeGlob])]
  ) -> [Target] {
    listeners.compactMap { listener in
      guard !type.hasPrefix(listener.domainName + "."),
        listener.patterns.contains(where: { $0.matches(type) })
      else { return nil }
      return listener.target
    }
  }
}
