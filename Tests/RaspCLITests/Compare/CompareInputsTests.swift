import Foundation
import RaspTestSupport
import Testing

/// What `rasp compare` reads besides files of JSON lines: standard input, read once for both
/// versions, and Redux DevTools exports (`--log-format devtools`), each version starting from
/// the export's committed state; checked against two plain `rasp replay` runs.
@Suite struct CompareInputsTests {
  static let fixtures = Repository.path("fixtures")
  static let oldSpec = fixtures + "/redux-todos/app.json"

  /// The todos app's spec with one path changed: `colorSelected` sets `colour`, not `color`.
  static func newSpec(in directory: TemporaryDirectory) throws -> String {
    let text = try String(contentsOfFile: oldSpec, encoding: .utf8)
    let changed = text.replacingOccurrences(
      of: #""[?id == payload.todoId].color""#, with: #""[?id == payload.todoId].colour""#)
    try #require(changed != text)
    try directory.write("new.json", changed)
    return directory.file("new.json")
  }

  static func run(_ arguments: [String], input: [UInt8]? = nil) async throws -> (
    output: String, errors: String, status: Int32
  ) {
    let result = try await TestProcess.run(
      BuiltBinary.path, arguments, in: fixtures, environment: BuiltBinary.environment,
      input: input)
    return (result.text, result.standardError, result.status)
  }

  @Test func standardInputIsComparedAsTheFileIs() async throws {
    let directory = try TemporaryDirectory()
    let new = try Self.newSpec(in: directory)
    let log = directory.file("actions.jsonl")
    try FileManager.default.copyItem(
      atPath: Self.fixtures + "/devtools-todos/session-actions.jsonl", toPath: log)
    let options = ["compare", "--log-format", "fsa", "--old-spec", Self.oldSpec, "--new-spec", new]
    let fromFile = try await Self.run(options + [log])
    let fromInput = try await Self.run(
      options + ["-"], input: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
    #expect(fromFile.status == 1, "\(fromFile.errors)")
    #expect(fromInput.status == 1)
    #expect(fromFile.output.contains("\(log): divergent at event "))
    #expect(
      fromInput.output == fromFile.output.replacingOccurrences(of: log, with: "<stdin>"))
    let twice = try await Self.run(options + ["-", "-"], input: [])
    #expect(twice.status == 64)
    #expect(twice.errors.contains("standard input ('-') can be read once"))
  }

  /// The first action after which the two versions' states differ, from two plain replays of
  /// the export: its event number among the replay's records, and its line among the lines
  /// the export makes.
  static func firstDifference(_ export: String, new: String) async throws -> (seq: Int, line: Int) {
    var records: [[[String: Any]]] = []
    for spec in [oldSpec, new] {
      let replay = try await run([
        "replay", "--log-format", "devtools", "--spec", spec, "--with-event", export,
      ])
      try #require(replay.status == 0, "\(replay.errors)")
      records.append(
        try replay.output.split(separator: "\n").map {
          try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        })
    }
    for (old, new) in zip(records[0], records[1]) {
      let oldState = try #require(old["state"] as? NSDictionary)
      let newState = try #require(new["state"] as? NSDictionary)
      if oldState != newState {
        return (try #require(old["seq"] as? Int), try #require(old["line"] as? Int))
      }
    }
    Issue.record("the two versions never differ in \(export)")
    return (0, 0)
  }

  /// Where the action of the export's staged action `index` (0 is `@@INIT`; skipped actions,
  /// which DevTools does not apply, left out) opens: the line and column of the `{` after its
  /// `"action":`, found in the text.
  static func actionPlace(_ export: String, staged index: Int) throws -> (String, Int, Int) {
    let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + export))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let skipped = Set(object["skippedActionIds"] as? [Int] ?? [])
    let staged = try #require(object["stagedActionIds"] as? [Int]).filter {
      !skipped.contains($0)
    }
    let id = staged[index]
    let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
    let byId = try #require(lines.firstIndex { $0.contains(#""actionsById""#) })
    let entry = try #require(lines[byId...].firstIndex { $0.contains("\"\(id)\": {") })
    let action = try #require(lines[entry...].firstIndex { $0.contains(#""action": {"#) })
    let column = try #require(lines[action].firstIndex(of: "{"))
    return (
      "actionsById[\"\(id)\"].action", action + 1,
      lines[action].distance(from: lines[action].startIndex, to: column) + 1
    )
  }

  @Test(arguments: ["devtools-todos/session.json", "devtools-todos/session-committed.json"])
  func aDevToolsExportDivergesWhereTwoReplaysOfItFirstDiffer(_ export: String) async throws {
    let directory = try TemporaryDirectory()
    let new = try Self.newSpec(in: directory)
    let expected = try await Self.firstDifference(export, new: new)
    let compared = try await Self.run([
      "compare", "--log-format", "devtools", "--old-spec", Self.oldSpec, "--new-spec", new,
      "--format", "json", export,
    ])
    #expect(compared.status == 1, "\(compared.errors)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(compared.output.utf8)) as? [String: Any])
    let log = try #require((report["logs"] as? [[String: Any]])?.first)
    let divergence = try #require(log["divergence"] as? [String: Any])
    #expect((divergence["old"] as? [String: Any])?["seq"] as? Int == expected.seq)
    #expect((divergence["new"] as? [String: Any])?["seq"] as? Int == expected.seq)
    let (path, line, column) = try Self.actionPlace(export, staged: expected.line - 1)
    #expect(divergence["path"] as? String == path)
    #expect(divergence["line"] as? Int == line)
    #expect(divergence["column"] as? Int == column)

    let text = try await Self.run([
      "compare", "--log-format", "devtools", "--old-spec", Self.oldSpec, "--new-spec", new,
      export,
    ])
    #expect(text.output.hasPrefix("\(export): divergent at event "))
    #expect(text.output.contains("(\(export):\(line):\(column), at \(path)):\n"))
  }

  @Test func aDirectoryOfDevToolsExportsMeansItsJSONFiles() async throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.file("sessions"), withIntermediateDirectories: false)
    for (name, source) in [("b.json", "session.json"), ("a.json", "session-committed.json")] {
      try FileManager.default.copyItem(
        atPath: Self.fixtures + "/devtools-todos/" + source,
        toPath: directory.file("sessions/" + name))
    }
    try directory.write("sessions/notes.jsonl", "{}\n")
    let compared = try await Self.run([
      "compare", "--log-format", "devtools", "--old-spec", Self.oldSpec, "--new-spec",
      Self.oldSpec, directory.file("sessions"),
    ])
    #expect(compared.status == 0, "\(compared.errors)")
    let prefix = directory.file("sessions") + "/"
    #expect(compared.output == "\(prefix)a.json: identical\n\(prefix)b.json: identical\n")
  }
}

/// A change declared in every state (`--allow`) beside a real one that comes later: the
/// comparison, which remembers each domain's last pair of values instead of diffing whole
/// states, must still stop at exactly the first event the real change affects.
@Suite struct CompareRememberedPairsTests {
  static func spec(initial: Int, missCounts: Bool) -> String {
    let setLast = #"{"op": "set", "path": "last", "value": "miss"}"#
    let miss = missCounts ? setLast + #", {"op": "increment", "path": "n", "by": 1}"# : setLast
    return #"""
      {"domains": [
        {"name": "a", "initial": {"v": \#(initial)}, "events": [
          {"name": "tick", "ops": [{"op": "increment", "path": "t", "by": 1}]}]},
        {"name": "b", "initial": {"n": 0, "last": null}, "events": [
          {"name": "hit", "ops": [{"op": "increment", "path": "n", "by": 1},
                                  {"op": "set", "path": "last", "value": "hit"}]},
          {"name": "miss", "ops": [\#(miss)]}]}]}
      """#
  }

  @Test(arguments: [7, 19, 42])
  func stopsAtTheFirstEventTheRealChangeAffects(_ seed: UInt64) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("old.json", Self.spec(initial: 1, missCounts: false))
    try directory.write("new-allowed.json", Self.spec(initial: 2, missCounts: false))
    try directory.write("new.json", Self.spec(initial: 2, missCounts: true))
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    var firstMiss: Int?
    for number in 1...300 {
      switch random.next() % 10 {
      case 0 where number > 40:
        lines.append(#"{"type":"b.miss"}"#)
        if firstMiss == nil { firstMiss = number }
      case 1, 2: lines.append(#"{"type":"a.tick"}"#)
      case 3: lines.append(#"{"type":"geo.heading","payload":{"heading":\#(number % 360)}}"#)
      default: lines.append(#"{"type":"b.hit"}"#)
      }
    }
    try directory.write("log.jsonl", lines.joined(separator: "\n") + "\n")
    let expectedLine = try #require(firstMiss)
    let domains = ["--domain", "a,b,geo", "--allow", "change:a.v"]

    let allowed = try await TestProcess.run(
      BuiltBinary.path,
      ["compare", "--old-spec", "old.json", "--new-spec", "new-allowed.json"] + domains
        + ["log.jsonl"], in: directory.path, environment: BuiltBinary.environment)
    #expect(allowed.status == 0, "\(allowed.standardError)")
    #expect(allowed.text == "log.jsonl: only allowed differences (300)\n")

    let divergent = try await TestProcess.run(
      BuiltBinary.path,
      ["compare", "--old-spec", "old.json", "--new-spec", "new.json"] + domains
        + ["--format", "json", "log.jsonl"], in: directory.path,
      environment: BuiltBinary.environment)
    #expect(divergent.status == 1, "\(divergent.standardError)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: divergent.standardOutput) as? [String: Any])
    let divergence = try #require(
      (report["logs"] as? [[String: Any]])?.first?["divergence"] as? [String: Any])
    #expect(divergence["line"] as? Int == expectedLine)
    #expect(divergence["event"] as? Int == expectedLine)
    let differences = try #require(divergence["differences"] as? [[String: Any]])
    #expect(differences.map { $0["path"] as? String } == ["/b/n"])
  }
}
