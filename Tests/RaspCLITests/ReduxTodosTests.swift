import Foundation
import Testing
import RaspTestSupport

/// Checks the spec of the Redux Fundamentals todo app (`fixtures/redux-todos/app.json`) against
/// the same reducers written in jq (`reducer.jq`), so that the fixture's expected output does not
/// rest on rasp alone: `FixtureTests` checks that rasp prints `expected.jsonl`, and this test
/// that jq, replaying the actions with the tutorial's reducers, prints it too.
@Suite struct ReduxTodosTests {
  @Test(.enabled(if: ExternalTool.exists("jq")))
  func theSpecAgreesWithTheReducersWrittenInJq() async throws {
    let folder = "fixtures/redux-todos"
    let result = try await ExternalTool.run(
      "jq",
      ["-c", "-S", "-n", "-L", folder, "-f", "\(folder)/reducer.jq", "\(folder)/actions.jsonl"])
    #expect(result.status == 0, "\(result.standardError)")
    let expected = try String(
      contentsOfFile: Repository.path("\(folder)/expected.jsonl"), encoding: .utf8)
    let snapshots = String(decoding: result.standardOutput, as: UTF8.self)
    #expect(snapshots.split(separator: "\n").count == 16)
    expectSameLines(expected, snapshots, "jq's reducers against \(folder)/expected.jsonl")
  }

  /// The Redux DevTools sessions of `fixtures/devtools-todos`, which `rasp check` compares
  /// replays with, are what `make-session.jq` makes with the tutorial's reducers in jq: the
  /// recorded states are not rasp's own.
  @Test(
    .enabled(if: ExternalTool.exists("jq")),
    arguments: [("session.json", 0), ("session-committed.json", 4)])
  func theRecordedSessionsAreWhatTheReducersInJqMake(_ file: String, _ committed: Int) async throws
  {
    let folder = "fixtures/devtools-todos"
    let result = try await ExternalTool.run(
      "jq",
      [
        "-n", "--tab", "-L", "fixtures/redux-todos", "-f", "\(folder)/make-session.jq",
        "--argjson", "committed", "\(committed)", "\(folder)/session-actions.jsonl",
      ])
    #expect(result.status == 0, "\(result.standardError)")
    let session = try String(contentsOfFile: Repository.path("\(folder)/\(file)"), encoding: .utf8)
    expectSameLines(session, String(decoding: result.standardOutput, as: UTF8.self), file)
  }

  /// An export serialized with jsan (`serialize: true`) replays into the payloads that node's
  /// `JSON.stringify` wrote from the original values (`fixtures/devtools-jsan`).
  @Test(.enabled(if: ExternalTool.exists("jq")))
  func aSerializedExportDecodesToWhatJSONStringifyWrote() async throws {
    let folder = "fixtures/devtools-jsan"
    let run = CommandRun.run(
      [
        "replay", "--log-format", "devtools", "--spec", "\(folder)/app.json", "--domain", "app",
        "--select", "app.last", "\(folder)/export.json",
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    let sorted = try await ExternalTool.run("jq", ["-c", "-S", ".", "\(folder)/payloads.jsonl"])
    expectSameLines(
      String(decoding: sorted.standardOutput, as: UTF8.self), run.standardOutput,
      "rasp against node's JSON.stringify")
    #expect(run.standardOutput.split(separator: "\n").count == 4)
  }

  @Test func aTodoThatIsNotThereRejectsTheAction() {
    let run = CommandRun.run(
      [
        "replay", "--log-format", "fsa", "--spec", "fixtures/redux-todos/app.json",
        "--select", "todos|length", "--on-error", "skip", "-",
      ],
      in: Repository.root,
      input: Array(
        (#"{"type":"todos/todoToggled","payload":7}"# + "\n"
          + #"{"type":"todos/todoDeleted","payload":"2"}"# + "\n"
          + #"{"type":"todos/colorSelected","payload":{"color":"red"}}"# + "\n"
          + #"{"type":"todos/todoDeleted","payload":2}"# + "\n").utf8))
    #expect(run.standardOutput == "2\n")
    #expect(
      run.standardError.split(separator: "\n").prefix(3) == [
        "<stdin>:1:1: error: event rejected: cannot toggle '[?id == 7].completed': no element of "
          + "the state has id == 7",
        "<stdin>:2:1: error: event rejected: cannot remove '[?id == \"2\"]': no element of the "
          + "state has id == \"2\"",
        "<stdin>:3:41: error: missing required field 'payload.todoId'",
      ])
    #expect(run.status == 2)
  }
}
