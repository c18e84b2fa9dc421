import Foundation
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp shrink --log-format devtools`: a Redux DevTools export shrinks into a DevTools export.
/// Each result is checked with jq, sharing no code with rasp: its actions are the original's,
/// a subsequence of them, its other parts the original's; DevTools' import takes it (the
/// requirements of `fixtures/devtools/FORMAT.md` §5.4); and for the todos session, the app's
/// reducer written in jq (`fixtures/redux-todos/todos.jq`) still breaks the assertion with its
/// actions, and no longer without any one of them.
@Suite(.enabled(if: ExternalTool.exists("jq"), "jq is not installed"))
struct ShrinkDevToolsTests {
  static let todosSpec = Repository.path("fixtures/redux-todos/app.json")
  static let session = Repository.path("fixtures/devtools-todos/session.json")

  /// What DevTools' import of a lifted state needs (FORMAT.md §5.4), as one jq expression
  /// over the export: `true` when it holds.
  static let importable = """
    (.stagedActionIds | type == "array" and all(type == "number"))
    and (.stagedActionIds[0] == 0)
    and (.actionsById["0"].action.type == "@@INIT")
    and (. as $e | all($e.stagedActionIds[];
      ($e.actionsById[tostring].action | type == "object" and (.type | type == "string"))))
    and (.skippedActionIds | type == "array")
    and (.computedStates | type == "array")
    and ((.computedStates | length) == (.stagedActionIds | length))
    and (.currentStateIndex as $i | $i == ($i | floor) and $i >= 0
      and $i < (.stagedActionIds | length))
    and (.nextActionId > (.stagedActionIds | max))
    and (has("payload") | not)
    """

  /// Runs jq over files of `directory`, and parses its one output.
  static func jq(_ program: String, _ arguments: [String]) async throws -> String {
    let result = try await ExternalTool.run("jq", ["-n", "-c"] + arguments + [program])
    #expect(result.status == 0, "jq: \(result.standardError)")
    return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func aLiftedStateShrinksToTheActionsThatBreakTheAssertionAsALiftedState()
    async throws
  {
    let directory = try TemporaryDirectory()
    let assertion = #".todos | all(.completed == false or .color != "red")"#
    let run = CommandRun.run(
      [
        "shrink", Self.session, "--log-format", "devtools", "--spec", Self.todosSpec,
        "--assert", assertion, "-o", directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains(": events 17→3 · "), "\(run.standardError)")
    // The jq reducer of the app, from the export's start: whether a todo is ever completed
    // and red, for the actions of ids `$ids`.
    let program = """
      include "todos";
      def actions($e; $ids): [$ids[] as $id | $e.actionsById[$id | tostring].action];
      def fails($e; $ids): [foreach actions($e; $ids)[] as $a ($e.committedState; app($a);
        any(.todos[]; .completed and .color == "red"))] | any;
      ($o[0]) as $o | ($s[0]) as $s
      | ($o.stagedActionIds - $o.skippedActionIds) as $replayed
      | ($s.stagedActionIds | map(. as $id | $replayed | index($id))) as $at
      | {
          subsequence: ($at | all(. != null) and . == sort),
          entries: (($s.actionsById | keys) == ($s.stagedActionIds | map(tostring) | sort)
            and ([$s.stagedActionIds[] | tostring | $s.actionsById[.] == $o.actionsById[.]]
              | all)),
          states: ($s.computedStates
            == [$s.stagedActionIds[] as $id
                | $o.computedStates[$o.stagedActionIds | index($id)]]),
          rest: (($s | del(.actionsById, .stagedActionIds, .skippedActionIds,
              .computedStates, .currentStateIndex))
            == ($o | del(.actionsById, .stagedActionIds, .skippedActionIds,
              .computedStates, .currentStateIndex))),
          importable: ($s | \(Self.importable)),
          fails: fails($s; $s.stagedActionIds),
          minimal: ([range(1; $s.stagedActionIds | length) as $i
            | fails($s; $s.stagedActionIds | del(.[$i])) | not] | all),
          kept: ($s.stagedActionIds | length)
        }
      """
    let report = try await Self.jq(
      program,
      [
        "-L", Repository.path("fixtures/redux-todos"), "--slurpfile", "o", Self.session,
        "--slurpfile", "s", directory.file("min.json"),
      ])
    #expect(
      report
        == #"{"subsequence":true,"entries":true,"states":true,"rest":true,"importable":true,"#
        + #""fails":true,"minimal":true,"kept":4}"#)
    // The layout of what was kept is the export's own: tabs.
    let text = String(decoding: directory.bytes("min.json") ?? [], as: UTF8.self)
    #expect(text.hasPrefix("{\n\t\"monitorState\": {},\n\t\"nextActionId\": 19,\n"))
    #expect(text.hasSuffix("\n}\n"))
    // rasp reads it back: as a replay, and as a check against its recorded states.
    let check = CommandRun.run(
      ["check", "--log-format", "devtools", "--spec", Self.todosSpec, directory.file("min.json")])
    #expect(check.status == 0, "\(check.standardError)")
    #expect(check.standardError.contains("4 actions match the states recorded"))
  }

  @Test func aSerializedExportKeepsItsJSANTagsAndInlinesAReferenceIntoARemovedAction()
    async throws
  {
    let folder = Repository.path("fixtures/devtools-jsan")
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "shrink", folder + "/export.json", "--log-format", "devtools", "--spec",
        folder + "/app.json", "--assert", ".app.last.byId == null", "-o",
        directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains(": events 4→1 · "), "\(run.standardError)")
    // Action 3's Map referred to action 1's item, which went: the Map holds it now, and the
    // recorded state still refers to action 3's payload, which stayed.
    let report = try await Self.jq(
      """
      $s[0] | {
        ids: .stagedActionIds,
        map: (.actionsById["3"].action.payload.byId["$jsan"] | .[1:] | fromjson),
        set: .actionsById["3"].action.payload.seen,
        state: .computedStates[1].state.app.last,
        dangling: [.. | strings | select(test("actionsById\\\\.[124]"))]
      }
      """, ["--slurpfile", "s", directory.file("min.json")])
    #expect(
      report
        == #"{"ids":[0,3],"map":[["a",1],["b",{"deep":{"id":7,"tags":["a","b"]}}]],"#
        + #""set":{"$jsan":"l[\"x\",\"y\"]"},"#
        + #""state":{"$jsan":"$.actionsById.3.action.payload"},"dangling":[]}"#)
    // Its replay prints action 3's payload as node's JSON.stringify wrote it.
    let replay = CommandRun.run(
      [
        "replay", "--log-format", "devtools", "--spec", folder + "/app.json", "--select",
        "app.last", directory.file("min.json"),
      ])
    let payloads = try String(contentsOfFile: folder + "/payloads.jsonl", encoding: .utf8)
      .split(separator: "\n")
    #expect(replay.standardOutput == payloads[2] + "\n")
  }

  @Test func theExtensionsPayloadExportShrinksIntoAPayloadString() async throws {
    let state = Repository.path("fixtures/format-devtools-payload/state.json")
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "shrink", state, "--log-format", "devtools", "--spec", Self.todosSpec, "--assert",
        #".filters.status == "All""#, "-o", directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      """
      ($o[0]) as $o | ($s[0]) as $s | ($o.payload | fromjson) as $all
      | ($s.payload | fromjson) as $kept
      | {
          strings: (($s.payload | type) == "string" and ($s.preloadedState | type) == "string"),
          preloaded: ($s.preloadedState == $o.preloadedState),
          keys: (($s | keys) == ($o | keys)),
          kept: $kept,
          subsequence: ($kept | map(. as $a | $all | index([$a])) | all(. != null) and . == sort)
        }
      """, ["--slurpfile", "o", state, "--slurpfile", "s", directory.file("min.json")])
    #expect(
      report
        == #"{"strings":true,"preloaded":true,"keys":true,"#
        + #""kept":[{"type":"filters/statusFilterChanged","payload":"Active"}],"#
        + #""subsequence":true}"#)
    let text = String(decoding: directory.bytes("min.json") ?? [], as: UTF8.self)
    #expect(text.hasPrefix("{\n\t\"payload\": \"[{"))
  }

  @Test func theUpstreamLiftedStateSampleShrinksIntoOneDevToolsImports() async throws {
    let folder = Repository.path("fixtures/format-devtools-upstream")
    let sample = folder + "/upstream-enhancer-spec-import-lifted.json"
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "shrink", sample, "--map", folder + "/counter.map.json", "--spec", folder + "/app.json",
        "--assert", ".app.count < 1", "-o", directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      "$s[0] | {importable: (\(Self.importable)), ids: .stagedActionIds}",
      ["--slurpfile", "s", directory.file("min.json")])
    #expect(report == #"{"importable":true,"ids":[0,1]}"#)
  }

  @Test func withPayloadsAnActionIsWrittenBackWithoutTheTimeItsLineHadFromItsEntry()
    async throws
  {
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "shrink", Self.session, "--log-format", "devtools", "--spec", Self.todosSpec,
        "--assert", #".todos | all(.completed == false or .color != "red")"#, "--payloads",
        "-o", directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      """
      $s[0] | {
        actions: [.stagedActionIds[1:][] as $id | .actionsById[$id | tostring].action],
        timestamps: [.actionsById[] | .timestamp | type]
      }
      """, ["--slurpfile", "s", directory.file("min.json")])
    // The todo's text goes (the todo is needed, not its text); the other actions are needed
    // whole, and stay as they were written.
    #expect(
      report
        == #"{"actions":[{"payload":{"id":3},"type":"todos/todoAdded"},"#
        + #"{"type":"todos/todoToggled","payload":3},"#
        + #"{"type":"todos/colorSelected","payload":{"todoId":3,"color":"red"}}],"#
        + #""timestamps":["number","number","number","number"]}"#)
    let replay = CommandRun.run(
      [
        "replay", "--log-format", "devtools", "--spec", Self.todosSpec, "--select", "todos[-1]",
        "--final", directory.file("min.json"),
      ])
    #expect(replay.standardOutput == #"{"color":"red","completed":true,"id":3}"# + "\n")
  }

  @Test func aLiftedStateThatPayloadHoldsStaysOneAndABareArrayStaysAnArray() async throws {
    let wrapped = Repository.path("fixtures/devtools-wrapped-payload/wrapped.json")
    let array = Repository.path("fixtures/format-devtools-array/actions.json")
    let directory = try TemporaryDirectory()
    for (file, output) in [(wrapped, "wrapped.json"), (array, "array.json")] {
      let run = CommandRun.run(
        [
          "shrink", file, "--log-format", "devtools", "--spec", Self.todosSpec, "--assert",
          ".todos | all(.completed == false)", "-o", directory.file(output),
        ])
      #expect(run.status == 0, "\(run.standardError)")
    }
    let report = try await Self.jq(
      """
      ($w[0]) as $w | ($o[0].payload | fromjson) as $o | ($w.payload | fromjson) as $s
      | ($o.stagedActionIds - $o.skippedActionIds) as $replayed
      | {
          shape: [($w | keys), ($w.payload | type)],
          preloaded: ($w.preloadedState == $ow[0].preloadedState),
          importable: ($s | \(Self.importable)),
          subsequence: ($s.stagedActionIds | map(. as $id | $replayed | index($id))
            | all(. != null) and . == sort),
          entries: ([$s.stagedActionIds[] | tostring | $s.actionsById[.] == $o.actionsById[.]]
            | all),
          array: ($a[0] | map(. as $x | $all[0] | index([$x])))
        }
      """,
      [
        "--slurpfile", "w", directory.file("wrapped.json"), "--slurpfile", "o", wrapped,
        "--slurpfile", "ow", wrapped, "--slurpfile", "a", directory.file("array.json"),
        "--slurpfile", "all", array,
      ])
    #expect(
      report
        == #"{"shape":[["payload","preloadedState"],"string"],"preloaded":true,"#
        + #""importable":true,"subsequence":true,"entries":true,"array":[0]}"#)
  }

  @Test func theCommandOfCmdIsGivenEachCandidateAsAnExport() async throws {
    let directory = try TemporaryDirectory()
    // jq reads a lifted state, not the lines rasp makes of it.
    let command =
      "jq -e '[.actionsById[] | .action.type] | index(\"todos/colorSelected\")' \"$1\" "
      + ">/dev/null"
    let run = CommandRun.run(
      [
        "shrink", Self.session, "--log-format", "devtools", "--spec", Self.todosSpec, "--cmd",
        command, "-o", directory.file("min.json"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      "$s[0] | [.stagedActionIds, [.actionsById[] | .action.type]]",
      ["--slurpfile", "s", directory.file("min.json")])
    #expect(report == #"[[0,3],["@@INIT","todos/colorSelected"]]"#)
  }

  @Test func aFileThatIsNoExportIsRefusedAtItsPlace() throws {
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "shrink", Repository.path("fixtures/format-devtools-not-export/state.json"),
        "--log-format", "devtools", "--spec", Self.todosSpec, "--fails-with", "2", "-o",
        directory.file("min.json"),
      ])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasSuffix(
        "fixtures/format-devtools-not-export/state.json:1:1: error: not a Redux DevTools "
          + "export: no 'actionsById' or 'payload' at the top level, and not an array of "
          + "actions\n"))
    #expect(directory.bytes("min.json") == nil)
  }
}
