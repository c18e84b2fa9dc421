import Foundation
import Testing

@testable import RaspCLI
import RaspTestSupport

/// `--log-format devtools`: an export read whole, and replayed as the log it came from.
@Suite struct ImportedDocumentTests {
  let todos = [
    "--spec", "fixtures/redux-todos/app.json", "--domain", "todos", "--domain", "filters",
  ]

  @Test func exportOfAReplayReplaysIntoTheSameSnapshots() throws {
    let log = "fixtures/redux-todos/actions.jsonl"
    let direct = CommandRun.run(
      ["replay", "--log-format", "fsa"] + todos + [log], in: Repository.root)
    let export = CommandRun.run(
      ["replay", "--log-format", "fsa", "--emit", "devtools"] + todos + [log],
      in: Repository.root)
    #expect(direct.status == 0)
    #expect(export.status == 0)
    let imported = CommandRun.run(
      ["replay", "--log-format", "devtools", "--stats"] + todos + ["-"], in: Repository.root,
      input: Array(export.standardOutput.utf8))
    #expect(imported.status == 0)
    #expect(imported.standardOutput == direct.standardOutput)
    #expect(!direct.standardOutput.isEmpty)
    #expect(imported.standardError.contains("1 dropped by the log format"))
  }

  @Test func checkComparesAnExportWithAGoldenFile() throws {
    let directory = try TemporaryDirectory()
    let golden = directory.path + "/golden.jsonl"
    let export = "fixtures/format-devtools/session.json"
    let record = CommandRun.run(
      ["replay", "--log-format", "devtools"] + todos + [export], in: Repository.root)
    try record.standardOutput.write(toFile: golden, atomically: true, encoding: .utf8)
    let check = CommandRun.run(
      ["check", "--log-format", "devtools", "--golden", golden] + todos + [export],
      in: Repository.root)
    #expect(check.status == 0, "\(check.standardError)")
  }

  @Test func aBadActionStopsTheReplayWithoutOnErrorSkip() {
    let run = CommandRun.run(
      ["replay", "--log-format", "devtools"] + todos
        + ["fixtures/format-devtools-bad/session.json"], in: Repository.root)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "fixtures/format-devtools-bad/session.json:5:47: error: at actionsById[\"2\"].action: "
        + "missing required field 'type'\n")
  }

  @Test func aReplayThatStopsCountsOnlyTheSkippedActionsItPassed() {
    let export = """
      {"actionsById": {"0": {"action": {"type": "@@INIT"}}, "1": {"action": {"type": "x/y"}},
        "2": {"action": {}}, "3": {"action": {"type": "x/z"}}, "4": {"action": {}}},
       "stagedActionIds": [0, 1, 2, 3, 4], "skippedActionIds": [1, 3]}
      """
    let run = CommandRun.run(
      ["replay", "--log-format", "devtools", "--stats"] + todos + ["-"], in: Repository.root,
      input: Array(export.utf8))
    #expect(run.status == 2)
    #expect(
      run.standardError.hasSuffix(
        "rasp: 3 lines read: 0 applied, 1 skipped, 2 ignored (1 dropped by the log format, "
          + "1 skipped in the export), 0 blank\n"), "\(run.standardError)")
    #expect(run.standardError.hasPrefix("<stdin>:2:19: error: at actionsById[\"2\"].action: "))
  }

  @Test func theWarningAboutUnknownTypesNamesTheAction() {
    let run = CommandRun.run(
      ["replay", "--log-format", "devtools", "--final"] + todos + ["-"], in: Repository.root,
      input: Array(
        #"[{"type": "todos/todoAdded", "payload": {"id": 9}},{"type": "todos/zzz"}]"#.utf8))
    #expect(run.status == 0)
    #expect(
      run.standardError
        == "rasp: warning: 1 event of unknown type ignored, the first 'todos.zzz' at "
        + "<stdin>:1:52 ([1]); use --strict to reject them\n")
  }

  @Test func followIsRefused() {
    let run = CommandRun.run(
      ["replay", "--log-format", "devtools", "--follow", "fixtures/format-devtools/session.json"],
      in: Repository.root)
    #expect(run.status == 64)
    #expect(run.standardError.contains("reads each input as one document"))
  }
}
