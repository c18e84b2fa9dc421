import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct ReplayDiffSinkTests {
  func lines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
  }

  @Test(arguments: [
    "fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl",
    "fixtures/domain-data/events.jsonl",
  ])
  func patchesAppliedInOrderRebuildEverySnapshot(_ log: String) throws {
    let snapshots = try lines(
      CommandRun.run(["replay", "--on-error", "skip", log], in: Repository.root).standardOutput)
    let patches = try lines(
      CommandRun.run(["replay", "--on-error", "skip", "--emit", "diff", log], in: Repository.root)
        .standardOutput)
    #expect(patches.count == snapshots.count)
    var state = try JSONParser.parse(RaspSnapshotState(domains: RaspBuiltinDomains.all).json())
    for (patch, snapshot) in zip(patches, snapshots) {
      state = try JSONPatch.apply(patch, to: state)
      #expect(state == snapshot)
    }
  }

  @Test func selectedValuesArePatchedFromTheValueInTheInitialState() throws {
    let log = "fixtures/session-mixed/events.jsonl"
    for path in ["nav.stack", "data", "geo.location", "rest.links|length"] {
      let values = try lines(
        CommandRun.run(["replay", "--select", path, log], in: Repository.root).standardOutput)
      let patches = try lines(
        CommandRun.run(["replay", "--emit", "diff", "--select", path, log], in: Repository.root)
          .standardOutput)
      #expect(patches.count == values.count, "\(path)")
      let initial = RaspSnapshotState(domains: RaspBuiltinDomains.all)
      var value = try JSONParser.parse(
        ReplayEngine.selectedBytes(
          try JSONPath(path),
          domain: initial.domainIndex(named: String(path.prefix { $0 != "." && $0 != "|" })),
          in: initial))
      for (patch, expected) in zip(patches, values) {
        value = try JSONPatch.apply(patch, to: value)
        #expect(value == expected, "\(path)")
      }
    }
  }

  @Test func withEventThePatchReplacesTheState() throws {
    let run = CommandRun.run(
      [
        "replay", "--emit", "diff", "--with-event", "--domain", "geo",
        "fixtures/example/events.jsonl",
      ], in: Repository.root)
    let first = try #require(try lines(run.standardOutput).first)
    #expect(first["diff"] == [["op": "replace", "path": "/geo/heading", "value": 271.5]])
    #expect(first["seq"] == 1)
    #expect(first["line"] == 6)
    #expect(first["state"] == nil)
    #expect(run.standardOutput.hasPrefix("{\"diff\":"), "keys in canonical order")
  }

  @Test func changesOnlyDropsEmptyPatches() throws {
    let log = "fixtures/replay-emit-diff-unchanged/events.jsonl"
    let all = try lines(
      CommandRun.run(["replay", "--emit", "diff", log], in: Repository.root).standardOutput)
    let changes = try lines(
      CommandRun.run(["replay", "--emit", "diff", "--changes-only", log], in: Repository.root)
        .standardOutput)
    #expect(all.filter { $0 != [] } == changes)
    #expect(all.count == 5)
    #expect(changes.count == 3)
  }

  @Test func aBaselineParsesOnlyMembersWhoseBytesChanged() {
    var baseline = DiffBaseline(Array(#"{"a":{"x":1},"b":[1]}"#.utf8)[...])
    #expect(baseline.advance(to: Array(#"{"a":{"x":1},"b":[1]}"#.utf8)[...]) == [])
    #expect(
      baseline.advance(to: Array(#"{"a":{"x":1},"b":[1,2]}"#.utf8)[...])
        == [["op": "add", "path": "/b/1", "value": 2]])
    #expect(
      baseline.advance(to: Array(#"{"a":{"x":2},"b":[1,2]}"#.utf8)[...])
        == [["op": "replace", "path": "/a/x", "value": 2]])
  }

  @Test func aBaselineFallsBackToTheWholeValueWhenKeysOrKindsChange() {
    var baseline = DiffBaseline(Array(#"{"a":1}"#.utf8)[...])
    #expect(
      baseline.advance(to: Array(#"{"a":1,"b":2}"#.utf8)[...]) == [
        ["op": "add", "path": "/b", "value": 2]
      ])
    #expect(
      baseline.advance(to: Array("[1]".utf8)[...]) == [["op": "replace", "path": "", "value": [1]]])
    #expect(
      baseline.advance(to: Array("[1,3]".utf8)[...]) == [["op": "add", "path": "/1", "value": 3]])
    #expect(
      baseline.advance(to: Array("null".utf8)[...]) == [
        ["op": "replace", "path": "", "value": nil]
      ])
    #expect(
      baseline.advance(to: Array(#"{"k":"v"}"#.utf8)[...]) == [
        ["op": "replace", "path": "", "value": ["k": "v"]]
      ])
  }

  @Test func membersOfAnObjectAreItsTopLevelKeysAndValueBytes() throws {
    let members = try #require(
      DiffBaseline.members(of: Array(#"{"a":[1,{"b":2}],"c\n":"d"}"#.utf8)[...]))
    #expect(members.map(\.key) == ["a", "c\n"])
    #expect(
      members.map { String(decoding: $0.bytes, as: UTF8.self) } == [#"[1,{"b":2}]"#, #""d""#])
    #expect(DiffBaseline.members(of: Array("[1]".utf8)[...]) == nil)
  }
}
