import Foundation
import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct DiffCommandTests {
  func diff(_ expected: String, _ actual: String, _ options: [String] = []) throws -> CommandRun {
    let directory = try TemporaryDirectory()
    try directory.write("a.jsonl", expected)
    try directory.write("b.jsonl", actual)
    return CommandRun.run(["diff"] + options + ["a.jsonl", "b.jsonl"], in: directory.path)
  }

  @Test func equalFilesMatchWhateverTheirFormatting() throws {
    let run = try diff("{\"a\":1,\"b\":[1,2]}\n[]\n", "{ \"b\": [1.0, 2], \"a\": 1e0 }\r\n\n[ ]")
    #expect(run.status == 0)
    #expect(run.standardOutput == "")
    #expect(run.standardError == "rasp: 2 snapshots of 'b.jsonl' match 'a.jsonl'\n")
  }

  @Test func snapshotsAreNumberedByPositionAndLinesByLine() throws {
    let run = try diff("1\n2\n3\n", "1\n\n\n2\n4\n")
    #expect(run.status == 1)
    #expect(
      run.standardOutput == """
        snapshot 3 (b.jsonl:5) differs from a.jsonl:3:
        - 3
        + 4

        """)
  }

  @Test func missingAndExtraLinesAreCounted() throws {
    let missing = try diff("1\n2\n3\n", "1\n")
    #expect(missing.status == 1)
    #expect(missing.standardOutput == "2 snapshots missing: b.jsonl ended before a.jsonl:2\n")
    let extra = try diff("1\n", "1\n2\n")
    #expect(
      extra.standardOutput == "1 extra snapshot: a.jsonl ended before snapshot 2 (b.jsonl:2)\n")
  }

  @Test func badJSONIsAnInputErrorOnTheSideWhereItIs() throws {
    let both = try diff("{\n", "[\n")
    #expect(both.status == 2)
    #expect(
      both.standardError
        == "a.jsonl:1:2: error: unexpected end of input in an unterminated object, "
        + "expected a key or '}'\n")
    let extra = try diff("1\n", "1\n2 3\n")
    #expect(extra.status == 2)
    #expect(extra.standardError.hasPrefix("b.jsonl:2:3: error: "))
    let missing = try diff("1\nx\n", "1\n")
    #expect(missing.standardError.hasPrefix("a.jsonl:2:1: error: "))
  }

  @Test func emptyFilesMatch() throws {
    let run = try diff("", "\n")
    #expect(run.status == 0)
    #expect(run.standardError == "rasp: 0 snapshots of 'b.jsonl' match 'a.jsonl'\n")
  }

  @Test func ignoreAndPrecisionApply() throws {
    #expect(
      try diff(
        #"{"ts":1,"x":1.0}"#, #"{"ts":2,"x":1.05}"#, ["--ignore", "ts", "--precision", "0.1"]
      ).status == 0)
    #expect(try diff(#"{"ts":1,"x":1.0}"#, #"{"ts":2,"x":1.05}"#, ["--ignore", "ts"]).status == 1)
  }

  @Test func jsonReportHasThePatch() throws {
    let run = try diff(#"{"a":[1]}"#, #"{"a":[1,2]}"#, ["--format", "json"])
    let report = try JSONParser.parse(run.standardOutput.trimmingCharacters(in: .newlines))
    #expect(report["first"]?["differences"] == [["op": "add", "path": "/a/1", "value": 2]])
    #expect(report["first"]?["actual"] == ["file": "b.jsonl", "line": 1, "snapshot": 1])
  }
}
