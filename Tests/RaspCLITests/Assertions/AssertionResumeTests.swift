import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp check --assert` with checkpoints: a replay resumed from a checkpoint finds the
/// violations a whole replay finds after it — `$prev` of the first event after it is the
/// checkpoint's state, not the initial one — and `--assert-final` sees every key, those whose
/// events all came before the checkpoint too.
@Suite struct AssertionResumeTests {
  /// The violations of a `rasp check … --format json` run, and its status.
  static func violations(_ arguments: [String], in directory: String) throws -> (
    status: Int32, violations: [JSONValue]
  ) {
    let run = CommandRun.run(
      ["check", "--max-failures", "0", "--format", "json"] + arguments, in: directory)
    guard case .array(let list)? = try JSONParser.parse(run.standardOutput)["violations"] else {
      Issue.record("no report: \(run.standardError)")
      return (run.status, [])
    }
    return (run.status, list)
  }

  /// Replays the first `count` lines of `log` with `--save-state`, then appends the rest, as a
  /// log grows between two nightly runs.
  static func checkpoint(
    _ log: String, after count: Int, arguments: [String], in directory: TemporaryDirectory
  ) throws {
    let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
    try directory.write("events.jsonl", lines.prefix(count).joined(separator: "\n") + "\n")
    let first = CommandRun.run(
      ["check", "--save-state", "state.json"] + arguments + ["events.jsonl"],
      in: directory.path)
    #expect(first.status == 0 || first.status == 1, "\(first.standardError)")
    try directory.write("events.jsonl", log)
  }

  @Test func thePreviousStateOfTheFirstEventResumedIsTheCheckpoints() throws {
    let directory = try TemporaryDirectory()
    let log =
      ["a", "b", "c", "d"].map {
        #"{"type":"nav.push","payload":{"screen":"\#($0)"}}"#
      }.joined(separator: "\n") + "\n" + #"{"type":"nav.pop"}"# + "\n"
    // Each event pushes or pops one screen: the depth never grows by more than one.
    let step = ["--assert", "(.nav.stack | length) - ($prev.nav.stack | length) <= 1"]
    try Self.checkpoint(log, after: 3, arguments: step, in: directory)
    let resumed = try Self.violations(
      step + ["--resume", "state.json", "events.jsonl"], in: directory.path)
    #expect(resumed.violations == [], "the push at line 4 grows a stack of 3 to 4")
    #expect(resumed.status == 0)
    let whole = try Self.violations(step + ["events.jsonl"], in: directory.path)
    #expect(whole.violations == [])
  }

  @Test func aFinalAssertionSeesTheKeysOfTheCheckpointToo() throws {
    let directory = try TemporaryDirectory()
    // d2's events all come before the checkpoint (after line 4); d1's go on after it.
    let log =
      [
        ("d1", "a"), ("d2", "a"), ("d2", "b"), ("d1", "b"), ("d1", "c"), ("d1", "d"),
      ].map { device, screen in
        #"{"device":"\#(device)","type":"nav.push","payload":{"screen":"\#(screen)"}}"#
      }.joined(separator: "\n") + "\n"
    let final = ["--key-by", "device", "--assert-final", ".nav.stack | length < 2"]
    try Self.checkpoint(log, after: 4, arguments: final, in: directory)
    let resumed = try Self.violations(
      final + ["--resume", "state.json", "events.jsonl"], in: directory.path)
    let whole = try Self.violations(final + ["events.jsonl"], in: directory.path)
    #expect(resumed.status == 1)
    #expect(whole.violations.count == 2, "d1 ends with 4 screens, d2 with 2")
    #expect(resumed.violations == whole.violations)
    // d2's violation names its last event, before the checkpoint: event 3, line 3.
    let d2 = whole.violations.first { $0["key"] == .string("d2") }
    #expect(d2?["seq"] == .number(JSONNumber(3)))
    #expect(d2?["line"] == .number(JSONNumber(3)))
  }

  /// Over a generated log of three devices, the violations after the checkpoint are the whole
  /// replay's: planted faults and transitions (`$prev`) alike.
  @Test(arguments: [0, 3])
  func findsWhatAWholeReplayFindsAfterTheCheckpoint(keys: Int) throws {
    let directory = try TemporaryDirectory()
    let faults: Set<Int> = [41, 230, 512, 799]
    let log = AssertionOracleTests.log(count: 800, faults: faults, keys: keys, seed: 41)
    let keyed = keys > 0 ? ["--key-by", "device"] : []
    let checkpoint = 400
    for assertion in [
      #".nav.stack[-1] != "crash""#,
      #"$event.type != "nav.pop" or ($prev.nav.stack | length) > 0"#,
      "(.nav.stack | length) - ($prev.nav.stack | length) <= 1",
    ] {
      let arguments = keyed + ["--assert", assertion]
      try Self.checkpoint(log, after: checkpoint, arguments: arguments, in: directory)
      let resumed = try Self.violations(
        arguments + ["--resume", "state.json", "events.jsonl"], in: directory.path)
      let whole = try Self.violations(arguments + ["events.jsonl"], in: directory.path)
      let after = whole.violations.filter { violation in
        guard case .number(let seq)? = violation["seq"] else { return false }
        return (seq.integerValue ?? 0) > checkpoint
      }
      #expect(resumed.violations == after, "\(assertion), \(keys) keys")
      if assertion.contains("crash") { #expect(after.count == 2, "the faults at 512 and 799") }
    }
  }

  @Test func aGoldenCheckTakesNoCheckpoint() {
    for option in [["--resume", "state.json"], ["--save-state", "state.json"]] {
      let run = CommandRun.run(["check", "--golden", "golden.jsonl"] + option + ["events.jsonl"])
      #expect(run.status == 64)
      #expect(
        run.standardError.hasPrefix(
          "rasp: error: option '\(option[0])' goes on from a checkpoint with '--assert' alone"),
        "\(run.standardError)")
    }
  }
}
