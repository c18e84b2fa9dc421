import RaspJSON

/// The `rest` domain: REST/HATEOAS links by relation, as in the RASP seeds' example.
///
/// | Event           | Payload                                                           |
/// |-----------------|-------------------------------------------------------------------|
/// | `rest.response` | `links`: object of relation → href string, or HAL `{"href": …}`   |
/// | `rest.link`     | `rel` string, `href` string                                       |
/// | `rest.unlink`   | `rel` string                                                      |
/// | `rest.clear`    | none                                                              |
///
/// State: `{"links":{}}` at first; `links` maps each relation to its href.
///
/// ```swift
/// let replay = Replay(configuration: ReplayConfiguration(domains: [RestDomain()]), inputs: [log])
/// ```
public struct RestDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let rest = RestDomain()
  /// ```
  public init() {}

  /// `rest`.
  public var name: String { "rest" }

  /// What the domain holds.
  public var summary: String {
    "REST/HATEOAS links by relation: where the client can go next."
  }

  /// `response`, `link`, `unlink` and `clear`.
  public var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "response", summary: "A response brought links; they replace the whole set.",
        fields: [
          RaspFieldSchema(
            name: "links", type: "object", isRequired: true,
            summary: "Relation → href string, or → HAL link object with an `href` string.")
        ]),
      RaspEventSchema(
        name: "link", summary: "Adds the relation, or replaces its href.",
        fields: [
          RaspFieldSchema(
            name: "rel", type: "string (non-empty)", isRequired: true, summary: "The relation."),
          RaspFieldSchema(name: "href", type: "string", isRequired: true, summary: "The target."),
        ]),
      RaspEventSchema(
        name: "unlink", summary: "Removes the relation; removing an absent one changes nothing.",
        fields: [
          RaspFieldSchema(
            name: "rel", type: "string (non-empty)", isRequired: true, summary: "The relation.")
        ]),
      RaspEventSchema(name: "clear", summary: "Removes every link.", fields: []),
    ]
  }

  /// No links.
  public var initialState: RestState { RestState() }

  /// Decodes the `rest` events.
  ///
  /// ```swift
  /// let event = try RestDomain().decodeEvent(name, payload: &payload, context: .none)
  /// ```
  ///
  /// - Parameters:
  ///   - name: `response`, `link`, `unlink` or `clear`.
  ///   - payload: The payload.
  ///   - context: Unused.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a missing or mistyped field.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> RestState.Event {
    switch name {
    case "response":
      var links: [RestLink]?
      while let field = try payload.nextField() {
        if field == "links" { links = try decodeLinks(&payload) } else { try payload.skip() }
      }
      guard let links else { throw payload.missing("links") }
      return .replaceAll(links)
    case "link", "unlink":
      var rel: String?
      var href: String?
      let needsHref = name == "link"
      while let field = try payload.nextField() {
        switch field {
        case "rel": rel = try payload.nonEmptyString()
        case "href" where needsHref: href = try payload.string()
        default: try payload.skip()
        }
      }
      guard let rel else { throw payload.missing("rel") }
      guard needsHref else { return .remove(rel: rel) }
      guard let href else { throw payload.missing("href") }
      return .set(RestLink(rel: rel, href: href))
    default:
      while try payload.nextField() != nil { try payload.skip() }
      return .clear
    }
  }

  private func decodeLinks(_ payload: inout RaspPayload) throws(RaspEventError) -> [RestLink] {
    try payload.beginObject()
    var links: [RestLink] = []
    links.reserveCapacity(8)  // a response's links rarely number more: one allocation, not four
    while let rel = try payload.nextField() {
      let relation = rel.string
      switch try payload.kind() {
      case .string:
        links.append(RestLink(rel: relation, href: try payload.string()))
      case .object:
        try payload.beginObject()
        var href: String?
        while let field = try payload.nextField() {
          if field == "href" { href = try payload.string() } else { try payload.skip() }
        }
        guard let href else { throw payload.missing("href") }
        links.append(RestLink(rel: relation, href: href))
      default:
        throw payload.wrongType(expected: "a string or an object with an 'href' string")
      }
    }
    return links
  }

  /// Writes `{"links":{"next":"…","self":"…"}}`.
  ///
  /// ```swift
  /// RestDomain().encode(RestState(), into: &writer)   // {"links":{}}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: RestState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"links\":{")
    for (index, link) in state.links.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeKey(link.rel)
      writer.writeString(link.href)
    }
    writer.writeRaw("}}")
  }
}
