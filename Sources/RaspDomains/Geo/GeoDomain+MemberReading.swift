import RaspJSON

extension GeoDomain: RaspMemberReading {
  /// `accuracy`, `heading` and `location`, by index.
  package func member(named name: String) -> RaspStateMember? {
    Self.member(named: name, among: ["accuracy", "heading", "location"])
  }

  package func value(of member: RaspStateMember, in state: GeoState) -> JSONValue {
    switch member.index {
    case 0: return Self.optional(state.accuracy)
    case 1: return Self.optional(state.heading)
    default:
      guard let location = state.location else { return .null }
      return Self.object([
        ("latitude", .written(location.latitude)), ("longitude", .written(location.longitude)),
      ])
    }
  }
}
