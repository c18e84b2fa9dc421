import Foundation
import RaspJSON
import Testing

@testable import RaspCLI

/// jq's order of values, which comparisons across types follow: checked against jq's own
/// `sort` of the same values.
@Suite struct PredicateOrderTests {
  static let values = [
    "{\"b\":1}", "{\"a\":2}", "{\"a\":1,\"b\":0}", "{\"a\":1}", "{}", "[1,2,0]", "[1,2]", "[2]",
    "[[]]", "[]", "\"é\"", "\"z\"", "\"abd\"", "\"abc\"", "\"\"", "100000000000000000000", "1.5",
    "1", "-1000", "true", "false", "null", "[null]", "[false]", "\"10\"", "10", "0.1",
  ]

  @Test func typesComeInJQsOrder() {
    let ordered: [JSONValue] = [
      .null, .bool(false), .bool(true), .number(JSONNumber(-1)), .string(""), .array([]),
      .object(JSONObject()),
    ]
    for (index, value) in ordered.enumerated() {
      for later in ordered[(index + 1)...] {
        #expect(PredicateOrder.compare(value, later, .less), "\(value) < \(later)")
        #expect(!PredicateOrder.compare(later, value, .lessOrEqual), "\(later) > \(value)")
      }
    }
  }

  @Test func sortsAsJQSorts() async throws {
    let parsed = try Self.values.map { try JSONParser.parse($0) }
    let sorted = parsed.sorted { PredicateOrder.order($0, $1) < 0 }
    let expected =
      "[null,false,true,-1000,0.1,1,1.5,10,100000000000000000000,\"\",\"10\",\"abc\",\"abd\","
      + "\"z\",\"é\",[],[null],[false],[1,2],[1,2,0],[2],[[]],{},{\"a\":1},{\"a\":2},"
      + "{\"a\":1,\"b\":0},{\"b\":1}]"
    #expect(
      JSONValue.array(sorted) == (try JSONParser.parse(expected)),
      "\(PredicateExpression.text(of: .array(sorted)))")
    guard ExternalTool.exists("jq") else { return }
    let directory = try TemporaryDirectory()
    try directory.write("values.json", "[" + Self.values.joined(separator: ",") + "]")
    let result = try await ExternalTool.run("jq", ["-c", "sort", directory.file("values.json")])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      (try JSONParser.parse(result.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        == .array(sorted))
  }
}
