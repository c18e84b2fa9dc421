import Testing
import RaspDomains

@Suite struct RestStateTests {
  @Test func aResponseReplacesEveryLinkAndKeepsThemSorted() {
    var rest = RestState(links: [RestLink(rel: "old", href: "/old")])
    rest.apply(
      event: .replaceAll([
        RestLink(rel: "self", href: "/orders"), RestLink(rel: "next", href: "/orders?page=2"),
        RestLink(rel: "next", href: "/orders?page=3"),
      ]))
    #expect(
      rest.links == [
        RestLink(rel: "next", href: "/orders?page=3"), RestLink(rel: "self", href: "/orders"),
      ])
    #expect(rest["old"] == nil)
  }

  @Test func setReplacesOrInsertsInOrder() {
    var rest = RestState(links: [RestLink(rel: "b", href: "1")])
    rest.apply(event: .set(RestLink(rel: "a", href: "2")))
    rest.apply(event: .set(RestLink(rel: "c", href: "3")))
    rest.apply(event: .set(RestLink(rel: "b", href: "4")))
    #expect(rest.links.map(\.rel) == ["a", "b", "c"])
    #expect(rest["b"] == "4")
  }

  @Test func removeAndClear() {
    var rest = RestState(links: [RestLink(rel: "a", href: "1"), RestLink(rel: "b", href: "2")])
    rest.apply(event: .remove(rel: "absent"))
    #expect(rest.links.count == 2)
    rest.apply(event: .remove(rel: "a"))
    #expect(rest.links == [RestLink(rel: "b", href: "2")])
    rest.apply(event: .clear)
    #expect(rest == RestState())
    #expect(RestState.throwsBeforeMutating)
  }

  @Test func aRelationKeepsTheShapeItCameIn() {
    var rest = RestState()
    rest.apply(
      event: .replaceRelations([
        RestRelation(RestLink(rel: "self", href: "/orders")),
        RestRelation(rel: "item", list: [RestLink(rel: "item", href: "/orders/123")]),
        RestRelation(rel: "empty", list: []),
      ]))
    #expect(rest.relations.map(\.rel) == ["empty", "item", "self"])
    #expect(rest.relations.map(\.isList) == [true, true, false])
    #expect(rest["item"] == "/orders/123")
    #expect(rest["empty"] == nil)
    #expect(rest.relation("empty")?.links == [])
    #expect(rest.relation("absent") == nil)
    #expect(RestRelation(rel: "item", list: []) != RestRelation(rel: "other", list: []))
  }

  @Test func aListTakesTheRelationOfItsLinks() {
    let relation = RestRelation(rel: "item", list: [RestLink(rel: "other", href: "/a")])
    #expect(relation.links == [RestLink(rel: "item", href: "/a")])
  }

  @Test func aRelationGivenTwiceKeepsTheLast() {
    let rest = RestState(relations: [
      RestRelation(rel: "item", list: [RestLink(rel: "item", href: "/a")]),
      RestRelation(RestLink(rel: "item", href: "/b")),
    ])
    #expect(rest.relations == [RestRelation(RestLink(rel: "item", href: "/b"))])
  }

  @Test func setJoinsAListReplacingTheLinkOfTheSameNameOrHref() {
    var rest = RestState(relations: [
      RestRelation(
        rel: "item",
        list: [
          RestLink(rel: "item", href: "/a", name: "a"), RestLink(rel: "item", href: "/b"),
        ])
    ])
    rest.apply(event: .set(RestLink(rel: "item", href: "/c")))
    rest.apply(event: .set(RestLink(rel: "item", href: "/b", isTemplated: true)))
    rest.apply(event: .set(RestLink(rel: "item", href: "/a2", name: "a")))
    #expect(
      rest.relation("item")?.links == [
        RestLink(rel: "item", href: "/a2", name: "a"),
        RestLink(rel: "item", href: "/b", isTemplated: true),
        RestLink(rel: "item", href: "/c"),
      ])
    rest.apply(event: .set(RestLink(rel: "item", href: "/c")))
    #expect(rest.relation("item")?.links.count == 3, "the same link twice is one link")
  }

  @Test func removeTakesOnlyTheLinksWithTheHrefAndNameGiven() {
    let item = RestRelation(
      rel: "item",
      list: [
        RestLink(rel: "item", href: "/a", name: "a"), RestLink(rel: "item", href: "/b"),
        RestLink(rel: "item", href: "/a"),
      ])
    var rest = RestState(relations: [item, RestRelation(RestLink(rel: "self", href: "/"))])
    rest.apply(event: .remove(rel: "item", href: "/a", name: "b"))
    #expect(rest.relation("item") == item, "no link has both")
    rest.apply(event: .remove(rel: "item", name: "a"))
    #expect(rest.relation("item")?.links.map(\.href) == ["/b", "/a"])
    rest.apply(event: .remove(rel: "item", href: "/a"))
    rest.apply(event: .remove(rel: "item", href: "/b"))
    #expect(rest.relation("item") == RestRelation(rel: "item", list: []), "a list stays")
    rest.apply(event: .remove(rel: "self", href: "/other"))
    #expect(rest["self"] == "/")
    rest.apply(event: .remove(rel: "self", href: "/"))
    #expect(rest.relation("self") == nil, "a single link's relation goes with it")
    rest.apply(event: .remove(rel: "absent", href: "/"))
    rest.apply(event: .remove(rel: "item"))
    #expect(rest == RestState())
  }

  @Test func aLinkIsPlainWithoutTemplatedNameOrDeprecation() {
    #expect(RestLink(rel: "self", href: "/").isPlain)
    #expect(!RestLink(rel: "find", href: "/o{?id}", isTemplated: true).isPlain)
    #expect(!RestLink(rel: "item", href: "/a", name: "a").isPlain)
    #expect(!RestLink(rel: "old", href: "/o", deprecation: "/why").isPlain)
  }
}
