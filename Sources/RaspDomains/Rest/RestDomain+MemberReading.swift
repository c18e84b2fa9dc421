import RaspJSON

extension RestDomain: RaspMemberReading {
  /// `links`, the only member.
  package func member(named name: String) -> RaspStateMember? {
    Self.member(named: name, among: ["links"])
  }

  package func value(of member: RaspStateMember, in state: RestState) -> JSONValue {
    var links = JSONObject()
    for relation in state.relations {
      switch relation.storage {
      case .href(let href): links[relation.rel] = .string(href)
      case .link(let link): links[relation.rel] = Self.link(link)
      case .list(let list): links[relation.rel] = .array(list.map(Self.link))
      }
    }
    return .object(links)
  }

  /// A link as ``encode(_:into:)`` writes it: its href, or an object of the members it has.
  private static func link(_ link: RestLink) -> JSONValue {
    guard !link.isPlain else { return .string(link.href) }
    var members: [(key: String, value: JSONValue)] = []
    if let deprecation = link.deprecation { members.append(("deprecation", .string(deprecation))) }
    members.append(("href", .string(link.href)))
    if let name = link.name { members.append(("name", .string(name))) }
    if link.isTemplated { members.append(("templated", .bool(true))) }
    return object(members)
  }
}
