import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// Reading the paths of jsan's references (`$.a[0]["b c"]`, after the `$`), as jsan 3.1.14's
/// `lib/utils.js` writes them, and following them to the value they stand for.
@Suite struct JSANPathTests {
  @Test func readsKeysIndexesAndQuotedKeys() {
    #expect(JSANPath.steps(of: "") == [])
    #expect(
      JSANPath.steps(of: ".computedStates[3].state")
        == [.key("computedStates"), .index(3), .key("state")])
    #expect(
      JSANPath.steps(of: #"["a b"][10]["\"q\\"].x_1"#)
        == [.key("a b"), .index(10), .key(#""q\"#), .key("x_1")])
    #expect(JSANPath.steps(of: #"["é\u00e9"]"#) == [.key("éé")])
    #expect(JSANPath.steps(of: #"[".]["]"#) == [.key(".][")])
  }

  @Test(arguments: [
    ".", "..a", "a", ".a[", ".a[]", ".a[x]", ".a[1", #"["a"#, #"["a""#, #"["\x"]"#, "[-1]",
  ])
  func refusesWhatIsNotAPath(_ text: String) {
    #expect(JSANPath.steps(of: Substring(text)) == nil, "\(text)")
  }

  @Test func followsStepsToTheirNodeOrToNothing() throws {
    let root = try JSONNode.read(Array(#"{"a": [{"b c": 1}, [true]], "d": null}"#.utf8))
    func text(_ path: String) -> JSONValue? {
      guard let steps = JSANPath.steps(of: Substring(path)),
        let node = JSANPath.node(at: steps, in: root)
      else { return nil }
      return node.json
    }
    #expect(text(#".a[0]["b c"]"#) == .number(JSONNumber(1)))
    #expect(text(".a[1][0]") == .bool(true))
    #expect(text(".d") == .null)
    #expect(text("") == root.json)
    #expect(text(".a[2]") == nil)
    #expect(text(".a.b") == nil)
    #expect(text(".d[0]") == nil)
    #expect(text(".x") == nil)
  }

  /// Paths written as the export's rewriter writes a renumbered reference read back as their
  /// steps, whatever the keys hold.
  @Test func readsBackThePathsTheRewriterWrites() throws {
    var random = SplitMix64(seed: 11)
    let alphabet: [Character] = [
      "a", "Z", "0", "_", "$", " ", ".", "[", "]", "\"", "\\", "é", "😀",
    ]
    for _ in 0..<2_000 {
      let steps: [JSANPath.Step] = (0..<Int.random(in: 0...4, using: &random)).map { _ in
        if Bool.random(using: &random) { return .index(Int.random(in: 0...120, using: &random)) }
        let count = Int.random(in: 1...5, using: &random)
        let characters = (0..<count).map { _ in
          alphabet[Int.random(in: alphabet.indices, using: &random)]
        }
        return .key(String(characters))
      }
      let tag = try JSONParser.parse(DevToolsExportRewriter.reference(steps))
      guard case .string(let path)? = tag["$jsan"], path.first == "$" else {
        Issue.record("no reference for \(steps)")
        continue
      }
      #expect(JSANPath.steps(of: path.dropFirst()) == steps, "\(path)")
    }
  }
}
