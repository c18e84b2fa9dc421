import RaspDomains
import RaspJSON
import Testing

/// Rest's JSON, composed in one buffer, on the stack for links of a usual size and in a buffer
/// of its own size for more, is what the writer's own calls make of the state, byte for byte.
@Suite struct RestDomainEncodingTests {
  /// The state's JSON as the writer's calls write it, piece by piece, from its public view:
  /// each relation's key, then a plain single link as its href, another as an object with
  /// sorted members, a list as an array.
  private func expected(_ state: RestState) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{\"links\":{")
    for (index, relation) in state.relations.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeKey(relation.rel)
      if relation.isList {
        writer.writeRaw("[")
        for (position, link) in relation.links.enumerated() {
          if position > 0 { writer.writeRaw(",") }
          write(link, into: &writer)
        }
        writer.writeRaw("]")
      } else if let link = relation.links.first {
        write(link, into: &writer)
      }
    }
    writer.writeRaw("}}")
    return writer.bytes
  }

  private func write(_ link: RestLink, into writer: inout JSONWriter) {
    guard !link.isPlain else { return writer.writeString(link.href) }
    writer.writeRaw("{")
    if let deprecation = link.deprecation {
      writer.writeKey("deprecation")
      writer.writeString(deprecation)
      writer.writeRaw(",")
    }
    writer.writeKey("href")
    writer.writeString(link.href)
    if let name = link.name {
      writer.writeRaw(",")
      writer.writeKey("name")
      writer.writeString(name)
    }
    if link.isTemplated { writer.writeRaw(",\"templated\":true") }
    writer.writeRaw("}")
  }

  @Test func writesWhatTheWriterWritesForStatesSmallAndLarge() {
    let texts = [
      "/orders", "", "a\"b", "back\\slash", "line\nbreak", "tab\t", "\u{1}\u{1F}\u{7F}",
      "café", "日本", "🧭", "\r\u{8}\u{C}", String(repeating: "x", count: 300),
      String(repeating: "\u{1}", count: 200),
    ]
    var states = [RestState()]
    for (index, text) in texts.enumerated() {
      let other = texts[(index + 5) % texts.count]
      // A plain link; a link with every attribute; a list of both kinds.
      let attributed = RestLink(
        rel: "edit", href: other, isTemplated: true, name: text, deprecation: other)
      states.append(RestState(links: [RestLink(rel: text, href: other)]))
      states.append(
        RestState(relations: [
          RestRelation(RestLink(rel: "self", href: text)), RestRelation(attributed),
          RestRelation(
            rel: "item",
            list: [
              RestLink(rel: "item", href: text), attributed,
              RestLink(rel: "item", href: other, name: "n"),
            ]),
          RestRelation(rel: "empty", list: []),
        ]))
      // Large: far more than a usual response's links, composed in a buffer of their size.
      states.append(
        RestState(
          relations: (0..<40).map { number in
            number % 2 == 0
              ? RestRelation(RestLink(rel: "r\(number)\(text)", href: other, name: text))
              : RestRelation(rel: "l\(number)", list: Array(repeating: attributed, count: 3))
          }))
    }
    for state in states {
      var writer = JSONWriter()
      RestDomain().encode(state, into: &writer)
      #expect(writer.bytes == expected(state), "\(state)")
    }
  }
}
