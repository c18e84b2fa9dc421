import RaspJSON

extension NavDomain: RaspMemberReading {
  /// `modal`, `stack` and `tab`, by index.
  package func member(named name: String) -> RaspStateMember? {
    Self.member(named: name, among: ["modal", "stack", "tab"])
  }

  package func value(of member: RaspStateMember, in state: NavState) -> JSONValue {
    switch member.index {
    case 0: return Self.optional(state.modal)
    case 1:
      var stack = JSONValue.null
      Self.strings(state.stack, into: &stack)
      return stack
    default: return Self.optional(state.tab)
    }
  }

  /// `stack` in the room of the array read before.
  package func read(_ member: RaspStateMember, in state: NavState, into value: inout JSONValue) {
    guard member.index == 1 else {
      value = self.value(of: member, in: state)
      return
    }
    Self.strings(state.stack, into: &value)
  }
}
