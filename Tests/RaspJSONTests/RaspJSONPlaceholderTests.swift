import Testing
@testable import RaspJSON

@Suite struct RaspJSONPlaceholderTests {
  @Test func moduleLinks() { #expect(1 + 1 == 2) }
}
