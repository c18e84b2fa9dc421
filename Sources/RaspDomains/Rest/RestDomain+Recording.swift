import RaspJSON

extension RestDomain: RaspRecordableDomain {
  /// Writes a `rest` event as its log line's name and payload: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// A response is written the way the state writes its links — rasp's `links`, each relation
  /// its href or, for a templated, named or deprecated link, a link object — or, when one of
  /// its relations is a list, which rasp's `links` cannot hold, as HAL's `_links`, each relation
  /// a link object or an array of them. Relations are written in key order, once each: a
  /// relation given twice is written with its last link, as ``RestState`` keeps it, so a
  /// response decodes to its relations sorted and unique, with the same effect on the state.
  /// ``RestState/Event/replaceAll(_:)``, which no log line decodes to, is written as the
  /// response of its links and comes back as ``RestState/Event/replaceRelations(_:)``.
  ///
  /// `link` is written as `{"deprecation":…,"href":…,"name":…,"rel":…,"templated":true}` and
  /// `unlink` as `{"href":…,"name":…,"rel":…}`, each with the members it has; `clear` has no
  /// payload. Every event takes the recorder's clock as its time.
  ///
  /// The decoder refuses what the events can hold but a log cannot: a `link` or `unlink` with
  /// an empty relation, and a `curies` link without a name.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// RestDomain().encodeEvent(
  ///   .set(RestLink(rel: "find", href: "/orders{?id}", isTemplated: true)), into: &record)
  /// record.name   // "link"
  /// // payload: {"href":"/orders{?id}","rel":"find","templated":true}
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and payload; its time stays the clock's.
  public func encodeEvent(_ event: RestState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .replaceAll(let links):
      record.name = "response"
      record.payload.writeRaw("{\"links\":{")
      var isFirst = true
      Self.forEachInRelationOrder(links, rel: { $0.rel }) { link in
        if !isFirst { record.payload.writeRaw(",") }
        isFirst = false
        record.payload.writeKey(link.rel)
        if link.isPlain {
          record.payload.writeString(link.href)
        } else {
          Self.writeObject(link, into: &record.payload)
        }
      }
      record.payload.writeRaw("}}")
    case .replaceRelations(let relations):
      record.name = "response"
      let isHAL = relations.contains { $0.isList }
      record.payload.writeRaw(isHAL ? "{\"_links\":{" : "{\"links\":{")
      var isFirst = true
      Self.forEachInRelationOrder(relations, rel: { $0.rel }) { relation in
        if !isFirst { record.payload.writeRaw(",") }
        isFirst = false
        record.payload.writeKey(relation.rel)
        Self.write(relation, isHAL: isHAL, into: &record.payload)
      }
      record.payload.writeRaw("}}")
    case .set(let link):
      record.name = "link"
      if let deprecation = link.deprecation {
        record.payload.writeRaw("{\"deprecation\":")
        record.payload.writeString(deprecation)
        record.payload.writeRaw(",\"href\":")
      } else {
        record.payload.writeRaw("{\"href\":")
      }
      record.payload.writeString(link.href)
      if let name = link.name {
        record.payload.writeRaw(",\"name\":")
        record.payload.writeString(name)
      }
      record.payload.writeRaw(",\"rel\":")
      record.payload.writeString(link.rel)
      record.payload.writeRaw(link.isTemplated ? ",\"templated\":true}" : "}")
    case .remove(let rel, let href, let name):
      record.name = "unlink"
      record.payload.writeRaw("{")
      if let href {
        record.payload.writeRaw("\"href\":")
        record.payload.writeString(href)
        record.payload.writeRaw(",")
      }
      if let name {
        record.payload.writeRaw("\"name\":")
        record.payload.writeString(name)
        record.payload.writeRaw(",")
      }
      record.payload.writeRaw("\"rel\":")
      record.payload.writeString(rel)
      record.payload.writeRaw("}")
    case .clear:
      record.name = "clear"
    }
  }

  /// Writes a relation's value: in rasp's `links`, a plain link as its href and another as a
  /// link object; in HAL's `_links`, every link as a link object, and a list as an array.
  private static func write(_ relation: RestRelation, isHAL: Bool, into writer: inout JSONWriter) {
    switch relation.storage {
    case .href(let href):
      if isHAL { writer.writeRaw("{\"href\":") }
      writer.writeString(href)
      if isHAL { writer.writeRaw("}") }
    case .link(let link):
      writeObject(link, into: &writer)
    case .list(let links):
      writer.writeRaw("[")
      for index in links.indices {
        if index > links.startIndex { writer.writeRaw(",") }
        writeObject(links[index], into: &writer)
      }
      writer.writeRaw("]")
    }
  }

  /// Writes a link object, `{"deprecation":…,"href":…,"name":…,"templated":true}`, with the
  /// members the link has.
  private static func writeObject(_ link: RestLink, into writer: inout JSONWriter) {
    if let deprecation = link.deprecation {
      writer.writeRaw("{\"deprecation\":")
      writer.writeString(deprecation)
      writer.writeRaw(",\"href\":")
    } else {
      writer.writeRaw("{\"href\":")
    }
    writer.writeString(link.href)
    if let name = link.name {
      writer.writeRaw(",\"name\":")
      writer.writeString(name)
    }
    writer.writeRaw(link.isTemplated ? ",\"templated\":true}" : "}")
  }

  /// Calls `body` with the elements in code point order of their relations, once per relation:
  /// of the elements with the same relation, the last — the order and the choice of
  /// ``RestState``, and the keys of a JSON object, which must be unique.
  ///
  /// Elements already in order, as decoded responses are, are visited in one pass; others by
  /// choosing the next relation in a pass each, which allocates nothing.
  private static func forEachInRelationOrder<Element>(
    _ elements: [Element], rel: (Element) -> String, _ body: (Element) -> Void
  ) {
    var isSorted = true
    for index in elements.indices.dropFirst()
    where !JSONObject.keyPrecedes(rel(elements[index - 1]), rel(elements[index])) {
      isSorted = false
      break
    }
    if isSorted {
      for element in elements { body(element) }
      return
    }
    var previous: String?
    while true {
      var chosen: Int?
      var chosenRel = ""
      for index in elements.indices {
        let candidate = rel(elements[index])
        if let previous, !JSONObject.keyPrecedes(previous, candidate) { continue }
        // The smallest relation after the previous one; of equal ones, the last.
        if chosen == nil || !JSONObject.keyPrecedes(chosenRel, candidate) {
          chosen = index
          chosenRel = candidate
        }
      }
      guard let chosen else { return }
      body(elements[chosen])
      previous = chosenRel
    }
  }
}
