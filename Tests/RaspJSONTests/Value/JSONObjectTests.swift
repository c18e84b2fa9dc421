import RaspJSON
import Testing

@Suite struct JSONObjectTests {
  @Test func keepsMembersSortedByUTF8Bytes() {
    var object = JSONObject()
    for key in ["b", "é", "a", "", "Z", "aa", "\u{FFFD}", "😀"] { object[key] = .string(key) }
    // Code point order: U+FFFD (EF BF BD) before U+1F600 (F0 9F 98 80), unlike UTF-16 order.
    #expect(object.keys == ["", "Z", "a", "aa", "b", "é", "\u{FFFD}", "😀"])
    #expect(object.count == 8)
    for key in object.keys { #expect(object[key] == .string(key)) }
  }

  @Test func treatsCanonicallyEquivalentKeysAsDistinct() {
    var object = JSONObject()
    object["\u{E9}"] = 1
    object["e\u{301}"] = 2
    #expect(object.count == 2, "JSON keys are code points, not canonical text")
    #expect(object["\u{E9}"] == 1)
    #expect(object["e\u{301}"] == 2)
  }

  @Test func assigningNilRemovesAndMissingKeysReadNil() {
    var object = JSONObject()
    object["tab"] = "home"
    object["other"] = nil
    #expect(object.count == 1)
    #expect(object["missing"] == absent, "a missing member is absent, not null")
    object["tab"] = "list"
    #expect(object["tab"] == "list")
    object["tab"] = nil
    #expect(object.isEmpty)
    #expect(object.keys == [])
  }

  @Test func comparesMembersWhateverTheInsertionOrder() {
    var a = JSONObject()
    a["x"] = 1
    a["y"] = [true]
    var b = JSONObject()
    b["y"] = [true]
    b["x"] = 1.0
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    b["x"] = 2
    #expect(a != b)
    var c = JSONObject()
    c["\u{E9}"] = 1
    var d = JSONObject()
    d["e\u{301}"] = 1
    #expect(c != d)
    #expect(JSONObject() != a)
  }

  @Test func sortedMembersAreTakenAsGiven() {
    let object = JSONObject(sortedMembers: [("a", 1), ("b", 2)])
    #expect(object.keys == ["a", "b"])
    #expect(object["b"] == 2)
  }

  @Test(arguments: [
    ("Z", "a", true), ("a", "Z", false), ("a", "a", false), ("a", "aa", true), ("", "a", true),
    ("\u{FFFD}", "😀", true), ("e\u{301}", "\u{E9}", true),
  ])
  func ordersKeysByCodePoints(a: String, b: String, precedes: Bool) {
    #expect(JSONObject.keyPrecedes(a, b) == precedes)
  }
}
