/// What becomes of the events of each type a replay routes, under `--drop` and `--hide`:
/// applied and printed, left out (dropped), or applied without a record (hidden).
///
/// The patterns are matched once per type, when the replay starts, against every type its
/// domains define; an event then looks its type's action up by the domain and event numbers
/// its routing found, so that no pattern is matched per event. A type that both options match
/// is dropped.
///
/// ```swift
/// let filter = TypeFilter(
///   dropping: [TypeGlob("nav.*")], hiding: [], typeNames: router.typeNames)
/// filter?.action(domain: routed.domainIndex, event: routed.eventIndex)   // .drop
/// ```
struct TypeFilter {
  /// What becomes of an event.
  enum Action: UInt8 {
    /// Applied, and its record written: the default.
    case apply
    /// Not applied, and no record (`--drop`).
    case drop
    /// Applied, without a record (`--hide`).
    case hide
  }

  /// Where each domain's types start in ``actions``.
  private let firstEvent: [Int]
  /// The action of every type, domain by domain.
  private let actions: [Action]
  /// Whether some type is hidden.
  let hidesSome: Bool

  /// The filter of these patterns over the types routed, by domain (``Router/typeNames``);
  /// `nil` when no pattern is given.
  init?(dropping drops: [TypeGlob], hiding hides: [TypeGlob], typeNames: [[String]]) {
    guard !drops.isEmpty || !hides.isEmpty else { return nil }
    var firstEvent: [Int] = []
    var actions: [Action] = []
    for names in typeNames {
      firstEvent.append(actions.count)
      for name in names {
        if drops.contains(where: { $0.matches(name) }) {
          actions.append(.drop)
        } else if hides.contains(where: { $0.matches(name) }) {
          actions.append(.hide)
        } else {
          actions.append(.apply)
        }
      }
    }
    self.firstEvent = firstEvent
    self.actions = actions
    hidesSome = actions.contains(.hide)
  }

  /// The action of the type numbered `event` of the domain numbered `domain`.
  @inline(__always)
  func action(domain: Int, event: Int) -> Action {
    actions[firstEvent[domain] + event]
  }
}
