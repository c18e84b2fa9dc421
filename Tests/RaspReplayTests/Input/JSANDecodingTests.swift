import RaspJSON
import Testing

@testable import RaspReplay

/// Decoding the `$jsan` tags of exports that Redux DevTools serialized (`serialize: true`); the
/// tags and their meanings are jsan 3.1.14's (`lib/cycle.js`, `lib/utils.js`), and the
/// end-to-end check against node's `JSON.stringify` is `fixtures/devtools-jsan`.
@Suite struct JSANDecodingTests {
  func decode(_ text: String) throws -> JSONValue? {
    let root = try JSONNode.read(Array(text.utf8))
    return try JSANDecoding.decode(root, root: root)
  }

  func failure(_ text: String) -> JSANDecoding.Failure? {
    do {
      _ = try decode(text)
      return nil
    } catch let failure as JSANDecoding.Failure {
      return failure
    } catch {
      return nil
    }
  }

  @Test(arguments: [
    ("d0", "1970-01-01T00:00:00.000Z"),
    ("d1764061200250", "2025-11-25T09:00:00.250Z"),
    ("d-1", "1969-12-31T23:59:59.999Z"),
    ("d951782400000", "2000-02-29T00:00:00.000Z"),
  ])
  func datesBecomeTheTextOfToISOString(_ tag: String, _ text: String) throws {
    #expect(try decode(#"{"$jsan": "\#(tag)"}"#) == .string(text))
  }

  @Test func valuesThatJSONLeavesOutAreLeftOutOrNullInArrays() throws {
    #expect(
      try decode(
        #"{"a": {"$jsan": "u"}, "f": {"$jsan": "ff() {}"}, "s": {"$jsan": "sx"}, "#
          + #""n": {"$jsan": "n"}, "list": [{"$jsan": "u"}, {"$jsan": "i"}, {"$jsan": "y"}]}"#)
        == ["n": nil, "list": [nil, nil, nil]])
    #expect(try decode(#"{"$jsan": "u"}"#) == nil)
  }

  @Test func referencesLeadToTheValueAtTheirPathFromTheRoot() throws {
    #expect(
      try decode(
        #"{"a": {"1": [5, {"k y": "v"}]}, "b": {"$jsan": "$.a.1[1][\"k y\"]"}, "#
          + #""c": {"$jsan": "$.a"}}"#)
        == ["a": ["1": [5, ["k y": "v"]]], "b": "v", "c": ["1": [5, ["k y": "v"]]]])
  }

  @Test func mapsAndSetsBecomeArraysAndARealJsanKeyIsKept() throws {
    #expect(
      try decode(
        #"{"m": {"$jsan": "m[[\"a\",1]]"}, "s": {"$jsan": "l[\"x\"]"}, "$jsan": ["real"], "#
          + #""r": {"$jsan": "rg,a+"}, "e": {"$jsan": "eboom"}}"#)
        == ["m": [["a", 1]], "s": ["x"], "$jsan": "real", "r": [:], "e": [:]])
  }

  @Test func cyclesUnknownTagsAndReferencesToNothingAreErrorsWithTheirPath() {
    #expect(failure(#"{"a": {"b": {"$jsan": "$.a"}}}"#)?.reason.contains("cycle") == true)
    #expect(failure(#"{"a": [{"$jsan": "q1"}]}"#)?.path == ".a[0]")
    #expect(failure(#"{"a": [{"$jsan": "q1"}]}"#)?.reason == "an unknown '$jsan' tag 'q1'")
    #expect(
      failure(#"{"b": {"$jsan": "$.nope"}}"#)?.reason
        == "the '$jsan' reference '$.nope' leads to nothing")
    #expect(failure(#"{"b": {"$jsan": "m{}"}}"#)?.reason == "the '$jsan' Map holds no JSON array")
  }
}
