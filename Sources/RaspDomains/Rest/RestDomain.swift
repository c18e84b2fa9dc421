import RaspJSON

/// The `rest` domain: REST/HATEOAS links by relation, as in the RASP seeds' example.
///
/// A response is logged as the HAL resource the server sent (draft-kelly-json-hal), or with
/// rasp's shorter `links` object:
///
/// | Event           | Payload                                                                |
/// |-----------------|------------------------------------------------------------------------|
/// | `rest.response` | HAL `_links`: relation → link object or array of them; or `links`:     |
/// |                 | relation → href string or link object                                  |
/// | `rest.link`     | `rel`, `href` strings; optional `templated`, `name`, `deprecation`     |
/// | `rest.unlink`   | `rel` string; optional `href`, `name` to remove only those links       |
/// | `rest.clear`    | none                                                                   |
///
/// State: `{"links":{}}` at first; `links` maps each relation to its href, to a link object
/// when the link is templated, named or deprecated, or to an array of them when HAL gave the
/// relation as an array (see ``RestRelation``).
///
/// ```swift
/// let replay = Replay(configuration: ReplayConfiguration(domains: [RestDomain()]), inputs: [log])
/// // {"type":"rest.response","payload":{"_links":{"item":[{"href":"/a"},{"href":"/b"}]}}}
/// // → {"rest":{"links":{"item":["/a","/b"]}}}
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
            name: "_links", type: "object", isRequired: false,
            summary:
              "A HAL resource's links: relation → link object, or → array of link objects "
              + "(a payload with `_links` or `_embedded` is read as HAL)."),
          RaspFieldSchema(
            name: "links", type: "object", isRequired: false,
            summary:
              "Without `_links`: relation → href string, or → link object with an `href` "
              + "string; required then."),
        ],
        // The resource's own members (`status`, `total`, `_embedded`) come with its links.
        acceptsOtherFields: true),
      RaspEventSchema(
        name: "link",
        summary:
          "Adds the relation, or replaces its link; in a list, the link of the same name (or "
          + "href), or adds one.",
        fields: [
          RaspFieldSchema(
            name: "rel", type: "string (non-empty)", isRequired: true, summary: "The relation."),
          RaspFieldSchema(name: "href", type: "string", isRequired: true, summary: "The target."),
          RaspFieldSchema(
            name: "templated", type: "boolean", isRequired: false,
            summary: "Whether the href is a URI template."),
          RaspFieldSchema(
            name: "name", type: "string", isRequired: false,
            summary: "Tells the relation's links apart."),
          RaspFieldSchema(
            name: "deprecation", type: "string", isRequired: false,
            summary: "A URL saying the link is going away."),
        ]),
      RaspEventSchema(
        name: "unlink",
        summary:
          "Removes the relation, or only its links with the href and name given; removing an "
          + "absent one changes nothing.",
        fields: [
          RaspFieldSchema(
            name: "rel", type: "string (non-empty)", isRequired: true, summary: "The relation."),
          RaspFieldSchema(
            name: "href", type: "string", isRequired: false,
            summary: "Only the links to this target."),
          RaspFieldSchema(
            name: "name", type: "string", isRequired: false, summary: "Only the links of this name."
          ),
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
  /// - Throws: ``RaspEventError`` for a missing or mistyped field, named by its full path:
  ///   `payload._links.item[1].href`.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> RestState.Event {
    switch name {
    case "response":
      if let relations = payload.readQuickly(Self.quickResponse) {
        return .replaceRelations(relations)
      }
      return .replaceRelations(try decodeResponse(&payload))
    case "link":
      if let link = payload.readQuickly(Self.quickLink) { return .set(link) }
      var link = RestLink(rel: "", href: "")
      var rel: String?
      var href: String?
      while let field = try payload.nextField() {
        switch field {
        case "rel": rel = try payload.nonEmptyString()
        case "href": href = try payload.string()
        case "templated": link.isTemplated = try payload.null() ? false : try payload.bool()
        case "name": link.name = try payload.null() ? nil : try payload.string()
        case "deprecation": link.deprecation = try payload.null() ? nil : try payload.string()
        default: try payload.skip()
        }
      }
      guard let rel else { throw payload.missing("rel") }
      guard let href else { throw payload.missing("href") }
      if rel == "curies", link.name == nil { throw payload.missing("name") }
      link.rel = rel
      link.href = href
      return .set(link)
    case "unlink":
      if let unlink = payload.readQuickly(Self.quickUnlink) { return unlink }
      var rel: String?
      var href: String?
      var linkName: String?
      while let field = try payload.nextField() {
        switch field {
        case "rel": rel = try payload.nonEmptyString()
        case "href": href = try payload.null() ? nil : try payload.string()
        case "name": linkName = try payload.null() ? nil : try payload.string()
        default: try payload.skip()
        }
      }
      guard let rel else { throw payload.missing("rel") }
      return .remove(rel: rel, href: href, name: linkName)
    default:
      while try payload.nextField() != nil { try payload.skip() }
      return .clear
    }
  }

  /// A response read quickly (``RaspPayload/readQuickly(_:)``): rasp's `links` and nothing
  /// else but a `status` number, each relation an href string or an object of an `href` string
  /// alone, none twice and none `curies` (whose link needs a `name`). HAL, and any other
  /// member, is read field by field (``decodeResponse(_:)``).
  private static func quickResponse(_ fields: inout RaspQuickPayload) -> [RestRelation]? {
    var relations: [RestRelation]?
    var hasStatus = false
    while let key = fields.nextKey() {
      switch key {
      case "status":
        guard !hasStatus, fields.number() != nil else { return nil }
        hasStatus = true
      case "links":
        guard relations == nil, let links = fields.object(quickRelations) else { return nil }
        relations = links
      default:
        return nil
      }
    }
    return relations
  }

  /// The relations of a response's `links` read quickly: href strings or `{"href":…}`.
  private static func quickRelations(_ fields: inout RaspQuickPayload) -> [RestRelation]? {
    var relations: [RestRelation] = []
    relations.reserveCapacity(8)  // as RestLinksReader does: one allocation
    while let key = fields.nextKey() {
      let rel = key.string
      guard rel != "curies", !relations.contains(where: { $0.rel == rel }) else { return nil }
      guard
        let href = fields.string()
          ?? fields.object({ link -> String? in
            guard let key = link.nextKey(), key == "href", let href = link.string(),
              link.nextKey() == nil
            else { return nil }
            return href
          })
      else { return nil }
      relations.append(RestRelation(rel: rel, href: href))
    }
    return relations
  }

  /// A link read quickly (``RaspPayload/readQuickly(_:)``): `rel` and `href`, strings, `rel`
  /// not `curies` (whose link needs a `name`).
  private static func quickLink(_ fields: inout RaspQuickPayload) -> RestLink? {
    guard let (rel, href) = quickRelation(&fields, hrefMayBeNull: false), let href,
      rel != "curies"
    else { return nil }
    return RestLink(rel: rel, href: href)
  }

  /// An unlink read quickly: `rel`, and `href`, a string or `null`, if any.
  private static func quickUnlink(_ fields: inout RaspQuickPayload) -> RestState.Event? {
    guard let (rel, href) = quickRelation(&fields, hrefMayBeNull: true) else { return nil }
    return .remove(rel: rel, href: href, name: nil)
  }

  /// `rel`, a string not empty, and `href`, a string (or `null`, read as none, when
  /// `hrefMayBeNull`) if there is one, in either order and nothing else, read quickly.
  /// Inlined, each caller's flag is a constant.
  @inline(__always)
  private static func quickRelation(
    _ fields: inout RaspQuickPayload, hrefMayBeNull: Bool
  ) -> (rel: String, href: String?)? {
    var rel: String?
    var href: String?
    var hasHref = false
    while let key = fields.nextKey() {
      switch key {
      case "rel":
        guard rel == nil, let value = fields.string(), !value.isEmpty else { return nil }
        rel = value
      case "href":
        guard !hasHref else { return nil }
        hasHref = true
        if hrefMayBeNull, fields.null() { continue }
        guard let value = fields.string() else { return nil }
        href = value
      default:
        return nil
      }
    }
    guard let rel else { return nil }
    return (rel, href)
  }

  /// Reads a response's relations: HAL's `_links` when the payload is a HAL resource (it has
  /// `_links` or `_embedded`), rasp's `links` otherwise.
  ///
  /// A HAL resource may have a property of its own named `links`, of any shape, before its
  /// `_links`; so a `links` that does not read as links is an error only once the payload
  /// turned out not to be HAL. Until then the first error is kept, and reported as it would
  /// have been at once when something later in the payload is wrong too.
  private func decodeResponse(_ payload: inout RaspPayload) throws(RaspEventError)
    -> [RestRelation]
  {
    var links: [RestRelation]?
    var halLinks: [RestRelation]?
    var isHAL = false
    var linksError: RaspEventError?
    do throws(RaspEventError) {
      while let field = try payload.nextField() {
        switch field {
        case "_links":
          isHAL = true
          halLinks = try payload.readRelations(.hal)
        case "_embedded":
          isHAL = true
          guard try payload.kind() == .object else {
            throw payload.wrongType(expected: "an object")
          }
          try payload.skip()
        case "links" where !isHAL:
          do throws(RaspEventError) {
            links = try payload.readRelations(.compact)
          } catch let failure {
            do { try payload.skip() } catch { throw failure }  // malformed JSON: at once
            linksError = failure
          }
        default:
          try payload.skip()
        }
      }
    } catch {
      if !isHAL, let linksError { throw linksError }
      throw error
    }
    if isHAL { return halLinks ?? [] }
    if let linksError { throw linksError }
    guard let links else { throw payload.missing("links") }
    return links
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes: each relation a plain link's
  /// href, a link object, or a list of them.
  ///
  /// ```swift
  /// let state = try RestDomain().decodeState(
  ///   try JSONParser.parse(#"{"links":{"self":"/orders"}}"#))
  /// ```
  ///
  /// - Parameter value: `{"links":{…}}`.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` naming the link that is not one this domain writes.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> RestState {
    func link(_ value: RaspStateValue, rel: String) throws(RaspStateError) -> RestLink {
      if case .string(let href) = value.value { return RestLink(rel: rel, href: href) }
      return RestLink(
        rel: rel, href: try value.member("href").string(),
        isTemplated: try value.optionalMember("templated")?.bool() ?? false,
        name: try value.optionalMember("name")?.string(),
        deprecation: try value.optionalMember("deprecation")?.string())
    }
    var relations: [RestRelation] = []
    for (rel, value) in try RaspStateValue(value).member("links").members() {
      if case .array = value.value {
        var links: [RestLink] = []
        for element in try value.array() { links.append(try link(element, rel: rel)) }
        relations.append(RestRelation(rel: rel, list: links))
      } else {
        relations.append(RestRelation(try link(value, rel: rel)))
      }
    }
    return RestState(relations: relations)
  }

  /// Writes `{"links":{"item":["/a","/b"],"next":"…","search":{"href":"…","templated":true}}}`:
  /// a plain link as its href, another as an object with sorted keys, a list as an array.
  ///
  /// ```swift
  /// RestDomain().encode(RestState(), into: &writer)   // {"links":{}}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: RestState, into writer: inout JSONWriter) {
    // The relations read where they are, by index: a relation bound by `for … in` is a copy,
    // its strings retained and released, atomic operations for every state written.
    state.relations.withUnsafeBufferPointer { relations in
      // Composed in a buffer of the most it can take (on the stack for links of a usual
      // size) and appended at once: one append instead of one a piece.
      var most = 16
      for index in relations.indices {
        most += JSONComposer.maximumCount(ofString: relations[index].rel) + 2
        switch relations[index].storage {
        case .href(let href): most += JSONComposer.maximumCount(ofString: href)
        case .link(let link): most += Self.maximumCount(of: link)
        case .list(let links):
          most += 2
          for link in links { most += Self.maximumCount(of: link) + 1 }
        }
      }
      func compose(_ json: inout JSONComposer) {
        json.writeRaw("{\"links\":{")
        for index in relations.indices {
          if index > 0 { json.writeRaw(",") }
          json.writeKey(relations[index].rel)
          switch relations[index].storage {
          case .href(let href):
            json.writeString(href)
          case .link(let link):
            Self.write(link, into: &json)
          case .list(let links):
            json.writeRaw("[")
            for (position, link) in links.enumerated() {
              if position > 0 { json.writeRaw(",") }
              Self.write(link, into: &json)
            }
            json.writeRaw("]")
          }
        }
        json.writeRaw("}}")
      }
      // A constant size keeps `compose` inlined (``NavDomain/encode(_:into:)``).
      if most <= Self.composedCount {
        writer.writeComposed(maximumCount: Self.composedCount, compose)
      } else {
        writer.writeComposed(maximumCount: most, compose)
      }
    }
  }

  /// The most bytes of a state composed on the stack (``encode(_:into:)``).
  static var composedCount: Int { 1024 }

  /// The most bytes ``write(_:into:)`` writes for a link: its strings' most, and 64 for the
  /// members' keys and punctuation (50 with every member).
  private static func maximumCount(of link: RestLink) -> Int {
    var most = 64 + JSONComposer.maximumCount(ofString: link.href)
    if let deprecation = link.deprecation {
      most += JSONComposer.maximumCount(ofString: deprecation)
    }
    if let name = link.name { most += JSONComposer.maximumCount(ofString: name) }
    return most
  }

  /// Writes a link: `"/orders"`, or `{"deprecation":…,"href":…,"name":…,"templated":true}`
  /// with the members it has.
  private static func write(_ link: RestLink, into json: inout JSONComposer) {
    guard !link.isPlain else { return json.writeString(link.href) }
    json.writeRaw("{")
    if let deprecation = link.deprecation {
      json.writeRaw("\"deprecation\":")
      json.writeString(deprecation)
      json.writeRaw(",")
    }
    json.writeRaw("\"href\":")
    json.writeString(link.href)
    if let name = link.name {
      json.writeRaw(",\"name\":")
      json.writeString(name)
    }
    if link.isTemplated { json.writeRaw(",\"templated\":true") }
    json.writeRaw("}")
  }
}

extension RaspPayload {
  /// Reads the current field's value as a response's relations, or throws and stays at it.
  fileprivate mutating func readRelations(_ dialect: RestLinksReader.Dialect)
    throws(RaspEventError) -> [RestRelation]
  {
    var reader = RestLinksReader(scanner: scanner, dialect: dialect)
    let relations = try reader.readRelations()
    scanner = reader.scanner
    return relations
  }
}
