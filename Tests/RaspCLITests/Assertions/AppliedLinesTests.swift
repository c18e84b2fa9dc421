import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp check --assert … --format json --applied-lines`: the report lists, for each input,
/// the lines whose events were applied, as runs — checked against the lines that
/// `rasp replay --with-event` gives each event it applies, an independent account.
@Suite struct AppliedLinesTests {
  /// A log with every kind of line that is not applied: blank, bad (skipped), of an unknown
  /// type (ignored), and an event its domain rejects (a pop of a new key's empty stack, in
  /// `nav`, which the assertion reads: the other domains' events are passed over, not
  /// decoded); and runs of applied lines between them, of two keys and of none.
  static let log =
    [
      #"{"user":"ann","type":"nav.push","payload":{"screen":"home"}}"#,
      "",
      #"{"user":"bob","type":"nav.push","payload":{"screen":"cart""#,
      #"{"user":"bob","type":"debug.note","payload":{}}"#,
      #"{"user":"bob","type":"nav.push","payload":{"screen":"cart"}}"#,
      #"{"type":"nav.push","payload":{"screen":"no key"}}"#,
      #"{"user":"ann","type":"nav.pop"}"#,
      #"{"user":"cy","type":"nav.pop"}"#,
      "   ",
      #"{"user":"bob","type":"geo.heading","payload":{"heading":5}}"#,
      #"{"user":"ann","type":"nav.present","payload":{"screen":"login"}}"#,
    ].joined(separator: "\n") + "\n"

  static let assertion = ["--key-by", "user", "--assert", "never .nav.modal == \"login\""]

  /// The `appliedLines` member of a `rasp check` JSON report, as (file, runs) pairs.
  static func appliedLines(_ run: CommandRun) throws -> [(String, [[Int]])] {
    let report = try JSONParser.parse(run.standardOutput)
    guard case .array(let inputs)? = report["appliedLines"] else {
      Issue.record("no appliedLines in \(run.standardOutput) \(run.standardError)")
      return []
    }
    return inputs.map { input in
      guard case .string(let file)? = input["file"], case .array(let runs)? = input["runs"] else {
        Issue.record("not an input: \(input)")
        return ("", [])
      }
      return (
        file,
        runs.map { run in
          guard case .array(let bounds) = run else { return [] }
          return bounds.compactMap { bound in
            guard case .number(let number) = bound else { return nil }
            return number.exactInteger.map { Int($0) }
          }
        }
      )
    }
  }

  /// The lines `rasp replay --with-event` applied, by file, as runs of consecutive lines.
  static func replayedLines(_ arguments: [String], in directory: String) throws -> [String:
    [[Int]]]
  {
    let run = CommandRun.run(
      ["replay", "--with-event", "--on-error", "skip"] + arguments, in: directory)
    var lines: [String: [Int]] = [:]
    for record in run.standardOutput.split(separator: "\n") {
      let value = try JSONParser.parse(Array(record.utf8))
      guard case .string(let file)? = value["file"], case .number(let line)? = value["line"],
        let number = line.exactInteger
      else {
        Issue.record("not a record: \(record)")
        continue
      }
      lines[file, default: []].append(Int(number))
    }
    return lines.mapValues { numbers in
      var runs: [[Int]] = []
      for number in numbers.sorted() {
        if let last = runs.last, last[1] + 1 >= number {
          runs[runs.count - 1][1] = max(last[1], number)
        } else {
          runs.append([number, number])
        }
      }
      return runs
    }
  }

  @Test func theRunsAreTheLinesTheReplayApplies() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log)
    let run = CommandRun.run(
      ["check", "--format", "json", "--applied-lines", "--on-error", "skip"] + Self.assertion
        + ["events.jsonl"], in: directory.path)
    #expect(run.status == 2, "a bad line was skipped: \(run.standardError)")
    let applied = try Self.appliedLines(run)
    let replayed = try Self.replayedLines(
      ["--key-by", "user", "events.jsonl"], in: directory.path)
    #expect(applied.map(\.0) == ["events.jsonl"])
    #expect(applied.first?.1 == replayed["events.jsonl"])
    // Lines 2 (blank), 3 (bad), 4 (unknown type), 8 (rejected) and 9 (blank) are not applied.
    #expect(applied.first?.1 == [[1, 1], [5, 7], [10, 11]])
    // The rest of the report is the one without the option.
    let plain = CommandRun.run(
      ["check", "--format", "json", "--on-error", "skip"] + Self.assertion + ["events.jsonl"],
      in: directory.path)
    var report = try JSONParser.parse(run.standardOutput)
    if case .object(var object) = report {
      object["appliedLines"] = nil
      report = .object(object)
    }
    #expect(report == (try JSONParser.parse(plain.standardOutput)))
    #expect(plain.standardOutput.contains("appliedLines") == false)
  }

  @Test func eachInputHasItsRunsThoughNoneWasApplied() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.jsonl", Self.log)
    try directory.write("b.jsonl", "\n" + #"{"user":"cy","type":"debug.note"}"# + "\n")
    try directory.write(
      "c.jsonl", Self.log.split(separator: "\n").suffix(3).joined(separator: "\n"))
    let run = CommandRun.run(
      ["check", "--format", "json", "--applied-lines", "--on-error", "skip"] + Self.assertion
        + ["a.jsonl", "b.jsonl", "c.jsonl"], in: directory.path)
    let applied = try Self.appliedLines(run)
    let replayed = try Self.replayedLines(
      ["--key-by", "user", "a.jsonl", "b.jsonl", "c.jsonl"], in: directory.path)
    #expect(applied.map(\.0) == ["a.jsonl", "b.jsonl", "c.jsonl"])
    for (file, runs) in applied { #expect(runs == replayed[file, default: []], "\(file)") }
    #expect(applied[1].1 == [], "b.jsonl has no event applied")
    // c.jsonl's last line presents ann's login again, presented since a.jsonl: rejected by
    // the state, not by the line.
    #expect(applied[2].1 == [[2, 2]])
  }

  @Test func standardInputIsNamedAsTheReportNamesIt() throws {
    let run = CommandRun.run(
      ["check", "--format", "json", "--applied-lines", "--on-error", "skip"] + Self.assertion,
      input: Array(Self.log.utf8))
    let applied = try Self.appliedLines(run)
    #expect(applied.map(\.0) == ["<stdin>"])
    #expect(applied.first?.1 == [[1, 1], [5, 7], [10, 11]])
  }

  @Test(arguments: [
    (
      ["--assert", ".nav.stack | length < 3"],
      "option '--applied-lines' adds to the JSON report: give '--format json'"
    ),
    (
      ["--format", "json"],
      "option '--applied-lines' lists the lines the assertions were checked on: give "
        + "'--assert <expr>'"
    ),
  ])
  func itIsAUsageErrorWithoutAssertionsOrJSON(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log)
    let run = CommandRun.run(
      ["check", "--applied-lines"] + arguments + ["events.jsonl"], in: directory.path)
    #expect(run.status == 64)
    #expect(run.standardOutput == "")
    #expect(run.standardError.hasPrefix("rasp: error: \(message)\n"), "\(run.standardError)")
  }
}
