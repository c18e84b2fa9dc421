import Foundation
import Testing

@testable import RaspCLI
import RaspTestSupport

/// A Redux DevTools session as its lifted state, and the same lifted state wrapped as
/// `importState` reads it, `{"payload": "<the lifted state as JSON text>", "preloadedState":
/// "…"}` (fixtures/devtools-wrapped-payload, made by hand after DevTools' code; see its
/// SOURCE.md): every command that reads an export reads both alike, and what they replay is
/// the states written by hand.
@Suite struct DevToolsWrappedPayloadTests {
  static let folder = "fixtures/devtools-wrapped-payload"
  static let spec = Repository.path("fixtures/redux-todos/app.json")
  static let devtools = ["--log-format", "devtools", "--spec", spec]

  /// Runs `arguments` on a copy of `export` named `session.json` in a folder of its own, so
  /// that the two shapes' messages name the same file; returns the run and the bytes of
  /// `report.html`, when the command wrote one.
  private func run(_ arguments: [String], on export: String) throws -> (CommandRun, [UInt8]?) {
    let directory = try TemporaryDirectory()
    let text = try String(
      contentsOfFile: Repository.path("\(Self.folder)/\(export)"), encoding: .utf8)
    try directory.write("session.json", text)
    let run = CommandRun.run(arguments + ["session.json"], in: directory.path)
    return (run, directory.bytes("report.html"))
  }

  /// Each command that reads a DevTools export, with its options before the file.
  @Test(arguments: [
    ["replay", "--stats", "--domain", "todos", "--domain", "filters"],
    ["replay", "--emit", "diff", "--domain", "todos", "--domain", "filters"],
    ["replay", "--emit", "devtools", "--domain", "todos", "--domain", "filters"],
    ["replay", "--final", "--select", "todos[-1]"],
    ["check"],
    ["check", "--final", "--format", "json"],
    ["find", ".todos[0].completed == true"],
    ["blame", "filters.colors"],
    ["report", "-o", "report.html"],
  ])
  func everyCommandReadsBothShapesAlike(_ command: [String]) throws {
    let arguments = [command[0]] + Self.devtools + command.dropFirst()
    let (lifted, liftedReport) = try run(arguments, on: "lifted.json")
    let (wrapped, wrappedReport) = try run(arguments, on: "wrapped.json")
    #expect(lifted.status == 0, "\(lifted.standardError)")
    #expect(wrapped.status == lifted.status)
    #expect(wrapped.standardOutput == lifted.standardOutput)
    #expect(wrapped.standardError == lifted.standardError)
    #expect(wrappedReport == liftedReport)
    #expect(!lifted.standardOutput.isEmpty || !lifted.standardError.isEmpty || liftedReport != nil)
  }

  /// `rasp compare` of two versions diverges at the same event, with the same states, for
  /// both shapes; only the action's place differs, the string's in the wrapped one.
  @Test func compareDivergesAtTheSameEventForBothShapes() throws {
    let arguments = [
      "compare", "--log-format", "devtools", "--old-spec", Self.spec, "--new-spec",
      Repository.path("fixtures/check-devtools-recorded-differs/buggy-app.json"),
    ]
    let (lifted, _) = try run(arguments, on: "lifted.json")
    let (wrapped, _) = try run(arguments, on: "wrapped.json")
    #expect(lifted.status == 1, "\(lifted.standardError)")
    #expect(wrapped.status == lifted.status)
    let liftedPlace = #"(session.json:5:47, at actionsById["1"].action)"#
    let wrappedPlace = #"(session.json:2:13, at payload.actionsById["1"].action)"#
    #expect(lifted.standardOutput.contains("divergent at event 2 \(liftedPlace)"))
    #expect(
      wrapped.standardOutput.replacing(wrappedPlace, with: liftedPlace) == lifted.standardOutput)
    #expect(wrapped.standardError == lifted.standardError)
  }

  /// The snapshots after each action replayed, written by hand from the tutorial's reducers:
  /// `@@INIT` dropped, action 3 skipped in the monitor, the start the lifted state's
  /// `committedState` (an empty list of todos), not the `preloadedState` beside it.
  @Test(arguments: ["lifted.json", "wrapped.json"])
  func replaysTheStatesWrittenByHand(_ export: String) throws {
    let (run, _) = try run(
      ["replay"] + Self.devtools + ["--domain", "todos", "--domain", "filters"], on: export)
    #expect(run.status == 0, "\(run.standardError)")
    let filters = #""filters":{"colors":[],"status":"All"}"#
    let milk = #"{"completed":false,"id":0,"text":"Buy milk"}"#
    let milkDone = #"{"completed":true,"id":0,"text":"Buy milk"}"#
    let dog = #"{"completed":false,"id":1,"text":"Walk the dog"}"#
    let redDog = #"{"color":"red","completed":false,"id":1,"text":"Walk the dog"}"#
    #expect(
      run.standardOutput.split(separator: "\n").map(String.init) == [
        "{\(filters),\"todos\":[\(milk)]}",
        "{\(filters),\"todos\":[\(milk),\(dog)]}",
        "{\(filters),\"todos\":[\(milkDone),\(dog)]}",
        "{\(filters),\"todos\":[\(milkDone),\(redDog)]}",
        #"{"filters":{"colors":["red"],"status":"All"},"todos":["# + "\(milkDone),\(redDog)]}",
      ])
  }

  @Test func checkAgreesWithTheRecordedStatesAndFindsAChangedOne() throws {
    let (run, _) = try run(["check"] + Self.devtools, on: "wrapped.json")
    #expect(run.status == 0)
    #expect(run.standardError == "rasp: 6 actions match the states recorded in 'session.json'\n")
    // The recorded state after action 4 says the todo stayed open: the check finds it.
    let lifted = try String(
      contentsOfFile: Repository.path("\(Self.folder)/lifted.json"), encoding: .utf8)
    let done =
      #"{"state": {"todos": [{"id": 0, "text": "Buy milk", "completed": true}, "#
      + #"{"id": 1, "text": "Walk the dog", "completed": false}], "#
      + #""filters": {"status": "All", "colors": []}}},"#
    // Only computedStates[4] is this state: 5 and 6 have a red todo.
    #expect(lifted.ranges(of: done).count == 1)
    let wrong = lifted.replacing(
      done, with: done.replacing(#""completed": true"#, with: #""completed": false"#))
    let directory = try TemporaryDirectory()
    try directory.write("session.json", "{\n\t\"payload\": " + Self.quoted(wrong) + "\n}\n")
    let check = CommandRun.run(["check"] + Self.devtools + ["session.json"], in: directory.path)
    #expect(check.status == 1)
    #expect(
      check.standardOutput.hasPrefix(
        "action 4 'todos/todoToggled' (session.json:2, payload.actionsById[\"4\"].action) differs "
          + "from payload.computedStates[4].state (session.json:2):"),
      "\(check.standardOutput)")
    #expect(
      check.standardError.hasSuffix(
        "1 of 6 actions differs from the states recorded in 'session.json'\n"))
  }

  /// `text` as a JSON string, escaped by hand: what `JSON.stringify` of a string writes for
  /// these texts (quotes, backslashes and line ends only).
  static func quoted(_ text: String) -> String {
    "\""
      + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
      .replacing("\n", with: "\\n") + "\""
  }

  /// A mistake inside the payload string is reported at the string (line 2, column 13, after
  /// a tab and `"payload": `), with where it is in the string, counted by hand.
  @Test func aMistakeInsideThePayloadStringSaysWhereInTheString() throws {
    let directory = try TemporaryDirectory()
    let inner = #"{"actionsById": {"0": {"action": {"type": "@@INIT"}}}, "stagedActionIds": 5}"#
    try directory.write("session.json", "{\n\t\"payload\": " + Self.quoted(inner) + "\n}\n")
    let run = CommandRun.run(["replay"] + Self.devtools + ["session.json"], in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "session.json:2:13: error: at payload.stagedActionIds: 'stagedActionIds' must be an "
        + "array of ids, found a number (at 1:75 of the payload string)\n")
  }

  @Test func aBadActionInsideThePayloadStringSaysWhereInTheString() throws {
    let directory = try TemporaryDirectory()
    // Pretty-printed inside the string: the action without a type is on its fourth line.
    let inner = """
      {
        "actionsById": {
          "0": {"action": {"type": "@@INIT"}},
          "1": {"action": {"payload": 1}}
        },
        "stagedActionIds": [0, 1],
        "skippedActionIds": []
      }
      """
    try directory.write("session.json", "{\n\t\"payload\": " + Self.quoted(inner) + "\n}\n")
    let run = CommandRun.run(
      ["replay", "--on-error", "skip"] + Self.devtools + ["session.json"], in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix(
        "session.json:2:13: error: at payload.actionsById[\"1\"].action: missing required field "
          + "'type' (at 4:21 of the payload string)\n"),
      "\(run.standardError)")
  }
}
