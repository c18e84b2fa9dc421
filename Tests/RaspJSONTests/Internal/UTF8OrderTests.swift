@testable import RaspJSON
import Testing

@Suite struct UTF8OrderTests {
  @Test(arguments: [
    ("a", "b", -1), ("b", "a", 1), ("a", "a", 0), ("", "", 0), ("a", "ab", -1), ("ab", "a", 1),
    ("Z", "a", -1), ("\u{7F}", "\u{80}", -1), ("\u{FFFD}", "😀", -1), ("e\u{301}", "\u{E9}", -1),
  ])
  func comparesBytes(a: String, b: String, sign: Int) {
    #expect(UTF8Order.compare(a, b).signum() == sign)
    #expect(UTF8Order.equal(a, b) == (sign == 0))
  }

  @Test func distinguishesCanonicallyEquivalentStrings() {
    #expect(!UTF8Order.equal("\u{E9}", "e\u{301}"))
    #expect(!UTF8Order.equal("\u{212B}", "\u{C5}"), "angstrom sign and A with ring")
  }
}
