import RaspJSON
import Testing

@Suite struct JSONValueTests {
  @Test(arguments: [
    (JSONValue.null, "null"), (.bool(true), "boolean"), (.number(JSONNumber(1)), "number"),
    (.string(""), "string"), (.array([]), "array"), (.object(JSONObject()), "object"),
  ])
  func namesItsKind(value: JSONValue, name: String) {
    #expect(value.kindName == name)
    #expect(value.isNull == (name == "null"))
  }

  @Test func subscriptsObjectsOnly() {
    let state: JSONValue = ["geo": ["heading": 90]]
    #expect(state["geo"]?["heading"] == 90)
    #expect(state["nav"] == absent)
    #expect(JSONValue.array([1])["0"] == absent)
    #expect(JSONValue.string("geo")["geo"] == absent)
  }

  @Test func comparesByMeaning() {
    #expect(JSONValue.number(JSONNumber(1)) == .number(JSONNumber(1.0)))
    #expect(JSONValue.array([1, 2]) != .array([2, 1]))
    #expect(JSONValue.null != .bool(false))
    #expect(JSONValue.number(JSONNumber(0)) != .bool(false))
    #expect(JSONValue.string("1") != .number(JSONNumber(1)))
    #expect(JSONValue.object(JSONObject()) != .array([]))
    let a: JSONValue = ["x": [1, ["y": 2.0]]]
    let b: JSONValue = ["x": [1.0, ["y": 2]]]
    #expect(a == b)
  }

  @Test func comparesStringsByCodePointsNotCanonicalEquivalence() {
    #expect("\u{E9}" == "e\u{301}" as String, "Swift's String compares canonically")
    #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
  }

  @Test func equalValuesHashAlike() {
    let values: Set<JSONValue> = [1, 1.0, ["a": 1], ["a": 1.0], "x", "x"]
    #expect(values.count == 3)
  }

  @Test func describesItselfAsCanonicalCompactJSON() {
    let value: JSONValue = ["heading": 271.5, "accuracy": 5, "name": "a\"b", "list": [nil, true]]
    #expect(
      value.description == #"{"accuracy":5,"heading":271.5,"list":[null,true],"name":"a\"b"}"#)
  }
}
