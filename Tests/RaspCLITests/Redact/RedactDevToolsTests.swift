import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp redact --log-format devtools`: the policy applies to each action of a Redux DevTools
/// export and to each recorded state, and the output is an export again. Checked with jq and
/// openssl, sharing no code with rasp: every original value of a redacted path is looked for
/// in every string of the output; a hash is the HMAC-SHA256 that openssl computes; what was
/// not redacted is the original's.
@Suite(
  .enabled(if: ExternalTool.exists("jq") && ExternalTool.exists("openssl"), "jq or openssl missing")
)
struct RedactDevToolsTests {
  static let session = Repository.path("fixtures/devtools-todos/session.json")
  static let policy = Repository.path("fixtures/redact-devtools/pii.json")
  static let key = Repository.path("fixtures/shrink-vault/docs.key")
  static let todosSpec = Repository.path("fixtures/redux-todos/app.json")

  /// The HMAC-SHA256 of `text` under the docs key, by openssl.
  static func hmac(_ text: String) async throws -> String {
    let key = try String(contentsOfFile: Self.key, encoding: .utf8)
      .trimmingCharacters(in: .newlines)
    let directory = try TemporaryDirectory()
    try directory.write("value", text)
    let result = try await ExternalTool.run(
      "openssl", ["dgst", "-sha256", "-hmac", key, "-r", directory.file("value")])
    return String(result.text.prefix(64))
  }

  static func jq(_ program: String, _ arguments: [String]) async throws -> String {
    let result = try await ExternalTool.run("jq", ["-n", "-c"] + arguments + [program])
    #expect(result.status == 0, "jq: \(result.standardError)")
    return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func theTextsOfActionsAndStatesAreHashedAlikeAndNoneIsLeft() async throws {
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "redact", Self.session, "--log-format", "devtools", "--policy", Self.policy,
        "--key-file", Self.key, "-o", directory.file("share.json"), "--verify", "--spec",
        Self.todosSpec,
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("3 of 19 actions changed, 3 values; 20 of 20 recorded"))
    let report = try await Self.jq(
      """
      ($o[0]) as $o | ($s[0]) as $s
      | ([$o.actionsById[] | .action.payload.text? // empty | strings]
        + [($o.committedState, $o.computedStates[].state) | .todos[]?.text]
        | unique) as $texts
      | {
          texts: ($texts | length),
          left: [$s | .. | strings | select(. as $x | $texts | index([$x]))],
          same: (($s | del(.actionsById[].action.payload.text?)
              | del(.committedState.todos[].text, .computedStates[].state.todos[].text))
            == ($o | del(.actionsById[].action.payload.text?)
              | del(.committedState.todos[].text, .computedStates[].state.todos[].text))),
          added: ($s.actionsById["1"].action.payload.text),
          recorded: ($s.computedStates[1].state.todos[] | select(.id == 3) | .text),
          react: ($s.committedState.todos[0].text)
        }
      """,
      ["--slurpfile", "o", Self.session, "--slurpfile", "s", directory.file("share.json")])
    let added = try await Self.hmac(#""Learn about actions""#)
    let react = try await Self.hmac(#""Learn React""#)
    #expect(
      report
        == #"{"texts":6,"left":[],"same":true,"added":"\#(added)","recorded":"\#(added)","#
        + #""react":"\#(react)"}"#)
    // The states still are the actions' states: rasp's check against them holds.
    let check = CommandRun.run(
      [
        "check", "--log-format", "devtools", "--spec", Self.todosSpec,
        directory.file("share.json"),
      ])
    #expect(check.status == 0, "\(check.standardError)")
  }

  @Test func verifyNamesAStringOfAStateThatTheActionsRulesLeft() throws {
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "redact", Self.session, "--log-format", "devtools", "--policy",
        Repository.path("fixtures/redact-devtools/pii-actions-only.json"), "-o",
        directory.file("share.json"), "--verify", "--spec", Self.todosSpec,
      ])
    #expect(run.status == 1)
    // The first line of the output that holds the text, by plain search.
    let text = String(decoding: directory.bytes("share.json") ?? [], as: UTF8.self)
    let line = try #require(
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .firstIndex { $0.contains("Learn about actions") })
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: \(directory.file("share.json")):\(line + 1): at "
          + "computedStates[1].state.todos[3].text: the value of payload.text at "
          + "\(Self.session):14 is left in the output\n"), "\(run.standardError)")
  }

  @Test func thePayloadExportStaysStringsOfJSON() async throws {
    let state = Repository.path("fixtures/format-devtools-payload/state.json")
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "redact", state, "--log-format", "devtools", "--policy", Self.policy, "--key-file",
        Self.key, "-o", directory.file("share.json"), "--verify", "--spec", Self.todosSpec,
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      """
      ($o[0]) as $o | ($s[0]) as $s
      | {
          types: [($s.payload, $s.preloadedState) | type],
          text: ($s.payload | fromjson | .[0].payload.text),
          rest: (($s.payload | fromjson | del(.[0].payload.text))
            == ($o.payload | fromjson | del(.[0].payload.text))),
          preloaded: ($s.preloadedState == $o.preloadedState)
        }
      """, ["--slurpfile", "o", state, "--slurpfile", "s", directory.file("share.json")])
    let hash = try await Self.hmac(#""Learn about actions""#)
    #expect(
      report
        == #"{"types":["string","string"],"text":"\#(hash)","rest":true,"preloaded":true}"#)
  }

  @Test func anActionWithJSANTagsIsRedactedDecodedAndTheStatesReferToIt() async throws {
    let folder = Repository.path("fixtures/devtools-jsan")
    let directory = try TemporaryDirectory()
    try directory.write("at.json", #"{"rules": [{"path": "payload.at", "action": "hash"}]}"#)
    let run = CommandRun.run(
      [
        "redact", folder + "/export.json", "--log-format", "devtools", "--policy",
        directory.file("at.json"), "--key-file", Self.key, "-o", directory.file("share.json"),
        "--verify", "--spec", folder + "/app.json", "--domain", "app",
      ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try await Self.jq(
      """
      ($o[0]) as $o | ($s[0]) as $s
      | {
          action: $s.actionsById["1"].action,
          others: ([range(2; 5) | tostring | $s.actionsById[.] == $o.actionsById[.]] | all),
          state: $s.computedStates[1].state.app.last,
          states: ($s.computedStates == $o.computedStates)
        }
      """,
      [
        "--slurpfile", "o", folder + "/export.json", "--slurpfile", "s",
        directory.file("share.json"),
      ])
    // The Date's text, as JSON.stringify writes it (payloads.jsonl), hashed; `undefined` left
    // out, as JSON.stringify leaves it.
    let hash = try await Self.hmac(#""2025-11-25T09:00:00.250Z""#)
    #expect(
      report
        == #"{"action":{"payload":{"at":"\#(hash)","item":{"id":7,"tags":["a","b"]}},"#
        + #""type":"app/set"},"others":true,"#
        + #""state":{"$jsan":"$.actionsById.1.action.payload"},"states":true}"#)
  }

  @Test func aValueItsRuleCannotChangeIsNamedAtItsPlaceAndNothingIsWritten() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "round.json", #"{"rules": [{"path": "payload", "action": "round", "decimals": 1}]}"#)
    let run = CommandRun.run(
      [
        "redact", Self.session, "--log-format", "devtools", "--policy",
        directory.file("round.json"), "-o", directory.file("share.json"),
      ])
    #expect(run.status == 2)
    // Line 16 of the session: four tabs and `"payload": `, then the object.
    #expect(
      run.standardError
        == "\(Self.session):16:16: error: at actionsById[\"1\"].action.payload: cannot round "
        + "an object: 'round' takes numbers\n")
    #expect(directory.bytes("share.json") == nil)
  }

  @Test func anOptionOfReplayWithoutVerifyIsAUsageError() throws {
    let directory = try TemporaryDirectory()
    let run = CommandRun.run(
      [
        "redact", Self.session, "--log-format", "devtools", "--spec", Self.todosSpec,
        "--policy", Self.policy, "--key-file", Self.key, "-o", directory.file("share.json"),
      ])
    #expect(run.status == 64)
    #expect(
      run.standardError.hasPrefix(
        "rasp: error: option '--spec' says how '--verify' replays: use it with '--verify'"))
  }

  /// A `shift` of `meta.timestamp` moves each entry's `timestamp` — the time an action's line
  /// has — in a lifted state and in one that `payload` holds as a string: jq subtracts apart;
  /// every other byte is the original's.
  @Test(arguments: [
    ("fixtures/devtools-todos/session.json", ".actionsById", "del(.actionsById[].timestamp)", 19),
    (
      "fixtures/devtools-wrapped-payload/wrapped.json", ".payload | fromjson | .actionsById",
      "[(.payload | fromjson | del(.actionsById[].timestamp)), del(.payload)]", 7
    ),
  ])
  func aShiftOfTheMetaTimestampMovesTheEntriesTimestamps(
    export: String, entries: String, rest: String, count: Int
  ) async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "shift.json",
      #"{"rules": [{"path": "meta.timestamp", "action": "shift", "by": -1764000000000}]}"#)
    let output = directory.file("share.json")
    let run = CommandRun.run([
      "redact", Repository.path(export), "--log-format", "devtools", "--policy",
      directory.file("shift.json"), "-o", output, "--verify", "--spec", Self.todosSpec,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("; \(count) entries' timestamps shifted\n"))
    let times = "[\(entries)[] | .timestamp]"
    let shifted = try await Self.jq(
      "$in[0] | \(times) | map(. - 1764000000000)", ["--slurpfile", "in", Repository.path(export)])
    #expect(try await Self.jq("$out[0] | \(times)", ["--slurpfile", "out", output]) == shifted)
    // Nothing else changed: without the entries' times, the export is the original.
    #expect(
      try await Self.jq(
        "($out[0] | \(rest)) == ($in[0] | \(rest))",
        ["--slurpfile", "out", output, "--slurpfile", "in", Repository.path(export)])
        == "true")
  }

  /// Every action of `meta.timestamp` is done to the entries' `timestamp`s too, which are the
  /// times of the actions' lines: none is left as it was (jq computes what each became, apart
  /// from rasp), the export still replays (`--verify`), and the rest is the original's.
  @Test(arguments: [
    // Whole milliseconds stay whole: nothing to round.
    (#"{"action": "round", "decimals": 0}"#, "map(.)", "0 of 20 recorded states\n"),
    (#"{"action": "replace", "value": 0}"#, "map(0)", "19 entries' timestamps replaced\n"),
    (#"{"action": "drop"}"#, "map(null)", "19 entries' timestamps dropped\n"),
  ])
  func eachActionOfTheMetaTimestampIsDoneToTheEntriesTimestamps(
    rule: String, expected: String, summary: String
  ) async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "time.json", #"{"rules": [{"path": "meta.timestamp", "# + rule.dropFirst() + "]}")
    let output = directory.file("share.json")
    let run = CommandRun.run([
      "redact", Self.session, "--log-format", "devtools", "--policy",
      directory.file("time.json"), "-o", output, "--verify", "--spec", Self.todosSpec,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains(summary), "\(run.standardError)")
    let times = "[.actionsById[] | .timestamp]"
    let became = try await Self.jq(
      "$in[0] | \(times) | \(expected)", ["--slurpfile", "in", Self.session])
    #expect(try await Self.jq("$out[0] | \(times)", ["--slurpfile", "out", output]) == became)
    let rest = "del(.actionsById[].timestamp)"
    #expect(
      try await Self.jq(
        "($out[0] | \(rest)) == ($in[0] | \(rest))",
        ["--slurpfile", "out", output, "--slurpfile", "in", Self.session]) == "true")
    // The export replays, with the actions' lines as the times became.
    let replayed = CommandRun.run([
      "replay", "--log-format", "devtools", "--spec", Self.todosSpec, "--final", output,
    ])
    #expect(replayed.status == 0, "\(replayed.standardError)")
  }

  /// `--verify` names an entry whose `timestamp` a rule of `meta.timestamp` would change and
  /// did not: here the original export itself, as if it were the redacted one.
  @Test func verifyNamesAnEntryTimeLeftAsItWas() throws {
    let document = try ImportedDocument.read(
      Array(try String(contentsOfFile: Self.session, encoding: .utf8).utf8), name: "session.json")
    let rule = RedactionPolicy.Rule(
      text: "meta.timestamp", pattern: try JSONPath("meta.timestamp"), action: .drop)
    #expect(
      DevToolsRedactVerification.entryLeak(original: document, redacted: document, rule)
        == "session.json:10: at actionsById.0.timestamp: the value of meta.timestamp (the time "
        + "of the entry's action) at session.json:10 is left in the output")
    // A rounding that leaves whole milliseconds as they were is no leak.
    let round = RedactionPolicy.Rule(
      text: "meta.timestamp", pattern: try JSONPath("meta.timestamp"), action: .round(0))
    #expect(
      DevToolsRedactVerification.entryLeak(original: document, redacted: document, round) == nil)
  }
}
