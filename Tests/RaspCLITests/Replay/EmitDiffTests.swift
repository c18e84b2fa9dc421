import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspCLI
@testable import RaspReplay
import RaspTestSupport

/// `rasp replay --emit diff`, checked against the snapshots it stands for: applying the patches
/// in order rebuilds every snapshot.
@Suite struct EmitDiffTests {
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
    var state = try JSONParser.parse(SnapshotState(domains: RaspBuiltinDomains.all).json())
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
      let initial = SnapshotState(domains: RaspBuiltinDomains.all)
      var text = SnapshotText(initial)
      var spare = JSONWriter()
      var value = try JSONParser.parse(
        SelectedValue.inSnapshot(
          try JSONPath(path),
          domain: initial.domainIndex(named: String(path.prefix { $0 != "." && $0 != "|" })),
          member: nil, text: &text, initial, spare: &spare))
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
}
