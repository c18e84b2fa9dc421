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
}
