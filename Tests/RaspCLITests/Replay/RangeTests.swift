import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspCLI
@testable import RaspReplay
import RaspTestSupport

/// `rasp replay --since`, `--until` and `--at`, checked against the full replay, cut another
/// way: `--since #N` is its lines from event N on, `--until #N` its first N events' lines,
/// `--at #N` the state after event N, and `--at T` the last state whose event's time is at or
/// before T, as jq picks it from `--with-event`'s records.
@Suite struct RangeTests {
  static let logs = [
    "fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl",
    "fixtures/replay-key-by/events.jsonl",
  ]

  func replay(_ arguments: [String], input: String = "") -> CommandRun {
    CommandRun.run(["replay"] + arguments, in: Repository.root, input: Array(input.utf8))
  }

  func values(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
  }

  func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }

  static func seq(_ record: JSONValue) -> Int {
    guard case .number(let seq)? = record["seq"] else { return -1 }
    return Int(seq.description) ?? -1
  }

  @Test(arguments: logs)
  func sinceAnEventIsTheFullReplaysLinesFromItOn(_ log: String) throws {
    let full = lines(replay([log]).standardOutput)
    for number in 1...(full.count + 1) {
      let since = replay(["--since", "#\(number)", log])
      #expect(since.status == 0, "\(since.standardError)")
      #expect(lines(since.standardOutput) == Array(full.dropFirst(number - 1)), "#\(number)")
    }
  }

  @Test(arguments: logs)
  func untilAnEventIsTheFullReplaysRecordsUpToIt(_ log: String) throws {
    for options in [[], ["--select", "nav.stack"], ["--emit", "diff"], ["--changes-only"]] {
      let options = options == ["--changes-only"] ? ["--emit", "diff"] + options : options
      let full = try values(replay(options + ["--with-event", log]).standardOutput)
      let count = replay([log]).standardOutput.split(separator: "\n").count
      for number in 1...(count + 1) {
        let until = replay(options + ["--with-event", "--until", "#\(number)", log])
        #expect(until.status == 0, "\(until.standardError)")
        let expected = full.filter { Self.seq($0) <= number }
        #expect(try values(until.standardOutput) == expected, "\(options) #\(number)")
      }
    }
  }

  @Test(arguments: logs)
  func atAnEventIsTheFullReplaysLineOfIt(_ log: String) throws {
    let full = lines(replay([log]).standardOutput)
    for (index, line) in full.enumerated() {
      let at = replay(["--at", "#\(index + 1)", log])
      #expect(at.status == 0, "\(at.standardError)")
      #expect(lines(at.standardOutput) == [line], "#\(index + 1)")
    }
  }

  @Test func atAnEventWithSelectIsTheFinalValueOfTheLogUpToIt() throws {
    let log = "fixtures/example/events.jsonl"
    let all = try String(contentsOfFile: Repository.root + "/" + log, encoding: .utf8)
      .split(separator: "\n")
    for number in 1...all.count {
      let head = all.prefix(number).joined(separator: "\n") + "\n"
      let expected = replay(["--final", "--select", "nav.stack", "-"], input: head)
      let at = replay(["--at", "#\(number)", "--select", "nav.stack", log])
      #expect(at.standardOutput == expected.standardOutput, "#\(number)")
      let line = replay(["--at", "\(log):\(number)", "--select", "nav.stack", log])
      #expect(line.standardOutput == expected.standardOutput, "line \(number)")
    }
  }

  /// A directory holding `full.jsonl`: the full replay of `log` with `--with-event`.
  func withEvent(_ log: String) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("full.jsonl", replay(["--with-event", log]).standardOutput)
    return directory
  }

  /// The log's times, and a time before the first and after the last.
  func times(_ log: String) async throws -> [String] {
    let result = try await ExternalTool.run("jq", ["-r", ".ts", log])
    let times = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
    return ["2000-01-01T00:00:00Z"] + times.map(String.init) + ["2100-01-01T00:00:00Z"]
  }

  @Test(.enabled(if: ExternalTool.exists("jq")), arguments: logs)
  func atATimeIsTheLastStateOfAnEventAtOrBeforeIt(_ log: String) async throws {
    let initial = replay(["--final", "-"]).standardOutput
    let records = try withEvent(log)
    for time in try await times(log) {
      let program = "[.[] | select(.event.ts <= \"\(time)\") | .state] | last"
      let result = try await ExternalTool.run(
        "jq", ["-c", "-s", program, records.file("full.jsonl")])
      var expected = String(decoding: result.standardOutput, as: UTF8.self)
      if expected == "null\n" { expected = initial }
      let at = replay(["--at", time, log])
      #expect(at.status == 0, "\(at.standardError)")
      #expect(at.standardOutput == expected, "\(time)")
    }
  }

  @Test(.enabled(if: ExternalTool.exists("jq")), arguments: logs)
  func sinceATimeIsTheFullReplaysLinesFromTheFirstEventAtOrAfterIt(_ log: String) async throws {
    let records = try withEvent(log)
    for time in try await times(log) {
      let program = "select(.event.ts >= \"\(time)\")"
      let result = try await ExternalTool.run("jq", ["-c", program, records.file("full.jsonl")])
      let since = replay(["--with-event", "--since", time, log])
      #expect(since.standardOutput == String(decoding: result.standardOutput, as: UTF8.self))
    }
  }

  @Test func mergedLogsAreCutInTheirMergedOrder() throws {
    let logs = ["fixtures/replay-merge/phone.jsonl", "fixtures/replay-merge/watch.jsonl"]
    let full = try values(replay(["--with-event"] + logs).standardOutput)
    #expect(full.count > 3)
    for (index, record) in full.enumerated() {
      guard case .string(let file)? = record["file"], case .number(let line)? = record["line"]
      else { continue }
      let position = "\(file):\(line)"
      let since = try values(replay(["--with-event", "--since", position] + logs).standardOutput)
      #expect(since == Array(full.dropFirst(index)), "\(position)")
      let until = try values(
        replay(["--with-event", "--until", "#\(index + 1)"] + logs).standardOutput)
      #expect(until == Array(full.prefix(index + 1)), "#\(index + 1)")
      let at = try values(replay(["--with-event", "--at", position] + logs).standardOutput)
      #expect(at == [record], "\(position)")
    }
  }

  @Test(arguments: ["1", "3"])
  func keyedRangesAreTheFullKeyedReplayCut(_ jobs: String) throws {
    let directory = try TemporaryDirectory()
    let text = DropHideTests.keyedLog(count: 120)
    try directory.write("keyed.jsonl", text)
    let log = directory.file("keyed.jsonl")
    let keyed = ["--key-by", "payload.deviceId", "-j", jobs]
    let full = try values(replay(keyed + ["--with-event", log]).standardOutput)
    let all = text.split(separator: "\n")
    for number in stride(from: 1, through: 121, by: 7) {
      let since = try values(
        replay(keyed + ["--with-event", "--since", "#\(number)", log]).standardOutput)
      #expect(since == full.filter { Self.seq($0) >= number }, "#\(number)")
      let head = all.prefix(number).joined(separator: "\n") + "\n"
      let final = replay(keyed + ["--final", "--select", "nav.stack", "-"], input: head)
      let at = replay(keyed + ["--at", "#\(number)", "--select", "nav.stack", log])
      #expect(at.standardOutput == final.standardOutput, "#\(number)")
      let one = replay([
        "--key-by", "payload.deviceId", "--since", "#\(number)", "--emit", "diff", log,
      ])
      let several = replay(keyed + ["--since", "#\(number)", "--emit", "diff", log])
      #expect(one.standardOutput == several.standardOutput)
    }
  }

  @Test(arguments: logs)
  func diffsFromSinceOnRebuildEveryStatePrintedFromTheInitialState(_ log: String) throws {
    let full = try values(replay(["--with-event", log]).standardOutput)
    for number in 1...(full.count + 1) {
      let patches = try values(
        replay(["--since", "#\(number)", "--emit", "diff", "--with-event", log]).standardOutput)
      #expect(patches.count == max(0, full.count - number + 1))
      var state = try JSONParser.parse(SnapshotState(domains: RaspBuiltinDomains.all).json())
      for line in patches {
        state = try JSONPatch.apply(line["diff"] ?? .null, to: state)
        #expect(state == full[Self.seq(line) - 1]["state"], "#\(number)")
      }
    }
  }

  @Test func aSelectionPrintsItsValueAtTheFirstEventFromSinceOn() {
    // Event 12 is a nav event: the heading, 273 since event 9, is printed with it.
    let run = replay([
      "--since", "#12", "--select", "geo.heading", "--with-event", "fixtures/example/events.jsonl",
    ])
    let lines = run.standardOutput.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains(#""seq":12"#) == true)
    #expect(lines.first?.contains(#""value":273"#) == true)
  }

  @Test func theSummaryCountsEventsBeforeSinceAndSaysWhereItStopped() {
    let run = replay([
      "--since", "#5", "--until", "#12", "--stats", "fixtures/example/events.jsonl",
    ])
    #expect(run.standardOutput.split(separator: "\n").count == 8)
    #expect(
      run.standardError
        == "rasp: 12 lines read (stopped at --until): 12 applied (4 before --since), 0 skipped, "
        + "0 ignored, 0 blank\n")
    let at = replay(["--at", "#3", "--stats", "fixtures/example/events.jsonl"])
    #expect(at.standardError.contains("3 lines read (stopped at --at): 3 applied"))
  }

  @Test func eventsWithoutATimeHaveTheTimeOfTheEventBeforeThem() throws {
    let log = """
      {"type":"geo.heading","payload":{"heading":1}}
      {"type":"geo.heading","ts":"2026-11-22T09:00:00Z","payload":{"heading":2}}
      {"type":"geo.heading","payload":{"heading":3}}
      {"type":"geo.heading","ts":"2026-11-22T10:00:00Z","payload":{"heading":4}}
      {"type":"geo.heading","payload":{"heading":5}}

      """
    let select = ["--select", "geo.heading", "-"]
    let since = replay(["--since", "2026-11-22T09:00:00Z"] + select, input: log)
    #expect(since.standardOutput == "2\n3\n4\n5\n")
    let until = replay(["--until", "2026-11-22T09:30:00Z"] + select, input: log)
    #expect(until.standardOutput == "1\n2\n3\n")
    let before = replay(["--at", "2026-11-22T08:00:00Z"] + select, input: log)
    #expect(before.standardOutput == "1\n")
  }

  @Test func aLogWhoseTimesGoBackStopsAtTheFirstEventAfterUntil() {
    let log = """
      {"type":"geo.heading","ts":"2026-11-22T09:00:00Z","payload":{"heading":1}}
      {"type":"geo.heading","ts":"2026-11-22T11:00:00Z","payload":{"heading":2}}
      {"type":"geo.heading","ts":"2026-11-22T09:30:00Z","payload":{"heading":3}}

      """
    let until = replay(
      ["--until", "2026-11-22T10:00:00Z", "--select", "geo.heading", "-"], input: log)
    #expect(until.standardOutput == "1\n")
  }

  @Test func epochTimesWithAUnitAreTimes() {
    let log = "fixtures/example/events.jsonl"
    let rfc = replay(["--at", "2026-11-22T09:30:01Z", log]).standardOutput
    for epoch in ["1795339801s", "1795339801000ms", "1795339801000000us", "1795339801000000000ns"] {
      #expect(replay(["--at", epoch, log]).standardOutput == rfc, "\(epoch)")
    }
  }

  @Test(arguments: [
    (["--since", "yesterday"], "invalid position 'yesterday' for '--since <position>': expected"),
    (["--until", "other.jsonl:3"], "'other.jsonl' is not an input"),
    (["--at", "#0"], "an event's number, from 1"),
    (["--at", "#3", "--since", "#1"], "options '--at <position>' and '--since' cannot"),
    (["--at", "#3", "--until", "#4"], "options '--at <position>' and '--until' cannot"),
    (["--at", "#3", "--final"], "options '--at <position>' and '--final' cannot"),
    (["--at", "12s3"], "expected an RFC 3339 time"),
    (
      ["--since", "#5", "--until", "#2"],
      "options '--since #5' and '--until #2' select nothing: --until stops before --since starts"
    ),
    (
      ["--since", "2026-11-22T09:30:03Z", "--until", "1795339801s"],
      "options '--since 2026-11-22T09:30:03Z' and '--until 1795339801s' select nothing"
    ),
    (["--since", "line:4", "--until", "line:3"], "options '--since line:4' and '--until line:3'"),
  ])
  func aBadPositionIsAUsageError(_ arguments: [String], message: String) {
    let run = replay(arguments + ["fixtures/example/events.jsonl"])
    #expect(run.status == 64)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func lineNWantsASingleInput() {
    let logs = ["fixtures/replay-merge/phone.jsonl", "fixtures/replay-merge/watch.jsonl"]
    let run = replay(["--since", "line:2"] + logs)
    #expect(run.status == 64)
    #expect(run.standardError.contains("file:line, not line:N, with several inputs"))
    #expect(replay(["--at", "line:2", logs[0]]).status == 0)
  }

  @Test func checkComparesWhatReplayPrints() throws {
    let directory = try TemporaryDirectory()
    let log = "fixtures/example/events.jsonl"
    let options = ["--since", "#4", "--until", "#15", "--select", "nav.stack"]
    try directory.write("golden.jsonl", replay(options + [log]).standardOutput)
    let golden = directory.file("golden.jsonl")
    let run = CommandRun.run(
      ["check"] + options + ["--golden", golden, log], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
  }
}
