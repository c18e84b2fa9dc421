import Testing
@testable import RaspDomains

@Suite struct RaspDomainsPlaceholderTests {
  @Test func moduleLinks() { #expect(1 + 1 == 2) }
}
