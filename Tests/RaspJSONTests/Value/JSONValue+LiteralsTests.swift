import RaspJSON
import Testing

@Suite struct JSONValueLiteralsTests {
  @Test func buildsEveryKindFromLiterals() {
    let null: JSONValue = nil
    let flag: JSONValue = true
    let integer: JSONValue = 42
    let double: JSONValue = 271.5
    let text: JSONValue = "next"
    let list: JSONValue = [1, "two", nil]
    let object: JSONValue = ["rel": "next", "href": "/page/2"]
    #expect(null == .null)
    #expect(flag == .bool(true))
    #expect(integer == .number(JSONNumber(42 as Int64)))
    #expect(integer.description == "42")
    if case .number(let number) = integer { #expect(number.isInteger) }
    #expect(double == .number(JSONNumber(271.5)))
    #expect(text == .string("next"))
    #expect(list == .array([.number(JSONNumber(1)), .string("two"), .null]))
    #expect(object.description == #"{"href":"/page/2","rel":"next"}"#)
  }

  @Test func repeatedDictionaryKeysKeepTheLastValue() {
    let value: JSONValue = ["a": 1, "b": 2, "a": 3]
    #expect(value.description == #"{"a":3,"b":2}"#)
  }
}
