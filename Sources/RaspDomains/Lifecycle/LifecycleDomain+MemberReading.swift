import RaspJSON

extension LifecycleDomain: RaspMemberReading {
  /// `changedAt`, `launches`, `memoryWarnings` and `phase`, by index.
  package func member(named name: String) -> RaspStateMember? {
    Self.member(named: name, among: ["changedAt", "launches", "memoryWarnings", "phase"])
  }

  package func value(of member: RaspStateMember, in state: LifecycleState) -> JSONValue {
    switch member.index {
    case 0: return state.changedAt?.asWritten ?? .null
    case 1: return .number(JSONNumber(state.launches))
    case 2: return .number(JSONNumber(state.memoryWarnings))
    default: return .string(state.phase.rawValue)
    }
  }
}
