import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// The order `--final` prints keys in, jq's: checked against jq itself, and for whole numbers
/// past 2^53, which jq 1.6 holds as doubles, against their exact values.
@Suite struct KeyOrderTests {
  private func sorted(_ keys: [String]) -> [String] {
    keys.map { KeyOrder.SortKey(Array($0.utf8)) }.sorted(by: KeyOrder.precedes)
      .map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  @Test func sortsAsJqSorts() async throws {
    let keys = [
      #""b""#, "10", "null", "[1,2]", "false", #"{"a":2}"#, "2", #""a""#, "[1]", "true",
      #"{"a":1,"b":0}"#, #""B""#, "-1.5", #"{"a":1}"#, #""é""#, "[]", #"{"b":0}"#, "{}",
      #"[1,"a"]"#, #"[1,null]"#, "1000", "0.5", #""ab""#, #""""#, #"[[0],1]"#, #"[{}]"#,
      #"{"a":[1]}"#, #"{"a":null}"#, #""日本""#, "-10", #"{"a":1,"c":0}"#,
    ]
    let expected = try await TestProcess.run(
      "/usr/bin/env", ["jq", "-c", "-s", "sort | .[]"],
      input: Array(keys.joined(separator: "\n").utf8)
    ).text.split(separator: "\n").map(String.init)
    #expect(sorted(keys) == expected)
  }

  @Test func aStringWithEscapesSortsByItsTextAmongPlainOnes() {
    // "\u0062" is "b": between "a" and "c", before "b" written plainly (the same text, told
    // apart by its bytes so that the order is total).
    #expect(
      sorted([#""c""#, #""\u0062""#, #""a""#, #""b""#])
        == [#""a""#, #""\u0062""#, #""b""#, #""c""#])
    #expect(sorted([#""\u00e9""#, #""z""#]) == [#""z""#, #""\u00e9""#])
  }

  @Test func wholeNumbersPastTwoToTheFiftyThirdSortByTheirExactValues() {
    #expect(
      sorted(["9007199254740993", "9007199254740992", "-9007199254740993", "9007199254740994"])
        == ["-9007199254740993", "9007199254740992", "9007199254740993", "9007199254740994"])
    #expect(sorted(["1.5", "1", "1.25"]) == ["1", "1.25", "1.5"])
  }
}
