import RaspJSON

extension DataDomain: RaspMemberReading {
  /// Any key: the store's member of that key, `null` while it has none.
  package func member(named name: String) -> RaspStateMember? {
    RaspStateMember(name: name, index: 0)
  }

  package func value(of member: RaspStateMember, in state: DataState) -> JSONValue {
    state.store[member.name]?.asWritten ?? .null
  }
}
