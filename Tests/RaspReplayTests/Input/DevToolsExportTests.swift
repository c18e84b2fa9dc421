import RaspJSON
import Testing

@testable import RaspReplay

/// Reading Redux DevTools exports into the lines of their actions, in every shape.
@Suite struct DevToolsExportTests {
  func read(_ text: String) throws -> DevToolsExport {
    try DevToolsExport(bytes: Array(text.utf8))
  }

  func lines(_ export: DevToolsExport) -> [String] {
    String(decoding: export.lines, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func liftedStateReplaysStagedActionsInOrderLeavingSkippedOnesOut() throws {
    let export = try read(
      """
      {"actionsById": {
        "2": {"type": "PERFORM_ACTION", "action": {"type": "a/two"}, "timestamp": 20},
        "0": {"type": "PERFORM_ACTION", "action": {"type": "@@INIT"}, "timestamp": 1},
        "1": {"type": "PERFORM_ACTION", "action": {"type": "a/one", "meta": {"k": 1}},
              "timestamp": 10},
        "3": {"type": "PERFORM_ACTION", "action": {"type": "a/three"}, "timestamp": 30}},
       "stagedActionIds": [0, 2, 1, 3], "skippedActionIds": [3],
       "computedStates": [{"state": 0}, {"state": 2}, {"state": 3, "error": "boom"}]}
      """)
    #expect(export.shape == .liftedState)
    #expect(
      lines(export) == [
        #"{"type":"@@INIT","meta":{"timestamp":1}}"#,
        #"{"type":"a/two","meta":{"timestamp":20}}"#,
        #"{"type":"a/one","meta":{"k":1,"timestamp":10}}"#,
      ])
    #expect(
      export.places.map(\.path) == [
        #"actionsById["0"].action"#, #"actionsById["2"].action"#,
        #"actionsById["1"].action"#,
      ])
    #expect(export.skippedCount == 1)
    #expect(export.places.map(\.type) == ["@@INIT", "a/two", "a/one"])
    #expect(export.recordedState(afterLine: 2)?.state == .number(JSONNumber(2)))
    #expect(export.recordedState(afterLine: 2)?.path == "computedStates[1].state")
    #expect(export.recordedState(afterLine: 3)?.error == "boom")
    #expect(export.recordedState(afterLine: 4) == nil)
    // Four staged actions, three recorded states: too few to check against.
    #expect(throws: DevToolsExportError.self) { try export.checkRecordedStates() }
  }

  @Test func payloadExportAndBareArrayAndStringActionsRead() throws {
    let payload = try read(
      "{\n\t\"payload\": \"[{\\\"type\\\":\\\"a/x\\\",\\\"payload\\\":1}]\",\n"
        + "\t\"preloadedState\": \"{}\"\n}")
    #expect(payload.shape == .payload)
    #expect(lines(payload) == [#"{"type":"a/x","payload":1}"#])
    #expect(payload.places.map(\.path) == ["payload[0]"])
    let array = try read(#"[{"type":"a/x"},"{\"type\":\"a/y\"}"]"#)
    #expect(array.shape == .actions)
    #expect(lines(array) == [#"{"type":"a/x"}"#, #"{"type":"a/y"}"#])
  }

  @Test func aLiftedStateInPayloadIsReadAsTheLiftedStateReportedAtItsString() throws {
    // As `@redux-devtools/remote` sends it, and `importState` reads it: `payload` is the JSON
    // text of a whole lifted state; its `committedState` is the start, `preloadedState` ignored.
    let lifted =
      #"{"actionsById": {"0": {"action": {"type": "@@INIT"}, "timestamp": 1}, "#
      + #""1": {"action": {"type": "a/one"}, "timestamp": 2}, "2": {"action": 7}}, "#
      + #""stagedActionIds": [0, 1, 2], "skippedActionIds": [], "committedState": {"n": 1}, "#
      + #""computedStates": [{"state": {"n": 1}}, {"state": {"n": 2}}, {"state": {"n": 2}}]}"#
    var writer = JSONWriter()
    writer.writeString(lifted)
    let text =
      #"{"type": "STATE", "preloadedState": "{\"n\": 9}", "payload": "#
      + String(decoding: writer.bytes, as: UTF8.self) + "}"
    let export = try read(text)
    #expect(export.shape == .liftedState)
    #expect(
      lines(export) == [
        #"{"type":"@@INIT","meta":{"timestamp":1}}"#, #"{"type":"a/one","meta":{"timestamp":2}}"#,
        "7",
      ])
    #expect(
      export.places.map(\.path) == [
        #"payload.actionsById["0"].action"#, #"payload.actionsById["1"].action"#,
        #"payload.actionsById["2"].action"#,
      ])
    let stringOffset = Array(text.utf8).count - writer.bytes.count - 1
    #expect(export.places.map(\.offset) == [stringOffset, stringOffset, stringOffset])
    #expect(export.startState == ["n": 1])
    try export.checkRecordedStates()
    #expect(export.recordedState(afterLine: 2)?.state == ["n": 2])
    #expect(export.recordedState(afterLine: 2)?.path == "payload.computedStates[1].state")
    #expect(export.recordedState(afterLine: 2)?.offset == stringOffset)
  }

  @Test func aLiftedStateInPayloadAsAnObjectKeepsItsOwnPlaces() throws {
    let text =
      #"{"payload": {"actionsById": {"0": {"action": {"type": "a/x"}}}, "#
      + #""stagedActionIds": [0]}}"#
    let export = try read(text)
    #expect(export.shape == .liftedState)
    #expect(export.places.map(\.path) == [#"payload.actionsById["0"].action"#])
    #expect(export.places[0].offset == 45)
    #expect(export.startState == nil)
  }

  @Test(arguments: [
    (#"{"payload": "{\"actionsById\": {}}"}"#, "at payload: a lifted state with 'actionsById'"),
    (#"{"payload": "{\"actionsById\": 3, \"stagedActionIds\": []}"}"#, "at payload.actionsById"),
    (#"{"payload": "{\"todos\": []}"}"#, "holds an object without 'actionsById'"),
  ])
  func aLiftedStateInPayloadThatIsWrongIsRefusedAtTheString(_ text: String, _ reason: String) {
    do {
      _ = try read(text)
      Issue.record("expected an error containing '\(reason)'")
    } catch let error as DevToolsExportError {
      #expect(error.description.contains(reason), "\(error)")
      #expect(error.offset == 12)
    } catch {
      Issue.record(error)
    }
  }

  @Test func badActionsBecomeLinesNoFormatReadsWithTheirReasons() throws {
    let export = try read(
      #"{"actionsById": {"0": 5, "1": {"timestamp": 1}, "2": {"action": "{nope"}, "#
        + #""3": {"action": {"a": {"$jsan": "q1"}}}}, "stagedActionIds": [0, 1, 2, 3, 9, "x"]}"#)
    #expect(lines(export) == Array(repeating: "0", count: 6))
    let problems = export.places.map { $0.problem ?? "" }
    #expect(problems[0].contains("must be an object, found a number"))
    #expect(problems[1] == "the entry has no 'action'")
    #expect(problems[2].hasPrefix("the string holds no JSON"))
    #expect(problems[3].contains(#"actionsById["3"].action.a"#))
    #expect(problems[4] == "no action with the id 9 in 'actionsById'")
    #expect(problems[5].contains("must be an integer"))
  }

  @Test(arguments: [
    (#"{"monitorState": {}}"#, "no 'actionsById' or 'payload'"),
    ("5", "expected an object or an array"),
    (#"{"actionsById": {}}"#, "no 'stagedActionIds'"),
    (#"{"payload": "[1,"}"#, "the string holds no JSON"),
    (#"{"payload": "{}"}"#, "must hold an array of actions"),
    (#"{"payload": "[]", "preloadedState": "{x"}"#, "the string holds no JSON"),
    ("{", "expected"),
  ])
  func documentsThatAreNotExportsAreRefused(_ text: String, _ reason: String) {
    #expect(throws: DevToolsExportError.self) { try read(text) }
    do {
      _ = try read(text)
    } catch let error as DevToolsExportError {
      #expect(error.reason.contains(reason), "\(error)")
    } catch {
      Issue.record(error)
    }
  }

  @Test(arguments: [
    (#"{"payload": "[]"}"#, "records no states, only actions"),
    (#"[{"type": "a/x"}]"#, "records no states, only actions"),
    (#"{"actionsById": {}, "stagedActionIds": []}"#, "has no 'computedStates'"),
    (#"{"actionsById": {}, "stagedActionIds": [], "computedStates": 3}"#, "must be an array"),
    (
      #"{"actionsById": {"0": {"action": {"type": "@@INIT"}}}, "stagedActionIds": [0], "#
        + #""computedStates": []}"#, "0 recorded states for 1 staged actions"
    ),
    (
      #"{"actionsById": {"0": {"action": {"type": "@@INIT"}}}, "stagedActionIds": [0], "#
        + #""computedStates": [5]}"#, "must be an object with a 'state', found a number"
    ),
    (
      #"{"actionsById": {"0": {"action": {"type": "@@INIT"}}}, "stagedActionIds": [0], "#
        + #""computedStates": [{"error": "x"}]}"#, "has no 'state'"
    ),
  ])
  func exportsWithoutAStateAfterEachActionCannotBeCheckedAgainst(_ text: String, _ reason: String)
    throws
  {
    let export = try read(text)
    do {
      try export.checkRecordedStates()
      Issue.record("expected an error containing '\(reason)'")
    } catch {
      #expect(error.reason.contains(reason), "\(error)")
    }
  }

  @Test func recordedStatesAreReadEvenWhenComputedStatesIsAString() throws {
    let export = try read(
      #"{"actionsById": {"0": {"action": {"type": "@@INIT"}}, "1": {"action": {"type": "a/x"}}}, "#
        + #""stagedActionIds": [0, 1], "computedStates": "[{\"state\": 0}, {\"state\": 1}]"}"#)
    try export.checkRecordedStates()
    #expect(export.recordedState(afterLine: 2)?.state == .number(JSONNumber(1)))
    #expect(export.recordedState(afterLine: 2)?.index == 1)
  }

  @Test func theStartStateIsTheCommittedOrThePreloadedState() throws {
    let lifted = try read(
      #"{"actionsById": {}, "stagedActionIds": [], "committedState": {"todos": [1]}}"#)
    #expect(lifted.startState == ["todos": [1]])
    let payload = try read(#"{"payload": "[]", "preloadedState": "{\"todos\": [2]}"}"#)
    #expect(payload.startState == ["todos": [2]])
    #expect(try read(#"{"payload": "[]"}"#).startState == nil)
    #expect(try read("[]").startState == nil)
  }
}
