import Foundation
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp redact` of kcat messages, whose event is JSON text in the string `payload`: the rules'
/// paths go on into that text. Checked with jq (`.payload | fromjson`), apart from rasp.
@Suite struct RedactKcatTests {
  static let log = "fixtures/redact-kcat/messages.jsonl"
  static let policy = "fixtures/redact-kcat/pii.json"
  static let key = "fixtures/shrink-vault/docs.key"

  @Test func rulesReachIntoTheEventAPayloadStringHoldsAndTheStringStaysJSONText() async throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.jsonl")
    let run = CommandRun.run(
      [
        "redact", Self.log, "--policy", Self.policy, "--key-file", Self.key, "-o", output,
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError
        == "rasp: redacted '\(Self.log)' into '\(output)': 5 of 5 lines changed, 13 values\n")
    // The events in the strings: jq rounds the original's, and puts the message's key's code
    // (the same name, hashed alike) as the source; every other member as it was, in order.
    let expected = try await BuiltBinary.output(
      "jq -c -n --slurpfile out \(output) '[inputs] as $in | range(0; $in | length) as $i "
        + "| $in[$i].payload | (fromjson? // .) | if type == \"object\" then "
        + ".source = $out[$i].key | .payload |= (if has(\"latitude\") then "
        + ".latitude = ((.latitude * 100 | round) / 100) | "
        + ".longitude = ((.longitude * 100 | round) / 100) else . end) else . end' \(Self.log)")
    let actual = try await BuiltBinary.output("jq -c '.payload | fromjson? // .' \(output)")
    #expect(!actual.isEmpty)
    #expect(actual == expected)
    // The order of the events' members is kept, and the messages' other members are too.
    let order = "jq -c '.payload | fromjson? | [keys_unsorted, (.payload | keys_unsorted)]'"
    await #expect(
      try BuiltBinary.output("\(order) \(output)")
        == (try BuiltBinary.output("\(order) \(Self.log)")))
    let rest = "jq -c 'del(.key, .payload)'"
    await #expect(
      try BuiltBinary.output("\(rest) \(output)") == (try BuiltBinary.output("\(rest) \(Self.log)"))
    )
    // The key is hashed, as a 64-digit code; the tombstone keeps its null.
    await #expect(
      try BuiltBinary.output(
        "jq -c '[(.key | test(\"^[0-9a-f]{64}$\")), .payload == null]' \(output)")
        == "[true,false]\n[true,false]\n[true,false]\n[true,true]\n[true,false]\n")
    // rasp reads the redacted messages as kcat messages, with the rounded positions.
    await #expect(
      try BuiltBinary.output("rasp replay --log-format kcat --select geo.location \(output)")
        == "{\"latitude\":52.52,\"longitude\":13.4}\n{\"latitude\":52.52,\"longitude\":13.38}\n")
  }

  /// The string's text is written anew only when a rule changed it; wildcards go into it as
  /// elsewhere; a string that holds no JSON, or a value as a whole, is left.
  @Test func wildcardsGoIntoTheTextAndOtherStringsStayByteForByte() throws {
    let log =
      #"{"k":"a","payload":"{ \"type\": \"geo.location\", \"payload\": {\"latitude\": 1.25,"#
      + #" \"email\": \"x@y.z\"}, \"n\": [\"{\\\"email\\\":1}\"] }"}"# + "\n"
      + #"{"payload":"this is payload"}"# + "\n"
      + #"{"payload":"{\"type\":\"a.b\"}"}"# + "\n"
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log)
    try directory.write(
      "pii.json", #"{"rules":[{"path":"**.email","action":"drop"}]}"#)
    let run = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl"],
      in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    // The inner text keeps its layout; a string in it that holds JSON is redacted in turn.
    let expected =
      #"{"k":"a","payload":"{ \"type\": \"geo.location\", \"payload\": {\"latitude\": 1.25},"#
      + #" \"n\": [\"{}\"] }"}"# + "\n"
      + #"{"payload":"this is payload"}"# + "\n"
      + #"{"payload":"{\"type\":\"a.b\"}"}"# + "\n"
    #expect(String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self) == expected)
    #expect(run.standardError.hasSuffix("1 of 3 lines changed, 2 values\n"))
  }

  /// A string whose text is not JSON — a duplicate key, a bad escape, a lone surrogate, an
  /// object that does not end — is a string like any other: no rule reaches into it, and its
  /// line is copied byte for byte; the same text as JSON is redacted.
  @Test func aStringWhoseTextIsNotJSONIsLeftByteForByte() throws {
    let notJSON = [
      #"{"payload":"{\"source\":\"a\",\"source\":\"b\"}"}"#,
      #"{"payload":"{\"source\":\"a\\q\"}"}"#,
      #"{"payload":"{\"source\":\"\\ud800\"}"}"#,
      #"{"payload":"{\"source\":\"\\udc00\\ud800\"}"}"#,
      #"{"payload":"{\"source\":\"a\""}"#,
      #"{"payload":"{\"source\":\"a\"}x"}"#,
    ]
    let json = #"{"payload":"{\"source\":\"a\"}"}"#
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", (notJSON + [json]).map { $0 + "\n" }.joined())
    try directory.write("pii.json", #"{"rules":[{"path":"payload.source","action":"hash"}]}"#)
    try directory.write("secret.key", "0123456789abcdef")
    let run = CommandRun.run(
      [
        "redact", "events.jsonl", "--policy", "pii.json", "--key-file", "secret.key", "-o",
        "share.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.hasSuffix("1 of 7 lines changed, 1 values\n"))
    let lines = String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count == 8)
    #expect(Array(lines.prefix(6)) == notJSON)
    #expect(lines[6].hasPrefix(#"{"payload":"{\"source\":\""#) && lines[6] != json)
  }

  /// The string keeps its own escapes — `\u00e9`, a surrogate pair, `\"` — but for the
  /// values changed, each escaped in its place; jq reads the same event, redacted.
  @Test func theStringKeepsItsEscapesButForTheValuesChanged() async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "events.jsonl",
      #"{"payload":"{\"name\":\"J\u00e9r\u00f4me \ud83d\ude00\",\"lat\":1.2345,"#
        + #"\"x\":\"\\\"q\\\"\"}"}"# + "\n")
    try directory.write(
      "pii.json",
      #"{"rules":[{"path":"payload.lat","action":"round","decimals":1},"#
        + #"{"path":"payload.x","action":"replace","value":"a\"b"}]}"#)
    let run = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl"],
      in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
        == #"{"payload":"{\"name\":\"J\u00e9r\u00f4me \ud83d\ude00\",\"lat\":1.2,"#
        + #"\"x\":\"a\\\"b\"}"}"# + "\n")
    await #expect(
      try BuiltBinary.output("jq -c '.payload | fromjson' \(directory.file("share.jsonl"))")
        == (try BuiltBinary.output(
          "jq -c '.payload | fromjson | .lat = 1.2 | .x = \"a\\\"b\"' "
            + directory.file("events.jsonl"))))
  }

  @Test func aValueInTheTextThatItsRuleCannotChangeIsNamedAtTheString() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "pii.json", #"{"rules":[{"path":"payload.payload.heading","action":"round","decimals":0}]}"#)
    let run = CommandRun.run(
      [
        "redact", Repository.path("fixtures/format-kcat/messages.jsonl"), "--policy", "pii.json",
        "-o", "share.jsonl",
      ], in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "\(Repository.path("fixtures/format-kcat/messages.jsonl")):5:123: error: at "
        + "payload.payload.heading: cannot round a string: 'round' takes numbers (at 1:44 of "
        + "the JSON text the string holds)\n")
    #expect(directory.bytes("share.jsonl") == nil)
  }

  /// `--verify` replays both as kcat logs: the key and the source hashed alike, the
  /// positions within their rounding.
  @Test func theRedactedMessagesVerify() throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.jsonl")
    let run = CommandRun.run(
      [
        "redact", Self.log, "--policy", Self.policy, "--key-file", Self.key, "-o", output,
        "--verify", "--log-format", "kcat",
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("rasp: verified '\(output)'"))
  }

  /// `--verify` searches the text in the strings: the name left in the event, where only the
  /// message's key was hashed, is found there, at its path through the string.
  @Test func verifyFindsAnOriginalLeftInTheTextOfAString() throws {
    let directory = try TemporaryDirectory()
    try directory.write("pii.json", #"{"rules":[{"path":"key","action":"hash"}]}"#)
    let output = directory.file("share.jsonl")
    let run = CommandRun.run(
      [
        "redact", Self.log, "--policy", directory.file("pii.json"), "--key-file", Self.key,
        "-o", output, "--verify", "--log-format", "kcat",
      ], in: Repository.root)
    #expect(run.status == 1)
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: \(output):1: at payload.source: the value of key at "
          + "\(Self.log):1 is left in the output\n"))
  }
}
