import Testing
@testable import Rasp

@Suite struct RaspPlaceholderTests {
  @Test func moduleLinks() { #expect(1 + 1 == 2) }
}
