import RaspJSON
import Testing

@Suite struct JSONDiffOptionsTests {
  @Test func defaultsToExactComparisonWithNothingIgnored() {
    let options = JSONDiffOptions()
    #expect(options.ignoring.isEmpty)
    #expect(options.tolerance == nil)
    #expect(!options.ignores([]))
    #expect(!options.numbersAreEqual(JSONNumber(1), JSONNumber(1.0000001)))
    #expect(options.numbersAreEqual(JSONNumber(1), JSONNumber(1.0)))
  }

  @Test func ignoresPathsMatchedByAPatternOrBelowOne() throws {
    let options = JSONDiffOptions(ignoring: [
      try JSONPath("**.ts", allowsPatterns: true), try JSONPath("lifecycle"),
    ])
    #expect(options.ignores([.key("ts")]))
    #expect(options.ignores([.key("geo"), .key("ts"), .index(0)]))
    #expect(options.ignores([.key("lifecycle")]))
    #expect(options.ignores([.key("lifecycle"), .key("changedAt")]))
    #expect(!options.ignores([]))
    #expect(!options.ignores([.key("geo")]))
    #expect(!options.ignores([.key("lifecycles")]))
  }

  @Test(arguments: [
    (JSONNumber(1.0), JSONNumber(1.005), 0.01, true),
    (JSONNumber(1.0), JSONNumber(1.5), 0.5, true),
    (JSONNumber(1.0), JSONNumber(1.5), 0.4999, false),
    (JSONNumber(-1.0), JSONNumber(1.0), 2.0, true),
    (JSONNumber(10), JSONNumber(12), 1.0, false),
    (JSONNumber(10), JSONNumber(11), 1.0, true),
    (JSONNumber(1.0), JSONNumber(2.0), 0.0, false),
    (JSONNumber(2.0), JSONNumber(2), 0.0, true),
  ])
  func comparesNumbersWithinTheTolerance(
    a: JSONNumber, b: JSONNumber, tolerance: Double, equal: Bool
  ) {
    let options = JSONDiffOptions(tolerance: tolerance)
    #expect(options.numbersAreEqual(a, b) == equal, "\(a) and \(b) within \(tolerance)")
    #expect(options.numbersAreEqual(b, a) == equal)
  }
}
