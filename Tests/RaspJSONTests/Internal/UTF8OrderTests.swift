@testable import RaspJSON
import Testing

@Suite struct UTF8OrderTests {
  @Test(arguments: [
    ("a", "b", -1), ("b", "a", 1), ("a", "a", 0), ("", "", 0), ("a", "ab", -1), ("ab", "a", 1),
    ("Z", "a", -1), ("\u{7F}", "\u{80}", -1), ("\u{FFFD}", "😀", -1), ("e\u{301}", "\u{E9}", -1),
    // Longer than a small string's fifteen bytes (kept in the binary): one or both.
    ("/orders/2861/cancel", "/orders/2861/items", -1), ("/orders/2861/items", "/orders/2", 1),
    ("self", "/orders/2861/cancel", 1), ("/orders/2861/cancel", "/orders/2861/cancel", 0),
  ])
  func comparesBytes(a: String, b: String, sign: Int) {
    #expect(UTF8Order.compare(a, b).signum() == sign)
    #expect(UTF8Order.equal(a, b) == (sign == 0))
    // The same bytes in memory, each after a byte of its own, so that neither buffer starts
    // where an array does.
    let left = Array(("<" + a).utf8)
    let right = Array((">" + b).utf8)
    left.withUnsafeBufferPointer { left in
      right.withUnsafeBufferPointer { right in
        #expect(
          UTF8Order.equal(
            UnsafeBufferPointer(rebasing: left.dropFirst()),
            UnsafeBufferPointer(rebasing: right.dropFirst())) == (sign == 0))
      }
    }
  }

  @Test func comparesStringsMadeAtRunTime() {
    // Native strings on the heap, as a decoder makes them, beside small ones.
    let base = String(repeating: "/orders", count: 3)
    let cancel = base + "/2861/cancel"
    let items = base + "/2861/items"
    #expect(UTF8Order.compare(cancel, items) < 0)
    #expect(UTF8Order.compare(items, cancel) > 0)
    #expect(UTF8Order.compare(cancel, String(decoding: Array(cancel.utf8), as: UTF8.self)) == 0)
    #expect(UTF8Order.compare(base, cancel) < 0)
    #expect(UTF8Order.compare("self", cancel) > 0)
    #expect(UTF8Order.compare(cancel, "self") < 0)
  }

  @Test func buffersWithoutMemoryAreEqualOnlyToEmptyOnes() {
    let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    #expect(UTF8Order.equal(none, none))
    [UInt8]().withUnsafeBufferPointer { #expect(UTF8Order.equal(none, $0)) }
    [UInt8(ascii: "a")].withUnsafeBufferPointer {
      #expect(!UTF8Order.equal(none, $0))
      #expect(!UTF8Order.equal($0, none))
    }
  }

  @Test func distinguishesCanonicallyEquivalentStrings() {
    #expect(!UTF8Order.equal("\u{E9}", "e\u{301}"))
    #expect(!UTF8Order.equal("\u{212B}", "\u{C5}"), "angstrom sign and A with ring")
  }
}
