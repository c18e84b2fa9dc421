import Foundation
import Rasp
import RaspCLI
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

/// A counter written in Swift, in two versions: the new one counts by twice as much from a
/// `by` of 10 on (a deliberate change to the reducer), and keeps the largest step too.
fileprivate struct TallyState: RaspState, Sendable {
  enum Event: Sendable { case add(Int) }
  var count = 0
  var largest: Int?
  mutating func apply(event: Event) {
    guard case .add(let amount) = event else { return }
    count += amount
  }
}

fileprivate struct TallyDomain: RaspDomain {
  /// Whether this is the new version.
  var isNew = false
  var name: String { "tally" }
  var summary: String { "Counts." }
  var events: [RaspEventSchema] {
    [RaspEventSchema(name: "add", summary: "Adds 'by'.", fields: [])]
  }
  var initialState: TallyState { TallyState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> TallyState.Event {
    var by: Int64 = 1
    while let field = try payload.nextField() {
      if field == "by" { by = try payload.integer() } else { try payload.skip() }
    }
    return .add(isNew && by >= 10 ? Int(by) * 2 : Int(by))
  }

  func encode(_ state: TallyState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"count\":")
    writer.writeInteger(Int64(state.count))
    if isNew { writer.writeRaw(",\"version\":2") }
    writer.writeRaw("}")
  }
}

/// What `rasp compare` reports over several logs: the verdicts against a reference walk of
/// two plain replays, the same report for every `-j`, what `--allow` allows by operation, the
/// summary and the statuses; and the Swift route, two versions of a domain registered with
/// `RaspCommandLine.run(arguments:environment:domains:comparing:)`.
@Suite struct CompareReportTests {
  static let oldSpec = #"""
    {"domains": [{"name": "cart", "initial": {"items": [], "total": 0},
      "events": [
        {"name": "add", "ops": [{"op": "append", "path": "items", "from": "payload.sku"},
                                {"op": "increment", "path": "total", "from": "payload.price"}]},
        {"name": "clear", "ops": [{"op": "clear", "path": "items"}]}]}]}
    """#
  /// The old spec with a new member, set by every `add` (an addition), and a total that is
  /// the last price rather than the sum (a change).
  static let newSpec = #"""
    {"domains": [{"name": "cart", "initial": {"items": [], "total": 0},
      "events": [
        {"name": "add", "ops": [{"op": "append", "path": "items", "from": "payload.sku"},
                                {"op": "set", "path": "total", "from": "payload.price"},
                                {"op": "set", "path": "last", "from": "payload.sku"}]},
        {"name": "clear", "ops": [{"op": "clear", "path": "items"}]}]}]}
    """#

  static func run(_ arguments: [String], in directory: String) async throws -> (
    output: String, errors: String, status: Int32
  ) {
    let result = try await TestProcess.run(
      BuiltBinary.path, arguments, in: directory, environment: BuiltBinary.environment)
    return (
      String(decoding: result.standardOutput, as: UTF8.self), result.standardError, result.status
    )
  }

  /// Each line's state, by line, as `rasp replay --with-event` prints it.
  static func states(_ output: String) throws -> [Int: Any] {
    var states: [Int: Any] = [:]
    for line in output.split(separator: "\n") {
      let record = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      states[try #require(record["line"] as? Int)] = record["state"]
    }
    return states
  }

  /// Writes logs of `add` and `clear` events into `logs/`, one with no `add` at all.
  static func writeLogs(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.createDirectory(
      atPath: directory.file("logs"), withIntermediateDirectories: true)
    var random = SplitMix64(seed: 7)
    var names: [String] = []
    for index in 0..<6 {
      var lines: [String] = []
      for _ in 0..<(5 + Int(random.next() % 20)) {
        if index == 2 || random.next() % 4 == 0 {
          lines.append(#"{"type":"cart.clear"}"#)
        } else {
          let sku = ["A", "B", "C"][Int(random.next() % 3)]
          lines.append(
            #"{"type":"cart.add","payload":{"sku":"\#(sku)","price":\#(random.next() % 9)}}"#)
        }
      }
      let name = "log-\(5 - index).jsonl"
      try directory.write("logs/" + name, lines.joined(separator: "\n") + "\n")
      names.append(name)
    }
    try directory.write("logs/notes.txt", "not a log\n")
    return names.sorted()
  }

  @Test func allowsByOperationAsTheReferenceFinds() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("old.json", Self.oldSpec)
    try directory.write("new.json", Self.newSpec)
    let names = try Self.writeLogs(in: directory)
    // The reference, per log: the lines after which the new state has `cart.last` (which the
    // old never has: an addition), and those after which the totals differ (a change).
    struct Expected {
      var lastAdded: [Int] = []
      var totalChanged: [Int] = []
      var differing = 0
    }
    var expected: [(name: String, found: Expected)] = []
    for name in names {
      let log = "logs/" + name
      let old = try Self.states(
        try await Self.run(
          ["replay", "--spec", "old.json", "--with-event", log], in: directory.path
        )
        .output)
      let new = try Self.states(
        try await Self.run(
          ["replay", "--spec", "new.json", "--with-event", log], in: directory.path
        )
        .output)
      var found = Expected()
      for line in old.keys.sorted() {
        let oldCart = (old[line] as? [String: Any])?["cart"] as? [String: Any] ?? [:]
        let newCart = (new[line] as? [String: Any])?["cart"] as? [String: Any] ?? [:]
        #expect(oldCart["last"] == nil)
        let added = newCart["last"] != nil
        let changed = !NSDictionary(dictionary: ["v": oldCart["total"] ?? 0]).isEqual(
          to: ["v": newCart["total"] ?? 0])
        if added { found.lastAdded.append(line) }
        if changed { found.totalChanged.append(line) }
        if added || changed { found.differing += 1 }
      }
      expected.append((name, found))
    }
    let base = ["compare", "--old", "old.json", "--new", "new.json"]
    func verdicts(_ allow: [String]) async throws -> (lines: [String], status: Int32) {
      let run = try await Self.run(
        base + allow.flatMap { ["--allow", $0] } + ["logs"], in: directory.path)
      let lines = run.output.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix(" ") && !$0.hasPrefix("-") && !$0.hasPrefix("+")
      }
      return (lines, run.status)
    }
    func reference(firstUnallowed: (Expected) -> Int?) -> [String] {
      expected.map { entry in
        let name = "logs/\(entry.name)"
        if let line = firstUnallowed(entry.found) {
          return "\(name): divergent at event \(line) (\(name):\(line)):"
        }
        return entry.found.differing == 0
          ? "\(name): identical" : "\(name): only allowed differences (\(entry.found.differing))"
      }
    }
    let everything = reference { _ in nil }
    #expect(try await verdicts(["cart.last", "cart.total"]).lines == everything)
    #expect(try await verdicts(["add:cart.last", "change:cart.total"]).lines == everything)
    #expect(try await verdicts(["add:cart.*", "change:cart.*"]).lines == everything)
    #expect(
      try await verdicts(["add:cart.last"]).lines == reference { $0.totalChanged.first })
    #expect(
      try await verdicts(["remove:cart.last", "change:cart.total"]).lines
        == reference { $0.lastAdded.first })
    #expect(
      try await verdicts(["add:cart.total", "add:cart.last"]).lines
        == reference { $0.totalChanged.first })
    #expect(try await verdicts([]).lines == reference { ($0.lastAdded + $0.totalChanged).min() })
    let some = expected.contains { !$0.found.totalChanged.isEmpty }
    #expect(some, "the logs have a total that differs")
    #expect(try await verdicts(["add:cart.last"]).status == 1)
    #expect(try await verdicts(["cart.last", "cart.total"]).status == 0)
  }

  @Test func givesTheSameReportForEveryNumberOfThreads() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("old.json", Self.oldSpec)
    try directory.write("new.json", Self.newSpec)
    _ = try Self.writeLogs(in: directory)
    let base = ["compare", "--old", "old.json", "--new", "new.json", "logs"]
    let one = try await Self.run(base, in: directory.path)
    #expect(one.status == 1)
    for jobs in ["2", "3", "8"] {
      let many = try await Self.run(base + ["-j", jobs], in: directory.path)
      #expect(many.output == one.output, "-j \(jobs)")
      #expect(many.errors == one.errors, "-j \(jobs)")
      #expect(many.status == one.status, "-j \(jobs)")
      let json = try await Self.run(base + ["-j", jobs, "--format", "json"], in: directory.path)
      let single = try await Self.run(base + ["--format", "json"], in: directory.path)
      #expect(json.output == single.output, "-j \(jobs), --format json")
    }
  }

  @Test func reportsALogThatCannotBeReadAndGoesOn() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("old.json", Self.oldSpec)
    try directory.write("a.jsonl", #"{"type":"cart.clear"}"# + "\n")
    try directory.write("b.jsonl", #"{"type":"cart.clear"}"# + "\n" + "{\"type\":\n")
    let run = try await Self.run(
      ["compare", "--old", "old.json", "--new", "old.json", "a.jsonl", "missing.jsonl", "b.jsonl"],
      in: directory.path)
    #expect(run.status == 2)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "a.jsonl: identical")
    #expect(lines.count == 3)
    #expect(
      lines.dropFirst().first?.hasPrefix("missing.jsonl: error: cannot open 'missing.jsonl'")
        == true)
    #expect(lines.last?.hasPrefix("b.jsonl: error: both versions stop at b.jsonl:2:") == true)
    #expect(run.errors.contains("b.jsonl:2:"), "the bad line on standard error")
    #expect(run.errors.hasSuffix("rasp: 3 logs: 1 identical, 0 divergent, 2 failed\n"))
  }

  /// Runs the command line in-process with the tally domain in two versions.
  fileprivate static func runSwift(_ arguments: [String], log: String) -> (Int32, String, String) {
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let directory = (try? TemporaryDirectory())
    try? directory?.write("events.jsonl", log)
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output,
      standardError: errors, variables: [:], workingDirectory: directory?.path)
    let status = RaspCommandLine.run(
      arguments: arguments, environment: environment, domains: [TallyDomain()],
      comparing: [TallyDomain(isNew: true)])
    return (status, output.text, errors.text)
  }

  @Test func comparesTwoVersionsOfASwiftDomain() throws {
    let log =
      [1, 4, 12, 3].map { #"{"type":"tally.add","payload":{"by":\#($0)}}"# }
      .joined(separator: "\n") + "\n"
    // The reference: the counts of both versions by hand; they part at the third event.
    let (status, output, errors) = Self.runSwift(
      ["compare", "--allow", "add:tally.version", "events.jsonl"], log: log)
    #expect(status == 1, "\(errors)")
    #expect(
      output == """
        events.jsonl: divergent at event 3 (events.jsonl:3):
          event {"payload":{"by":12},"type":"tally.add"}
          {
            "tally": {
        -     "count": 17,
        +     "count": 29,
              ... (1 unchanged)
            }
          }

        """)
    let allowed = Self.runSwift(
      [
        "compare", "--allow", "add:tally.version", "--allow", "change:tally.count",
        "events.jsonl",
      ], log: log)
    #expect(allowed.0 == 0, "\(allowed.2)")
    #expect(allowed.1 == "events.jsonl: only allowed differences (4)\n")
  }
}
