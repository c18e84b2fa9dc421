import RaspJSON
import Testing

@Suite struct JSONDifferenceTests {
  private let path = JSONPath(components: [.key("geo"), .key("heading")])

  @Test func knowsItsKind() {
    #expect(JSONDifference(path: path, expected: .none, actual: 1).kind == .added)
    #expect(JSONDifference(path: path, expected: 1, actual: .none).kind == .removed)
    #expect(JSONDifference(path: path, expected: 1, actual: 2).kind == .changed)
    #expect(JSONDifference(path: path, expected: .null, actual: 2).kind == .changed)
  }

  @Test func describesItselfOnOneLine() {
    #expect(
      JSONDifference(path: path, expected: 90, actual: 91).description == "geo.heading: 90 -> 91")
    #expect(
      JSONDifference(path: path, expected: .none, actual: ["a": [1]]).description
        == #"geo.heading: + {"a":[1]}"#)
    #expect(
      JSONDifference(path: path, expected: .null, actual: .none).description
        == "geo.heading: - null")
    #expect(
      JSONDifference(path: JSONPath(components: []), expected: 1, actual: "1").description
        == #".: 1 -> "1""#)
  }

  @Test func becomesAnRFC6902Operation() {
    #expect(
      JSONDifference(path: path, expected: 90, actual: 91).patchOperation.description
        == #"{"op":"replace","path":"/geo/heading","value":91}"#)
    #expect(
      JSONDifference(path: path, expected: .none, actual: .null).patchOperation.description
        == #"{"op":"add","path":"/geo/heading","value":null}"#)
    #expect(
      JSONDifference(path: path, expected: .null, actual: .none).patchOperation.description
        == #"{"op":"remove","path":"/geo/heading"}"#)
    #expect(
      JSONDifference(path: JSONPath(components: []), expected: 1, actual: 2).patchOperation
        .description
        == #"{"op":"replace","path":"","value":2}"#)
  }

  @Test func escapesPointersInOperations() {
    let difference = JSONDifference(
      path: JSONPath(components: [.key("a/b"), .key("~1"), .index(3), .key("")]), expected: 1,
      actual: 2)
    #expect(difference.patchOperation["path"] == "/a~1b/~01/3/")
    let found = JSONDiff.differences(from: ["m~n": ["x/y": 1]], to: ["m~n": ["x/y": 2]])
    #expect(found.map { $0.patchOperation["path"] } == ["/m~0n/x~1y"])
  }

  @Test func comparesByPathAndValues() {
    #expect(
      JSONDifference(path: path, expected: 1, actual: 2)
        == JSONDifference(path: path, expected: 1.0, actual: 2))
    #expect(
      JSONDifference(path: path, expected: 1, actual: 2)
        != JSONDifference(path: path, expected: .none, actual: 2))
  }
}
