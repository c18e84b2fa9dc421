import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// The member-by-member comparison of two states: its split against the JSON parser's, and
/// its outcome against one diff of the whole states.
@Suite struct MemberComparisonTests {
  static func split(_ text: String) -> [(String, String)]? {
    let bytes = Array(text.utf8)
    var members: [MemberComparison.Member] = []
    let found = bytes.withUnsafeBufferPointer {
      MemberComparison.members(of: $0, into: &members)
    }
    guard found else { return nil }
    return members.map {
      (
        String(decoding: bytes[$0.key], as: UTF8.self),
        String(decoding: bytes[$0.value], as: UTF8.self)
      )
    }
  }

  @Test func splitsAnObjectAsTheParserReadsIt() throws {
    let texts = [
      #"{"a":[1,{"b":2}],"c":"}"}"#,
      #"{"q\"uote":"a,\"b\":{","n":null,"o":{"p":[[],{}]},"s":"\\"}"#,
      #"{}"#,
      #"{"only":-1.5e3}"#,
      #"{"data":{},"geo":{"accuracy":null,"heading":56.9},"nav":{"stack":["a","b"],"tab":null}}"#,
    ]
    for text in texts {
      let members = try #require(Self.split(text), "\(text)")
      let parsed = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
          as? NSDictionary)
      #expect(members.count == parsed.count, "\(text)")
      for (key, value) in members {
        let name = try #require(
          try JSONSerialization.jsonObject(with: Data(key.utf8), options: .fragmentsAllowed)
            as? String)
        let parsedValue = try JSONSerialization.jsonObject(
          with: Data(value.utf8), options: .fragmentsAllowed)
        #expect(
          NSDictionary(dictionary: ["v": parsedValue])
            == NSDictionary(dictionary: ["v": parsed[name] as Any]), "\(text) \(key)")
      }
    }
    for text in [#"[1,2]"#, #""s""#, #"{"a":1"#, #"{"a":"1}"#, #"{"a"}"#, "7"] {
      #expect(Self.split(text) == nil, "\(text)")
    }
  }

  /// Random two-domain states, the old and the new version's, with a member that always
  /// differs (allowed) and another that sometimes does (not allowed): each pair's outcome is
  /// what one diff of the whole pair gives, also when a pair repeats (remembered).
  @Test func aPairsOutcomeIsTheWholeDiffsAlsoWhenRemembered() throws {
    var random = SplitMix64(seed: 11)
    let allowed = try AllowedChange(parsing: "change:a.v")
    let options = JSONDiffOptions()
    var members = MemberComparison()
    for _ in 0..<400 {
      let b = random.next() % 3
      let c = random.next() % 4 == 0 ? b + 1 : b
      let old = #"{"a":{"v":1},"b":{"n":\#(b),"s":"x\"}"},"c":[\#(b)]}"#
      let new = #"{"a":{"v":2},"b":{"n":\#(b),"s":"x\"}"},"c":[\#(c)]}"#
      let outcome = try #require(
        members.compare(Array(old.utf8)[...], Array(new.utf8)[...]) { oldValue, newValue in
          var outcome = MemberComparison.Outcome.none
          for difference in JSONDiff.differences(from: oldValue, to: newValue, options: options) {
            if allowed.allows(difference) {
              outcome.allowed += 1
              outcome.allowances.insert(0)
            } else {
              outcome.unintended += 1
            }
          }
          return outcome
        })
      let whole = JSONDiff.differences(
        from: try JSONParser.parse(old), to: try JSONParser.parse(new),
        options: options)
      #expect(outcome.allowed == whole.filter { allowed.allows($0) }.count)
      #expect(outcome.unintended == whole.filter { !allowed.allows($0) }.count)
    }
  }
}
