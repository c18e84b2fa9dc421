import RaspJSON
import Testing

@Suite struct JSONLimitsTests {
  @Test func limitsAreThoseDocumented() {
    #expect(JSONLimits.maximumDepth == 512)
    #expect(JSONLimits.maximumLineLength == 16 * 1024 * 1024)
  }

  @Test func hostileNestingFailsCleanlyInsteadOfOverflowingTheStack() throws {
    let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    let expected = JSONError(offset: 512, reason: .tooDeep(limit: 512))
    #expect(parseError(bytes: brackets) == expected)
    #expect(skipError(bytes: brackets) == expected)
    let braces = Array(String(repeating: #"{"":"#, count: 100_000).utf8)
    #expect(parseError(bytes: braces) == JSONError(offset: 512 * 4, reason: .tooDeep(limit: 512)))
    #expect(skipError(bytes: braces) == JSONError(offset: 512 * 4, reason: .tooDeep(limit: 512)))
  }
}
