import Testing
@testable import RaspCLI

@Suite struct RaspCLIPlaceholderTests {
  @Test func moduleLinks() { #expect(1 + 1 == 2) }
}
