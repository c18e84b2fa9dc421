import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp redact`, run in-process; hashes checked against HMAC-SHA256 codes computed apart
/// (Python's `hmac`), and replays of the redacted log against replays of the original.
@Suite struct RedactCommandTests {
  static let vault = Repository.path("fixtures/shrink-vault/vault.json")

  /// HMAC-SHA256 under the key `k3y` of `"bob"`, `"ann"` and `"cy"` (with the quotes: a
  /// value's JSON text), by `hmac.new(b'k3y', b'"bob"', hashlib.sha256).hexdigest()`.
  static let hashes = [
    "bob": "d6fd1f5fb32628ddee2544537223ccfd07e0abe37e91ff25f6f6bc86e8b857de",
    "ann": "9c3718d5268c214fe3644d2dce98fb91959ee02ee8e02077e3607d420bf75b49",
    "cy": "55170754fb2e0a3b4a7fb0f77708058101e91a1d731b9196d20a4121b1c1a843",
  ]

  static let policy = """
    {"rules": [
      {"path": "source", "action": "hash"},
      {"path": "payload.email", "action": "replace", "value": "someone@example.com"},
      {"path": "meta.*", "action": "drop"},
      {"path": "payload.amount", "action": "round", "decimals": 1},
      {"path": "ts", "action": "shift", "by": -1000}
    ]}

    """

  static func directory(log: String, policy: String = policy) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log)
    try directory.write("pii.json", policy)
    try directory.write("k", "k3y\n")
    return directory
  }

  static func redact(_ directory: TemporaryDirectory, _ extra: [String] = []) -> CommandRun {
    CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "--key-file", "k", "-o", "share.jsonl"]
        + extra, in: directory.path)
  }

  @Test func eachActionChangesItsPathAndUnchangedLinesAreCopiedByteForByte() throws {
    let unchanged = #"{"type": "nav.push",   "payload": {"route": "/home"}}"# + "\n"
    let log =
      #"{"type":"vault.deposit","source":"bob","payload":{"amount":12.345,"#
      + #""email":"bob@example.com"},"meta":{"ip":"10.0.0.1","ua":"x"},"ts":1500}"# + "\n"
      + "not JSON at all\n"
      + #"{"type":"vault.deposit","source":"ann","payload":{"amount":5}}"# + "\r\n"
      + unchanged
      + #"{"source":"bob","ts":2500.5}"#
    let directory = try Self.directory(log: log)
    let run = Self.redact(directory)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "")
    let bob = Self.hashes["bob"] ?? ""
    let ann = Self.hashes["ann"] ?? ""
    // Each line keeps its bytes but for the values changed, and the members dropped.
    let expected =
      #"{"type":"vault.deposit","source":"\#(bob)","payload":{"amount":12.3,"#
      + #""email":"someone@example.com"},"meta":{},"ts":500}"# + "\n"
      + "not JSON at all\n"
      + #"{"type":"vault.deposit","source":"\#(ann)","payload":{"amount":5}}"# + "\r\n"
      + unchanged
      + #"{"source":"\#(bob)","ts":1500.5}"#
    #expect(directory.bytes("share.jsonl") == Array(expected.utf8))
    #expect(
      run.standardError
        == "rasp: warning: events.jsonl:2: a line is not JSON, copied as it is: no rule could "
        + "read it\n"
        + "rasp: redacted 'events.jsonl' into 'share.jsonl': 3 of 5 lines changed, 9 values\n")
  }

  @Test func aDroppedArrayElementGoesAndPatternsReachEveryDepth() throws {
    let log = #"{"type":"a","items":[{"email":"x@y.z","n":1},{"email":"p@q.r"}],"ok":true}"#
    let policy =
      #"{"rules":[{"path":"**.email","action":"drop"},{"path":"items[1]","action":"drop"}]}"#
    let directory = try Self.directory(log: log + "\n", policy: policy)
    let run = Self.redact(directory)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      directory.bytes("share.jsonl") == Array(#"{"type":"a","items":[{"n":1}],"ok":true}"#.utf8) + [
        10
      ])
  }

  /// Dropped members and elements go with their commas, wherever they are, and the layout of
  /// the rest stays: expected lines written by hand.
  @Test func droppingKeepsTheLayoutAndTheCommasRight() throws {
    let log = """
      {"a": 1, "b": 2, "c": 3}
      { "b" : 2 , "a" : 1 }
      {"a":1,"b":2,"a2":[1,{"b":5},3],"c":{"b":1}}
      {"b":[{"b":1},{"b":2}]}
      {"x":[9,8,7,6],"y":[{"b":0}]}

      """
    let policy =
      #"{"rules":[{"path":"**.b","action":"drop"},{"path":"x[1]","action":"drop"},"#
      + #"{"path":"x[2]","action":"drop"}]}"#
    let directory = try Self.directory(log: log, policy: policy)
    let run = Self.redact(directory)
    #expect(run.status == 0, "\(run.standardError)")
    let expected = """
      {"a": 1, "c": 3}
      { "a" : 1 }
      {"a":1,"a2":[1,{},3],"c":{}}
      {}
      {"x":[9,6],"y":[{}]}

      """
    #expect(String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self) == expected)
  }

  /// A value is hashed as its compact JSON text, keys sorted, however it is written: codes from
  /// Python's `hmac.new(b'k3y', TEXT, hashlib.sha256)` of `"bob"`, `12`, `{"a":2,"b":1}` and
  /// `"x\u007fy"` (DEL is escaped in compact JSON).
  @Test func aValueHashesAsItsCompactTextHoweverItIsWritten() throws {
    let log = #"{"s":"b\u006fb","n":12,"o":{"b":1, "a":2}, "t" : "x"# + "\u{7F}" + #"y"}"# + "\n"
    let policy =
      #"{"rules":[{"path":"s","action":"hash"},{"path":"n","action":"hash"},"#
      + #"{"path":"o","action":"hash"},{"path":"t","action":"hash"}]}"#
    let directory = try Self.directory(log: log, policy: policy)
    let run = Self.redact(directory)
    #expect(run.status == 0, "\(run.standardError)")
    let expected =
      #"{"s":"d6fd1f5fb32628ddee2544537223ccfd07e0abe37e91ff25f6f6bc86e8b857de","#
      + #""n":"c78014bf5b0ce4cc9e606892749bc474eab8e9ff7e63b72f4f3d0a96e44018e6","#
      + #""o":"d6034aa1060f28e9892007012c8211e629b9f2c67b62253dcdb52f449347ec60", "#
      + #""t" : "4cca421fe0b1508f955e663892f206521256261da473ad2a9cc73ca471df2ec7"}"# + "\n"
    #expect(String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self) == expected)
  }

  /// The log is read and written in chunks of a megabyte: lines across chunk edges, and one
  /// line longer than a chunk, come out as the same log with each name replaced by its code
  /// (replaced here as text, apart), and no name is left.
  @Test func aLogLongerThanAChunkStreamsWithLinesAcrossTheEdges() throws {
    var random = RandomEvents(seed: 41)
    let sources = ["bob", "ann", "cy"]
    var log = ""
    var expected = ""
    for index in 0..<40_000 {
      let source = sources[random.int(3)]
      let padding = String(repeating: "p", count: random.int(60))
      let note = index == 20_000 ? String(repeating: "n", count: 3 << 20) : padding
      log += #"{"type":"a","source":"\#(source)","note":"\#(note)"}"# + "\n"
      expected += #"{"type":"a","source":"\#(Self.hashes[source] ?? "")","note":"\#(note)"}"# + "\n"
    }
    let directory = try Self.directory(
      log: log, policy: #"{"rules":[{"path":"source","action":"hash"}]}"#)
    let run = Self.redact(directory)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.hasSuffix("40000 of 40000 lines changed, 40000 values\n"))
    let output = directory.bytes("share.jsonl") ?? []
    #expect(output == Array(expected.utf8))
    let text = String(decoding: output, as: UTF8.self)
    for source in sources { #expect(!text.contains(#""\#(source)""#)) }
  }

  /// `count` deposits to the vault by bob, ann and cy, picked at random from `seed`, each with
  /// its source's email in the payload: the log of the keyed redaction tests.
  private static func deposits(count: Int, seed: UInt64) -> String {
    var random = RandomEvents(seed: seed)
    let sources = ["bob", "ann", "cy"]
    return (0..<count).map { index in
      let source = sources[random.int(3)]
      return #"{"type":"vault.deposit","source":"\#(source)","payload":{"amount":\#(index + 1),"#
        + #""email":"\#(source)@example.com"}}"# + "\n"
    }.joined()
  }

  @Test func equalValuesHashAlikeSoKeyByGroupsTheSameEvents() throws {
    let directory = try Self.directory(log: Self.deposits(count: 60, seed: 40))
    #expect(Self.redact(directory).status == 0)
    let arguments = ["--spec", Self.vault, "--key-by", "source", "--select", "vault.total"]
    let original = CommandRun.run(["replay", "events.jsonl"] + arguments, in: directory.path)
    let redacted = CommandRun.run(["replay", "share.jsonl"] + arguments, in: directory.path)
    #expect(original.status == 0 && redacted.status == 0, "\(redacted.standardError)")
    let before = original.standardOutput.split(separator: "\n")
    let after = redacted.standardOutput.split(separator: "\n")
    #expect(before.count == 60 && after.count == 60)
    // Each snapshot is its original's, the key hashed: the same totals, so the same groups.
    for (old, new) in zip(before, after) {
      var expected = String(old)
      for (name, hash) in Self.hashes {
        expected = expected.replacing(#""\#(name)""#, with: #""\#(hash)""#)
      }
      #expect(String(new) == expected)
    }
    let text = String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
    for name in ["bob", "ann", "cy"] { #expect(!text.contains(#""\#(name)""#)) }
  }

  @Test(
    arguments: [
      (
        "{\"rules\": [\n  {\"path\": \"userId\", \"action\": \"hsah\"}\n]}\n",
        "pii.json:2:32: error: at rules[0].action: unknown action 'hsah'. Did you mean 'hash'?\n"
      ),
      (
        "{\"rules\": [\n  {\"path\": \"email\", \"action\": \"drop\", \"valeu\": 1}\n]}\n",
        "pii.json:2:39: error: at rules[0].valeu: unknown key 'valeu'. Did you mean 'value'?\n"
      ),
      (
        "{\"rulez\": []}",
        "pii.json:1:1: error: missing required key 'rules'\n"
          + "pii.json:1:2: error: at rulez: unknown key 'rulez'. Did you mean 'rules'?\n"
      ),
      (
        "{\"rules\": [{\"path\": \"ts\", \"action\": \"round\"}]}",
        "pii.json:1:12: error: at rules[0]: missing required key 'decimals': 'round' takes one\n"
      ),
      (
        "{\"rules\": [{\"path\": \"**\", \"action\": \"drop\"}]}",
        "pii.json:1:21: error: at rules[0].path: invalid path '**': it would take the whole "
          + "event; name a field such as 'payload.email'\n"
      ),
      (
        "{\"rules\": [{\"path\": \""
          + Array(repeating: "a", count: 64).joined(separator: ".") + "\", \"action\": \"drop\"}]}",
        "pii.json:1:21: error: at rules[0].path: invalid path: it has 64 steps, more than the 63 "
          + "a rule's path may have\n"
      ),
      (
        "{\"rules\": [{\"path\": \"a\", \"action\": \"drop\", \"by\": 3}]}",
        "pii.json:1:44: error: at rules[0].by: 'drop' takes no 'by'\n"
      ),
      (
        "{\"rules\": [}",
        "pii.json:1:12: error: expected a value, found '}'\n"
      ),
    ] as [(String, String)])
  func aPolicyMistakeNamesItsPlace(policy: String, message: String) throws {
    let directory = try Self.directory(log: "{\"type\":\"a\"}\n", policy: policy)
    let run = Self.redact(directory)
    #expect(run.status == 2)
    #expect(run.standardError == message)
    #expect(directory.bytes("share.jsonl") == nil)
  }

  @Test func aValueItsRuleCannotChangeIsAnErrorAndNothingIsWritten() throws {
    let directory = try Self.directory(
      log: "{\"type\":\"a\",\"payload\":{\"amount\":1.25}}\n{\"payload\":{\"amount\":\"x\"}}\n")
    let run = Self.redact(directory)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "events.jsonl:2:22: error: at payload.amount: cannot round a string: 'round' takes "
        + "numbers\n")
    #expect(directory.bytes("share.jsonl") == nil)
  }

  @Test func theOutputIsNeverTheLogAndHashingNeedsAKey() throws {
    let directory = try Self.directory(log: "{\"type\":\"a\"}\n")
    let same = CommandRun.run(
      [
        "redact", "events.jsonl", "--policy", "pii.json", "--key-file", "k", "-o", "./events.jsonl",
      ],
      in: directory.path)
    #expect(same.status == 2)
    #expect(same.standardError.contains("refusing to write './events.jsonl'"))
    let keyless = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl"], in: directory.path)
    #expect(keyless.status == 64)
    #expect(keyless.standardError.hasPrefix("rasp: error: missing expected argument '--key-file"))
    try directory.write("empty", "\n")
    let empty = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "--key-file", "empty", "-o", "s.jsonl"],
      in: directory.path)
    #expect(empty.status == 2)
    #expect(empty.standardError.contains("the key file 'empty' is empty"))
    #expect(directory.bytes("share.jsonl") == nil && directory.bytes("s.jsonl") == nil)
  }

  @Test func roundingAndShiftingAreExactWhereTheyCanBe() {
    #expect(Redactor.round(JSONNumber(48.856614), decimals: 2) == JSONNumber(48.86))
    #expect(Redactor.round(JSONNumber(-2.5), decimals: 0) == JSONNumber(-3.0))
    #expect(Redactor.round(JSONNumber(7), decimals: 3) == JSONNumber(7))
    #expect(
      Redactor.shift(JSONNumber(1_700_000_000_123), by: JSONNumber(-86_400_000))
        == JSONNumber(1_699_913_600_123))
    #expect(
      Redactor.shift(JSONNumber(Int64.max), by: JSONNumber(1)) == JSONNumber(Int128(Int64.max) + 1))
    #expect(Redactor.shift(JSONNumber(1.7e308), by: JSONNumber(1e308)) == nil)
  }

  /// `--verify`, cross-checked by searching the output for every original value, apart.
  @Test func verifyHoldsWhenNoOriginalIsLeftAndTheReplaysAgree() throws {
    var lines: [String] = []
    var random = RandomEvents(seed: 9)
    let sources = ["bob", "ann", "cy"]
    for index in 0..<40 {
      let source = sources[random.int(3)]
      lines.append(
        #"{"type":"vault.deposit","source":"\#(source)","payload":{"amount":\#(index + 1),"#
          + #""email":"\#(source)@example.com"}}"# + "\n")
    }
    let directory = try Self.directory(log: lines.joined())
    let run = Self.redact(
      directory, ["--verify", "--spec", Self.vault, "--domain", "vault", "--key-by", "source"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("rasp: verified 'share.jsonl': it replays as "))
    let text = String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
    for source in sources {
      #expect(!text.contains(#""\#(source)""#))
      #expect(!text.contains("\(source)@example.com"))
    }
  }

  /// `--verify` with the log on standard input: the input is kept for the second replay, and
  /// the output is the one redacting the file gives.
  @Test func verifyReadsTheLogFromStandardInput() throws {
    let log = Self.deposits(count: 30, seed: 12)
    let directory = try Self.directory(log: log)
    let verify = ["--verify", "--spec", Self.vault, "--domain", "vault", "--key-by", "source"]
    let fromFile = Self.redact(directory, verify)
    #expect(fromFile.status == 0, "\(fromFile.standardError)")
    let expected = directory.bytes("share.jsonl")
    let run = CommandRun.run(
      ["redact", "-", "--policy", "pii.json", "--key-file", "k", "-o", "piped.jsonl"] + verify,
      in: directory.path, input: Array(log.utf8))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("rasp: verified 'piped.jsonl': it replays as '-' redacted"))
    #expect(expected != nil && directory.bytes("piped.jsonl") == expected)
    let leak =
      #"{"type":"vault.deposit","payload":{"amount":2,"email":"bob@x.org","note":"bob@x.org"}}"#
    try directory.write("hash-email.json", #"{"rules":[{"path":"payload.email","action":"hash"}]}"#)
    let leaking = CommandRun.run(
      ["redact", "-", "--policy", "hash-email.json", "-o", "leak.jsonl", "--key-file", "k"]
        + ["--verify", "--spec", Self.vault],
      in: directory.path, input: Array((leak + "\n").utf8))
    #expect(leaking.status == 1)
    #expect(
      leaking.standardError.hasSuffix(
        "rasp: error: --verify: leak.jsonl:1: at payload.note: the value of payload.email at "
          + "-:1 is left in the output\n"))
  }

  @Test func verifyNamesTheFirstLeakAndTheSearchFindsItToo() throws {
    let log =
      #"{"type":"vault.deposit","payload":{"amount":1}}"# + "\n"
      + #"{"type":"vault.deposit","payload":{"amount":2,"email":"bob@x.org","#
      + #""note":"write to bob@x.org"}}"# + "\n"
    let policy = #"{"rules":[{"path":"payload.email","action":"hash"}]}"#
    let directory = try Self.directory(log: log, policy: policy)
    let run = Self.redact(directory, ["--verify", "--spec", Self.vault])
    #expect(run.status == 1)
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: share.jsonl:2: at payload.note: the value of payload.email at "
          + "events.jsonl:2 is left in the output\n"))
    let text = String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
    #expect(text.contains("bob@x.org"))
    #expect(!text.contains(#""email":"bob@x.org""#))
  }

  /// The first total, 1 for 1.4, is within the rounding of its amount; the second is not.
  @Test func verifyFindsAReplayThatARoundingChanged() throws {
    let log = String(
      repeating: #"{"type":"vault.deposit","payload":{"amount":1.4}}"# + "\n", count: 2)
    let policy = #"{"rules":[{"path":"payload.amount","action":"round","decimals":0}]}"#
    let directory = try Self.directory(log: log, policy: policy)
    let run = Self.redact(directory, ["--verify", "--spec", Self.vault])
    #expect(run.status == 1)
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: the replay of 'share.jsonl' differs from the replay of "
          + "'events.jsonl', redacted, at snapshot 2 (line 2 of 'share.jsonl'), at vault.total: "
          + "expected 2.8, found 2\n"))
  }

  @Test func aReplayOptionWithoutVerifyIsAUsageError() throws {
    let directory = try Self.directory(log: "{\"type\":\"a\"}\n")
    let run = Self.redact(directory, ["--spec", Self.vault])
    #expect(run.status == 64)
    #expect(
      run.standardError.hasPrefix(
        "rasp: error: option '--spec' says how '--verify' replays: use it with '--verify'\n"))
    #expect(directory.bytes("share.jsonl") == nil)
  }
}
