import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp check --assert` against a second implementation: jq 1.6 evaluating the same
/// expression over every state that `rasp replay --with-event` prints, with the state before
/// each event kept per key, and the same rule for what a violation is (an event after which
/// the assertion no longer holds). Run over generated logs with faults planted at known
/// events, unkeyed and keyed, on one thread and two: the planted faults must be found exactly
/// there, and every assertion's violations must be the ones jq finds.
@Suite struct AssertionOracleTests {
  static let screens = ["home", "orders", "checkout", "search", "profile"]

  /// A log of `count` events of `nav` and `geo`, with a push of the screen `crash` at each of
  /// `faults` (then a pop, of the same device), and a `device` on each event when `keys > 0`.
  static func log(count: Int, faults: Set<Int>, keys: Int, seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    var pendingPop: String?
    var depths: [String: Int] = [:]
    while lines.count < count {
      let number = lines.count + 1
      let device = keys > 0 ? "d\(random.next() % UInt64(keys))" : ""
      let deviceField = keys > 0 ? #""device":"\#(device)","# : ""
      if let popDevice = pendingPop {
        let field = keys > 0 ? #""device":"\#(popDevice)","# : ""
        lines.append(#"{\#(field)"type":"nav.pop","payload":{}}"#)
        pendingPop = nil
        depths[popDevice, default: 0] -= 1
        continue
      }
      if faults.contains(number) {
        depths[device, default: 0] += 1
        lines.append(#"{\#(deviceField)"type":"nav.push","payload":{"screen":"crash"}}"#)
        pendingPop = device
        continue
      }
      switch random.next() % 4 {
      case 1 where depths[device, default: 0] > 0:
        depths[device, default: 0] -= 1
        lines.append(#"{\#(deviceField)"type":"nav.pop","payload":{}}"#)
      case 0, 1:
        depths[device, default: 0] += 1
        let screen = screens[Int(random.next() % UInt64(screens.count))]
        lines.append(#"{\#(deviceField)"type":"nav.push","payload":{"screen":"\#(screen)"}}"#)
      default:
        let heading = Double(random.next() % 3600) / 10
        lines.append(#"{\#(deviceField)"type":"geo.heading","payload":{"heading":\#(heading)}}"#)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let assertions = [
    #".nav.stack[-1] != "crash""#,
    #"$prev.nav == .nav or $event.type != "geo.heading""#,
    #"(. | keys | length) == 6 and (.geo | has("heading"))"#,
    ".nav.stack | length <= 3",
    #"$event.type != "nav.pop" or ($prev.nav.stack | length) > 0"#,
    ".geo.heading == null or .geo.heading < 300 or $prev.geo.heading == null",
    #"(.nav.stack | any(. == "search")) == false or .nav.tab != null or .nav.modal == null"#,
  ]

  /// The events at which jq finds `assertion` violated, over `records` (one per line, as
  /// `rasp replay --with-event` prints them).
  static func jqViolations(
    of assertion: String, records: String, initial: String, in directory: TemporaryDirectory
  ) async throws -> [Int] {
    try directory.write("records.jsonl", records)
    let program = """
      foreach inputs as $r ({fail: {}, prev: {}, out: null};
        ($r.key | tojson) as $k
        | (.prev[$k] // $init) as $prev
        | $r.event as $event
        | ($r.state | (\(assertion))) as $ok
        | .prev[$k] = $r.state
        | (if ($ok | not) and ((.fail[$k] // false) | not) then $r.seq else null end) as $out
        | .out = $out
        | .fail[$k] = ($ok | not);
        .out // empty)
      """
    let result = try await ExternalTool.run(
      "jq", ["-n", "-c", "--argjson", "init", initial, program, directory.file("records.jsonl")])
    guard result.status == 0 else {
      Issue.record("jq failed: \(result.standardError)")
      return []
    }
    return result.text.split(separator: "\n").compactMap { Int($0) }
  }

  /// The events at which `rasp check` reports `assertion` violated.
  static func raspViolations(of assertion: String, arguments: [String], in directory: String)
    throws -> (status: Int32, seqs: [Int])
  {
    let run = CommandRun.run(
      ["check", "--assert", assertion, "--max-failures", "0", "--format", "json"] + arguments,
      in: directory)
    let report = try JSONParser.parse(run.standardOutput)
    guard case .array(let violations)? = report["violations"] else {
      Issue.record("no report: \(run.standardError)")
      return (run.status, [])
    }
    let seqs = violations.compactMap { violation -> Int? in
      guard case .number(let number)? = violation["seq"] else { return nil }
      return number.integerValue.map(Int.init)
    }
    return (run.status, seqs)
  }

  @Test(
    .enabled(if: ExternalTool.exists("jq"), "jq is not installed"),
    arguments: [(0, 1), (3, 1), (3, 2)])
  func findsWhatJQFinds(keys: Int, jobs: Int) async throws {
    let faults: Set<Int> = [41, 230, 231 + 7, 512, 799]
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log(count: 800, faults: faults, keys: keys, seed: 29))
    let keyed = keys > 0 ? ["--key-by", "device", "-j", "\(jobs)"] : []
    let replay = CommandRun.run(
      ["replay", "--with-event"] + keyed + ["events.jsonl"], in: directory.path)
    #expect(replay.status == 0, "\(replay.standardError)")
    let initial = CommandRun.run(["replay", "--final"], in: directory.path).standardOutput
    for assertion in Self.assertions {
      let expected = try await Self.jqViolations(
        of: assertion, records: replay.standardOutput, initial: initial, in: directory)
      let (status, actual) = try Self.raspViolations(
        of: assertion, arguments: keyed + ["events.jsonl"], in: directory.path)
      #expect(actual == expected, "\(assertion), \(keys) keys, -j \(jobs)")
      #expect(status == (expected.isEmpty ? 0 : 1), "\(assertion)")
      if assertion == Self.assertions[0] {
        #expect(actual == faults.sorted(), "the planted faults")
      }
    }
  }

  @Test func theReportIsTheSameOnEveryNumberOfThreads() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log(count: 500, faults: [100, 300], keys: 4, seed: 5))
    let runs = (1...3).map { jobs in
      CommandRun.run(
        ["check", "--key-by", "device", "-j", "\(jobs)", "--max-failures", "0"]
          + Self.assertions.flatMap { ["--assert", $0] } + ["--assert-final", ".nav.tab == null"]
          + ["events.jsonl"],
        in: directory.path)
    }
    #expect(runs[0].status == 1)
    #expect(runs[0].standardOutput.contains("crash"))
    for run in runs.dropFirst() {
      #expect(run.standardOutput == runs[0].standardOutput)
      #expect(run.standardError == runs[0].standardError)
    }
  }

  /// The events `rasp find` prints, by their `seq`.
  static func found(_ arguments: [String], in directory: String) throws -> [Int] {
    let run = CommandRun.run(["find"] + arguments, in: directory)
    #expect(run.status == 0 || run.status == 1, "\(run.standardError)")
    return try run.standardOutput.split(separator: "\n").compactMap { line in
      guard case .number(let seq)? = try JSONParser.parse(String(line))["seq"] else { return nil }
      return seq.integerValue.map(Int.init)
    }
  }

  @Test(
    .enabled(if: ExternalTool.exists("jq"), "jq is not installed"),
    arguments: [(0, 1), (3, 2)])
  func findFindsWhatJQFinds(keys: Int, jobs: Int) async throws {
    let faults: Set<Int> = [41, 230, 512, 799]
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log(count: 800, faults: faults, keys: keys, seed: 31))
    let keyed = keys > 0 ? ["--key-by", "device", "-j", "\(jobs)"] : []
    let replay = CommandRun.run(
      ["replay", "--with-event"] + keyed + ["events.jsonl"], in: directory.path)
    let initial = CommandRun.run(["replay", "--final"], in: directory.path).standardOutput
    let crash = #".nav.stack[-1] == "crash""#
    #expect(
      try Self.found([crash] + keyed + ["events.jsonl"], in: directory.path) == faults.sorted())
    #expect(
      try Self.found(["--first", crash] + keyed + ["events.jsonl"], in: directory.path) == [41])
    for expression in [".nav.stack | length >= 3", #"$event.type == "nav.pop""#] {
      // `find EXPR` prints where `not (EXPR)` is violated, as jq finds it.
      let becomes = try await Self.jqViolations(
        of: "(\(expression)) | not", records: replay.standardOutput, initial: initial,
        in: directory)
      #expect(
        try Self.found([expression] + keyed + ["events.jsonl"], in: directory.path) == becomes,
        "\(expression)")
      try directory.write("records.jsonl", replay.standardOutput)
      let every = try await ExternalTool.run(
        "jq",
        [
          "-n", "-c", "--argjson", "init", initial,
          """
          foreach inputs as $r ({prev: {}, out: null};
            ($r.key | tojson) as $k | (.prev[$k] // $init) as $prev | $r.event as $event
            | .out = (if ($r.state | (\(expression))) then $r.seq else null end)
            | .prev[$k] = $r.state;
            .out // empty)
          """,
          directory.file("records.jsonl"),
        ])
      let expected = every.text.split(separator: "\n").compactMap { Int($0) }
      #expect(
        try Self.found(["--every", expression] + keyed + ["events.jsonl"], in: directory.path)
          == expected, "--every \(expression)")
    }
  }
}
