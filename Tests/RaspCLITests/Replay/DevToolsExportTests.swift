import Foundation
import RaspTestSupport
import Testing

/// `rasp replay --emit devtools`: one Redux DevTools export of a replay, checked with jq
/// against the replay's own lines and against the export DevTools' own tests import
/// (`fixtures/devtools`).
@Suite struct DevToolsExportTests {
  /// Runs a shell command with the built `rasp` and `jq`, and returns its standard output.
  private func shell(_ command: String) async throws -> String {
    let result = try await BuiltBinary.shell(command)
    #expect(result.status == 0, "\(command): \(result.standardError)")
    return result.text
  }

  @Test func everyEventIsAnActionAndEverySnapshotAComputedState() async throws {
    let log = "fixtures/example/events.jsonl"
    let export = "rasp replay --emit devtools \(log)"
    // The computed states after @@INIT are the replay's snapshots, in order.
    await #expect(
      try shell("\(export) | jq -c '.computedStates[1:][].state'")
        == (try shell("rasp replay \(log)")))
    // The initial state is the snapshot of an empty log, committed and computed.
    let initial = try await shell("rasp replay --final < /dev/null")
    await #expect(try shell("\(export) | jq -c '.computedStates[0].state'") == initial)
    await #expect(try shell("\(export) | jq -c '.committedState'") == initial)
    // Each action's type is the event's, with a slash; its time the event's, in ms (python).
    let types = try await shell(
      "\(export) | jq -r '.stagedActionIds[1:][] as $id | .actionsById[$id|tostring].action.type'")
    let expectedTypes = try await shell(
      "jq -r '.type | sub(\"\\\\.\"; \"/\")' \(log)")
    #expect(types == expectedTypes)
    let times = try await shell(
      "\(export) | jq -r '.stagedActionIds[1:][] as $id | .actionsById[$id|tostring].timestamp'")
    let expectedTimes = try await shell(
      "jq -r .ts \(log) | python3 -c 'import sys, datetime; [print(round(datetime.datetime"
        + ".fromisoformat(l.strip().replace(\"Z\", \"+00:00\")).timestamp() * 1000)) "
        + "for l in sys.stdin]'")
    #expect(times == expectedTimes)
    // The bookkeeping DevTools' import relies on.
    await #expect(
      try shell(
        "\(export) | jq -c '[.actionsById[\"0\"].action.type, (.stagedActionIds == "
          + "[range(0; .nextActionId)]), .currentStateIndex, .nextActionId, .skippedActionIds, "
          + "(.actionsById | keys | length), (.computedStates | length)]'")
        == "[\"@@INIT\",true,20,21,[],21,21]\n")
  }

  @Test func hasEveryKeyOfTheExportDevToolsOwnTestsImport() async throws {
    // The lifted state that DevTools' extension test imports (MIT, fixtures/devtools): ours has
    // every key it has, and its actions have every key its actions have.
    let sample = "fixtures/devtools/upstream-enhancer-spec-import-lifted.json"
    let keys = "jq -c '[keys, (.actionsById[\"1\"] | keys), (.computedStates[0] | keys)]'"
    let theirs = try await shell("\(keys) \(sample)")
    let ours = try await shell(
      "rasp replay --emit devtools fixtures/example/events.jsonl | \(keys)")
    let theirKeys = try JSONSerialization.jsonObject(with: Data(theirs.utf8)) as? [[String]]
    let ourKeys = try JSONSerialization.jsonObject(with: Data(ours.utf8)) as? [[String]]
    for (their, our) in zip(theirKeys ?? [], ourKeys ?? []) {
      #expect(Set(their).isSubset(of: Set(our)), "missing \(Set(their).subtracting(our))")
    }
    #expect(theirKeys?.count == 3)
  }

  @Test func actionsKeepTheirPayloadAsTheLogWroteIt() async throws {
    // A Redux log: the export's actions are the log's own actions again.
    let folder = "fixtures/redux-todos"
    let actions = try await shell(
      "rasp replay --log-format fsa --spec \(folder)/app.json --domain todos --domain filters "
        + "--emit devtools \(folder)/actions.jsonl | jq -c -S '.stagedActionIds[1:][] as $id | "
        + ".actionsById[$id|tostring].action'")
    // Keys sorted, as rasp writes them; an action without a payload has none.
    let expected = try await shell(
      "jq -c -S '{type} + (if has(\"payload\") then {payload} else {} end)' "
        + "\(folder)/actions.jsonl")
    #expect(actions == expected)
  }

  @Test func endsAtUntil() async throws {
    let log = "fixtures/example/events.jsonl"
    #expect(
      try await shell(
        "rasp replay --emit devtools --until '#5' \(log) | jq -c '.computedStates[1:][].state'")
        == (try await shell("rasp replay \(log) | head -5")))
  }

  @Test func refusesWhatCannotBeOneExport() async throws {
    for option in [
      "--final", "--select geo.heading", "--key-by source", "--pretty", "--since '#3'",
      "--at '#3'",
    ] {
      let result = try await BuiltBinary.shell(
        "rasp replay --emit devtools \(option) fixtures/example/events.jsonl")
      #expect(result.status == 64)
      #expect(result.standardError.contains("cannot be used with"), "\(result.standardError)")
    }
    let check = try await BuiltBinary.shell(
      "rasp check --emit devtools --golden x fixtures/example/events.jsonl")
    #expect(check.status == 64)
    #expect(check.standardError.contains("use it with 'rasp replay'"))
  }
}
