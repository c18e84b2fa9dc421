import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp redact --verify` compares the replays value by value: a rounded number matches within
/// its rounding, a dropped value its absence; anything else is a difference, named by its
/// snapshot, line and path. Short originals are no leak where they are another field's code.
@Suite struct RedactReplayComparisonTests {
  static let vault = "fixtures/shrink-vault/vault.json"

  @Test func roundedPositionsAndADroppedAccuracyVerify() async throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.jsonl")
    let log = "fixtures/redact-verify/events.jsonl"
    let run = CommandRun.run(
      [
        "redact", log, "--policy", "fixtures/redact-verify/pii.json", "-o", output, "--verify",
        "--domain", "geo",
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("rasp: verified '\(output)'"))
    // What verify let through, checked apart: jq rounds the original's positions and takes
    // the accuracy away; the redacted replay is that.
    let replay = "rasp replay --domain geo --select geo"
    await #expect(
      try BuiltBinary.output("\(replay) \(output)")
        == (try BuiltBinary.output(
          "\(replay) \(log) | jq -c '.accuracy = null | .location |= map_values((. * 100 "
            + "| round) / 100)'")))
  }

  @Test func aSumBeyondTheRoundingOfItsAmountsFailsAtItsSnapshotLineAndPath() throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.jsonl")
    let run = CommandRun.run(
      [
        "redact", "fixtures/redact-verify/deposits.jsonl", "--policy",
        "fixtures/redact-verify/amounts.json", "-o", output, "--verify", "--spec", Self.vault,
        "--domain", "vault",
      ], in: Repository.root)
    #expect(run.status == 1)
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: the replay of '\(output)' differs from the replay of "
          + "'fixtures/redact-verify/deposits.jsonl', redacted, at snapshot 2 (line 2 of "
          + "'\(output)'), at vault.total: expected 2.08, found 2\n"))
    // The output is written all the same.
    #expect(directory.bytes("share.jsonl")?.isEmpty == false)
  }

  /// The comparison itself, on snapshots made by hand: each row a case.
  @Test(arguments: [
    // A rounded number: within half a unit of its decimals, and no further.
    (#"{"a":1.234}"#, #"{"a":1.2}"#, true),
    (#"{"a":1.234}"#, #"{"a":1.28}"#, true),
    (#"{"a":1.234}"#, #"{"a":1.3}"#, false),
    // A number no rule rounded must be equal.
    (#"{"b":5.01}"#, #"{"b":5}"#, false),
    // A dropped value: absent, null, or as before; not another value.
    (#"{"c":"x","d":1}"#, #"{"d":1}"#, true),
    (#"{"c":"x","d":1}"#, #"{"c":null,"d":1}"#, true),
    (#"{"c":"x","d":1}"#, #"{"c":"before","d":1}"#, true),
    (#"{"c":"x","d":1}"#, #"{"c":"y","d":1}"#, false),
    // An extra member, an array of another length.
    (#"{"d":1}"#, #"{"d":1,"e":2}"#, false),
    (#"{"f":[1,2]}"#, #"{"f":[1]}"#, false),
  ])
  func eachDifferenceIsExplainedByThePolicyOrNot(
    expected: String, actual: String, matches: Bool
  ) throws {
    var result = RedactCommand.Result()
    result.rounded[1.234] = [1]
    result.dropped = [.string("x")]
    let previous = try JSONParser.parse(Array(#"{"c":"before","d":1}"#.utf8))
    let before: RedactReplayComparison.Replay = (
      [(1, previous), (2, try JSONParser.parse(Array(expected.utf8)))], 0
    )
    let after: RedactReplayComparison.Replay = (
      [(1, previous), (2, try JSONParser.parse(Array(actual.utf8)))], 0
    )
    let difference = RedactReplayComparison.firstDifference(
      original: ("a", before), redacted: ("b", after), result: result)
    #expect((difference == nil) == matches, "\(difference ?? "")")
  }

  /// A one-character original is no leak where it is another member's value; it is one as the
  /// value of a member of its own name that no rule redacted. A long one is found anywhere.
  @Test func aShortOriginalLeaksOnlyAsTheValueOfAMemberOfItsName() throws {
    let policy = #"{"rules":[{"path":"payload.grade","action":"replace","value":"x"}]}"#
    func verify(_ log: String) throws -> CommandRun {
      let directory = try TemporaryDirectory()
      try directory.write("events.jsonl", log)
      try directory.write("pii.json", policy)
      return CommandRun.run(
        ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl", "--verify"],
        in: directory.path)
    }
    let codes = try verify(
      #"{"type":"nav.push","payload":{"grade":"a","screen":"a"},"meta":{"a":"a"}}"# + "\n")
    #expect(codes.status == 0, "\(codes.standardError)")
    let leak = try verify(
      #"{"type":"nav.push","payload":{"grade":"a","screen":"x"},"meta":{"grade":"a"}}"# + "\n")
    #expect(leak.status == 1)
    #expect(
      leak.standardError.hasSuffix(
        "rasp: error: --verify: share.jsonl:1: at meta.grade: the value of payload.grade at "
          + "events.jsonl:1 is left in the output\n"))
    let long = try verify(
      #"{"type":"nav.push","payload":{"grade":"alpha","screen":"x-alpha-1"}}"# + "\n")
    #expect(long.status == 1)
    #expect(long.standardError.contains("at payload.screen: the value of payload.grade"))
  }
}
