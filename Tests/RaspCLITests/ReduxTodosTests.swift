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

  /// The app of `fixtures/devtools-cross-slice`, whose slices react to each other's actions
  /// (`user/loggedOut` empties the cart and the todos, every `*/reset` resets two slices) and
  /// whose classic actions have no slice (`ADD_TODO`, `INCREMENT`): its DevTools session is
  /// what `make-session.jq` makes with the app's reducers in jq, and what rasp replays with the
  /// spec is, state by state, what those reducers compute.
  @Test(.enabled(if: ExternalTool.exists("jq")))
  func aSpecWithCrossSliceReducersAgreesWithTheReducersWrittenInJq() async throws {
    let folder = "fixtures/devtools-cross-slice"
    let session = try await ExternalTool.run(
      "jq",
      [
        "-n", "--tab", "-L", folder, "-f", "\(folder)/make-session.jq",
        "\(folder)/session-actions.jsonl",
      ])
    #expect(session.status == 0, "\(session.standardError)")
    expectSameLines(
      try String(contentsOfFile: Repository.path("\(folder)/session.json"), encoding: .utf8),
      String(decoding: session.standardOutput, as: UTF8.self), "session.json")
    let states = try await ExternalTool.run(
      "jq",
      [
        "-c", "-S", "-n", "-L", folder, "-f", "\(folder)/replay.jq",
        "\(folder)/session-actions.jsonl",
      ])
    #expect(states.status == 0, "\(states.standardError)")
    let run = CommandRun.run(
      [
        "replay", "--log-format", "fsa", "--spec", "\(folder)/app.json",
        "\(folder)/session-actions.jsonl",
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.split(separator: "\n").count == 16)
    expectSameLines(
      String(decoding: states.standardOutput, as: UTF8.self), run.standardOutput,
      "rasp against the reducers in jq")
    // And the export itself, action by action.
    let check = CommandRun.run(
      [
        "check", "--log-format", "devtools", "--spec", "\(folder)/app.json",
        "\(folder)/session.json",
      ],
      in: Repository.root)
    #expect(check.status == 0, "\(check.standardError)")
    #expect(
      check.standardError
        == "rasp: 17 actions match the states recorded in '\(folder)/session.json'\n")
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
