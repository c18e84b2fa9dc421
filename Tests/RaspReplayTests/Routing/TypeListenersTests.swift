import Testing

@testable import RaspReplay

/// Which events of other domains stand for a type (``TypeListeners``): in the order of the
/// domains and of their events, never a domain's own type, and for types no domain has.
@Suite struct TypeListenersTests {
  typealias Target = TypeListeners.Target

  /// Domains `cart` (0), `counter` (1), `todos` (2), `user` (3), in the snapshot's order.
  private func listeners() -> TypeListeners {
    TypeListeners(
      domains: [
        ("cart", [[], ["user.loggedOut", "*.reset"]]),
        ("counter", [["INCREMENT"], ["*.reset"]]),
        ("todos", [["user.loggedOut"], ["ADD_*"]]),
        ("user", [[], []]),
      ],
      typeNames: [
        ["cart.added", "cart."], ["counter.", "counter."], ["todos.", "todos."],
        ["user.loggedIn", "user.loggedOut"],
      ])
  }

  @Test func aRoutedTypesListenersComeInTheOrderOfTheDomains() {
    let listeners = listeners()
    #expect(!listeners.isEmpty)
    #expect(
      listeners.targets(domain: 3, event: 1)
        == [Target(domain: 0, event: 1), Target(domain: 2, event: 0)])
    #expect(listeners.targets(domain: 3, event: 0).isEmpty)
    #expect(listeners.targets(domain: 0, event: 0).isEmpty)
    // Out of range: none.
    #expect(listeners.targets(domain: 9, event: 0).isEmpty)
  }

  @Test func aTypeNoDomainHasIsMatchedByItsPatterns() {
    var listeners = listeners()
    #expect(
      listeners.targets(ofTypeNamed: "app.reset")
        == [Target(domain: 0, event: 1), Target(domain: 1, event: 1)])
    #expect(listeners.targets(ofTypeNamed: "INCREMENT") == [Target(domain: 1, event: 0)])
    #expect(listeners.targets(ofTypeNamed: "ADD_TODO") == [Target(domain: 2, event: 1)])
    #expect(listeners.targets(ofTypeNamed: "REMOVE_TODO").isEmpty)
    // Asked again, the same answer.
    #expect(listeners.targets(ofTypeNamed: "ADD_TODO") == [Target(domain: 2, event: 1)])
  }

  @Test func aDomainsOwnTypeIsNotItsListeners() {
    var listeners = listeners()
    // `*.reset` in cart and counter: `cart.reset` is cart's own type (were it defined), so
    // only counter stands for it.
    #expect(listeners.targets(ofTypeNamed: "cart.reset") == [Target(domain: 1, event: 1)])
    #expect(listeners.targets(ofTypeNamed: "counter.reset") == [Target(domain: 0, event: 1)])
  }

  @Test func domainsThatListenToNothingMakeItEmpty() {
    var listeners = TypeListeners(
      domains: [("geo", [[], []]), ("nav", [[]])],
      typeNames: [["geo.heading", "geo.location"], ["nav.push"]])
    #expect(listeners.isEmpty)
    #expect(listeners.targets(domain: 0, event: 1).isEmpty)
    #expect(listeners.targets(ofTypeNamed: "x.y").isEmpty)
  }
}
