import Testing

@testable import RaspDomains

@Suite struct RaspSpellingTests {
  @Test func suggestsTheNearestCandidateWithinTwoEdits() {
    #expect(RaspSpelling.nearest(to: "apend", among: RaspSpecOperation.names) == "append")
    #expect(RaspSpelling.nearest(to: "incremnet", among: RaspSpecOperation.names) == "increment")
    #expect(RaspSpelling.nearest(to: "--selct", among: ["--select", "--final"]) == "--select")
  }

  @Test func suggestsNothingForAWordThatIsNotATypo() {
    #expect(RaspSpelling.nearest(to: "frobnicate", among: RaspSpecOperation.names) == nil)
    #expect(RaspSpelling.nearest(to: "x", among: []) == nil)
  }

  @Test func countsATranspositionAsOneEdit() {
    #expect(RaspSpelling.editDistance("ab", "ba") == 1)
    #expect(RaspSpelling.editDistance("", "abc") == 3)
    #expect(RaspSpelling.editDistance("kitten", "sitting") == 3)
  }
}
