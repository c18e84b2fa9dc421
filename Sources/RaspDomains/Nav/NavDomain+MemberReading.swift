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
      // Room for the screens made once: `map` grows its array as it goes.
      var screens: [JSONValue] = []
      screens.reserveCapacity(state.stack.count)
      for screen in state.stack { screens.append(.string(screen)) }
      return .array(screens)
    default: return Self.optional(state.tab)
    }
  }
}
