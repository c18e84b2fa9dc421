import RaspJSON

extension RaspSpecDomain: RaspMemberReading {
  /// Any key: the state's member of that key, `null` while it has none or the state is not an
  /// object.
  package func member(named name: String) -> RaspStateMember? {
    RaspStateMember(name: name, index: 0)
  }

  package func value(of member: RaspStateMember, in state: RaspSpecState) -> JSONValue {
    guard case .object(let object) = state.value else { return .null }
    return object[member.name]?.asWritten ?? .null
  }
}
