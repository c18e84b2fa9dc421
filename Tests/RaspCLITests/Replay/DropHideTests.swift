import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspCLI
@testable import RaspReplay
import RaspTestSupport

/// `rasp replay --drop` and `--hide`, checked against what they stand for, computed another
/// way: a dropped type is the replay of the log without its events (filtered by jq); a hidden
/// type is the full replay without their lines, and the line after hidden events holds the
/// state after them.
@Suite struct DropHideTests {
  /// A pattern, and the jq condition on a type that it stands for.
  static let patterns: [(glob: String, jq: String)] = [
    ("nav.*", #"startswith("nav.")"#),
    ("geo.heading", #". == "geo.heading""#),
    ("*.push", #"endswith(".push")"#),
    ("lifecycle.*", #"startswith("lifecycle.")"#),
  ]

  static let logs = [
    "fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl",
    "fixtures/replay-key-by/events.jsonl",
  ]

  /// A keyed log of `count` events of five devices, of every built-in type the keys have.
  static func keyedLog(count: Int = 300) -> String {
    var lines: [String] = []
    for index in 0..<count {
      let device = "\"deviceId\":\"d\(index * 7 % 5)\""
      let ts = "\"ts\":\"2026-11-22T09:\(10 + index / 60):\(String(format: "%02d", index % 60))Z\""
      switch index % 6 {
      case 0:
        lines.append(#"{"type":"geo.heading",\#(ts),"payload":{\#(device),"heading":\#(index)}}"#)
      case 1:
        lines.append(#"{"type":"nav.push",\#(ts),"payload":{\#(device),"screen":"s\#(index)"}}"#)
      case 2: lines.append(#"{"type":"nav.pop",\#(ts),"payload":{\#(device)}}"#)
      case 3: lines.append(#"{"type":"lifecycle.launch",\#(ts),"payload":{\#(device)}}"#)
      case 4:
        lines.append(
          #"{"type":"data.set",\#(ts),"payload":{\#(device),"key":"k","value":\#(index)}}"#)
      default:
        lines.append(#"{"type":"geo.heading",\#(ts),"payload":{"heading":\#(index)}}"#)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func values(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
  }

  func replay(_ arguments: [String], input: String = "") -> CommandRun {
    CommandRun.run(["replay"] + arguments, in: Repository.root, input: Array(input.utf8))
  }

  /// The lines of `log` whose type jq's `condition` is false of, through jq.
  func filtered(_ log: String, without condition: String) async throws -> String {
    let result = try await ExternalTool.run(
      "jq", ["-c", "select(.type | \(condition) | not)", log])
    #expect(result.status == 0, "\(result.standardError)")
    return String(decoding: result.standardOutput, as: UTF8.self)
  }

  @Test(.enabled(if: ExternalTool.exists("jq")), arguments: logs)
  func droppingATypeIsReplayingTheLogWithoutItsEvents(_ log: String) async throws {
    for pattern in Self.patterns {
      let without = try await filtered(log, without: pattern.jq)
      for options in [[], ["--final"], ["--select", "nav.stack"], ["--emit", "diff"]] {
        let dropped = replay(options + ["--drop", pattern.glob, log])
        let expected = replay(options + ["-"], input: without)
        #expect(dropped.status == expected.status, "\(dropped.standardError)")
        #expect(dropped.standardOutput == expected.standardOutput, "\(pattern.glob) \(options)")
      }
    }
  }

  @Test(.enabled(if: ExternalTool.exists("jq")), arguments: ["1", "2", "3"])
  func droppingATypeByKeyIsReplayingTheLogWithoutItsEvents(_ jobs: String) async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("keyed.jsonl")
    try Self.keyedLog().write(toFile: log, atomically: true, encoding: .utf8)
    for pattern in Self.patterns {
      let without = try await filtered(log, without: pattern.jq)
      for options in [[], ["--final"], ["--select", "geo.heading"]] {
        let keyed = options + ["--key-by", "payload.deviceId", "-j", jobs]
        let dropped = replay(keyed + ["--drop", pattern.glob, log])
        let expected = replay(keyed + ["-"], input: without)
        #expect(dropped.status == expected.status, "\(dropped.standardError)")
        #expect(dropped.standardOutput == expected.standardOutput, "\(pattern.glob) \(options)")
      }
    }
  }

  @Test(.enabled(if: ExternalTool.exists("jq")))
  func droppingATypeFromMergedLogsIsMergingTheLogsWithoutItsEvents() async throws {
    let directory = try TemporaryDirectory()
    let logs = ["fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl"]
    for pattern in Self.patterns {
      var filteredLogs: [String] = []
      for (index, log) in logs.enumerated() {
        let file = directory.file("\(index).jsonl")
        try await filtered(log, without: pattern.jq).write(
          toFile: file, atomically: true, encoding: .utf8)
        filteredLogs.append(file)
      }
      let options = ["--on-error", "skip", "--select", "nav.stack"]
      let dropped = replay(options + ["--drop", pattern.glob] + logs)
      let expected = replay(options + filteredLogs)
      #expect(dropped.standardOutput == expected.standardOutput, "\(pattern.glob)")
      #expect(!dropped.standardOutput.isEmpty)
    }
  }

  @Test func hidingATypeInMergedLogsRemovesItsLines() throws {
    for pattern in Self.patterns {
      try expectHidingRemovesTheLines(
        ["fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl"],
        pattern: pattern)
    }
  }

  /// The full replay's `--with-event` lines, without those of the events `condition` is true
  /// of, against the replay with the type hidden.
  func expectHidingRemovesTheLines(_ arguments: [String], pattern: (glob: String, jq: String))
    throws
  {
    let full = replay(arguments + ["--with-event"])
    let hidden = replay(["--hide", pattern.glob, "--with-event"] + arguments)
    #expect(hidden.status == full.status)
    let expected = try values(full.standardOutput).filter { line in
      guard case .string(let type)? = line["event"]?["type"] else { return true }
      return !Self.matches(pattern.glob, type)
    }
    #expect(try values(hidden.standardOutput) == expected, "\(pattern.glob) \(arguments)")
    // Without --with-event, the same lines, as written.
    let types = try values(full.standardOutput).map { line -> String in
      guard case .string(let type)? = line["event"]?["type"] else { return "" }
      return type
    }
    let plain = replay(arguments).standardOutput.split(
      separator: "\n", omittingEmptySubsequences: false)
    let kept = zip(types, plain).filter { !Self.matches(pattern.glob, $0.0) }.map(\.1)
    let hiddenPlain = replay(["--hide", pattern.glob] + arguments).standardOutput
    #expect(hiddenPlain.split(separator: "\n") == kept, "\(pattern.glob) \(arguments) plain")
  }

  /// Whether `type` matches one of ``patterns``, written out.
  static func matches(_ glob: String, _ type: String) -> Bool {
    switch glob {
    case "nav.*": type.hasPrefix("nav.")
    case "geo.heading": type == "geo.heading"
    case "*.push": type.hasSuffix(".push")
    case "lifecycle.*": type.hasPrefix("lifecycle.")
    default: false
    }
  }

  @Test(arguments: logs)
  func hidingATypeRemovesItsLinesFromTheFullReplay(_ log: String) throws {
    for pattern in Self.patterns {
      try expectHidingRemovesTheLines([log], pattern: pattern)
    }
  }

  @Test(arguments: ["1", "3"])
  func hidingATypeByKeyRemovesItsLinesOnEveryNumberOfJobs(_ jobs: String) throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("keyed.jsonl")
    try Self.keyedLog().write(toFile: log, atomically: true, encoding: .utf8)
    for pattern in Self.patterns {
      try expectHidingRemovesTheLines(
        ["--key-by", "payload.deviceId", "-j", jobs, log],
        pattern: pattern)
    }
  }

  @Test func theOutputIsTheSameForEveryNumberOfJobs() throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("keyed.jsonl")
    try Self.keyedLog().write(toFile: log, atomically: true, encoding: .utf8)
    for options in [[], ["--final"], ["--select", "nav.stack"], ["--emit", "diff"]] {
      let arguments =
        options + [
          "--key-by", "payload.deviceId", "--drop", "lifecycle.*", "--hide", "geo.*", "--stats",
          log,
        ]
      let one = replay(["-j", "1"] + arguments)
      for jobs in ["2", "3", "4"] {
        let several = replay(["-j", jobs] + arguments)
        #expect(several.standardOutput == one.standardOutput, "\(options) -j \(jobs)")
        #expect(several.standardError == one.standardError, "\(options) -j \(jobs)")
      }
    }
  }

  @Test(arguments: logs)
  func diffsAfterHiddenEventsRebuildEveryStatePrinted(_ log: String) throws {
    let full = try values(replay(["--with-event", log]).standardOutput)
    let stateAt = Dictionary(
      full.compactMap { line -> (Int, JSONValue)? in
        guard case .number(let seq)? = line["seq"], let state = line["state"] else { return nil }
        return (Int(seq.description) ?? -1, state)
      }, uniquingKeysWith: { $1 })
    for pattern in Self.patterns {
      for changesOnly in [[], ["--changes-only"]] {
        let patches = try values(
          replay(["--hide", pattern.glob, "--emit", "diff", "--with-event"] + changesOnly + [log])
            .standardOutput)
        var state = try JSONParser.parse(SnapshotState(domains: RaspBuiltinDomains.all).json())
        for line in patches {
          state = try JSONPatch.apply(line["diff"] ?? .null, to: state)
          guard case .number(let seq)? = line["seq"] else { continue }
          #expect(state == stateAt[Int(seq.description) ?? -1], "\(pattern.glob) at \(seq)")
        }
      }
    }
  }

  @Test func aSelectionPrintsAtTheNextLineWhatHiddenEventsChanged() {
    // Event 9 (geo.heading 273, hidden) changes the heading; event 10 (nav.push) prints it.
    let run = replay([
      "--hide", "geo.*", "--select", "geo.heading", "--with-event",
      "fixtures/example/events.jsonl",
    ])
    let lines = run.standardOutput.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.last?.contains(#""seq":10"#) == true)
    #expect(lines.last?.hasSuffix(#""value":273}"#) == true)
  }

  @Test func theSummaryCountsDroppedAmongIgnoredAndHiddenAmongApplied() {
    let run = replay([
      "--drop", "nav.*", "--hide", "geo.*", "--final", "--stats", "fixtures/example/events.jsonl",
    ])
    #expect(
      run.standardError
        == "rasp: 20 lines read: 16 applied (4 hidden by --hide), 0 skipped, "
        + "4 ignored (4 dropped by --drop), 0 blank\n")
  }

  @Test func aTypeBothOptionsMatchIsDropped() {
    let run = replay([
      "--drop", "geo.*", "--hide", "geo.heading", "--final", "--stats",
      "fixtures/example/events.jsonl",
    ])
    #expect(run.standardError.contains("16 applied, 0 skipped, 4 ignored (4 dropped by --drop)"))
  }

  @Test func aDroppedEventNeedsNoKeyButMustBeJSON() {
    let log =
      #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n"
      + #"{"type":"nav.push","payload":{"deviceId":"a","screen":"x"}}"# + "\n"
      + #"{"type":"geo.heading","payload":{"heading":"not a number"}}"# + "\n"
      + #"{"type":"geo.heading","payload":{"heading":}}"# + "\n"
    let run = replay(
      ["--key-by", "payload.deviceId", "--strict", "--drop", "geo.*", "--on-error", "skip", "-"],
      input: log)
    #expect(run.standardOutput.split(separator: "\n").count == 1)
    #expect(run.standardError.contains("<stdin>:4:"))
    #expect(run.standardError.contains("1 applied to 1 key, 1 skipped, 2 ignored"))
  }

  @Test(arguments: ["", "nav.[ab]", "nav.push?", "nav .push", "nav.{push,pop}"])
  func aMalformedPatternIsAUsageErrorNamingTheOption(_ glob: String) {
    for option in ["--drop", "--hide"] {
      let run = replay([option, glob, "fixtures/example/events.jsonl"])
      #expect(run.status == 64)
      #expect(run.standardError.contains("for '\(option) <type>'"), "\(run.standardError)")
      #expect(run.standardOutput.isEmpty)
    }
  }

  @Test func aPatternThatMatchesNoTypeIsWarnedAboutWithTheNearest() {
    let run = replay([
      "--drop", "nab.*", "--hide", "geo.headng", "--final", "--select", "geo.heading",
      "fixtures/example/events.jsonl",
    ])
    #expect(run.status == 0)
    #expect(run.standardOutput == "273\n")
    #expect(
      run.standardError
        == "rasp: warning: --drop 'nab.*' matches no event type of any domain; "
        + "did you mean 'nav.*'?\n"
        + "rasp: warning: --hide 'geo.headng' matches no event type of any domain; "
        + "did you mean 'geo.heading'?\n")
  }

  @Test func aSpecsTypesAreKnown() {
    let run = replay([
      "--spec", "fixtures/spec-cart/cart.json", "--drop", "cart.*", "--final",
      "fixtures/spec-cart/events.jsonl",
    ])
    #expect(!run.standardError.contains("warning"), "\(run.standardError)")
  }

  @Test func checkComparesWhatReplayPrints() throws {
    let directory = try TemporaryDirectory()
    let golden = directory.file("golden.jsonl")
    let arguments = ["--hide", "geo.*", "--drop", "nav.pop", "fixtures/example/events.jsonl"]
    try replay(arguments).standardOutput.write(toFile: golden, atomically: true, encoding: .utf8)
    let check = CommandRun.run(
      ["check", "--golden", golden] + arguments, in: Repository.root)
    #expect(check.status == 0, "\(check.standardError)")
    let without = CommandRun.run(
      ["check", "--golden", golden, "fixtures/example/events.jsonl"], in: Repository.root)
    #expect(without.status == 1)
  }
}
