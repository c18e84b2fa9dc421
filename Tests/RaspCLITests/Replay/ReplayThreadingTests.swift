import Foundation
import RaspDomains
import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI
import RaspTestSupport

/// Every way of spreading a replay over threads prints the same bytes, and ends the same way,
/// as reading the log on one thread: the reading thread's decoding, and its assumption about
/// where a payload ends, change only the speed.
@Suite struct ReplayThreadingTests {
  /// The ways compared with `.single`.
  static let threadings: [ReplayConfiguration.Threading] = [.automatic, .readAhead, .decodeAhead]

  /// Runs `rasp replay <arguments>` in-process with the given threading.
  private func replay(
    _ arguments: [String], input: [UInt8], threading: ReplayConfiguration.Threading
  ) throws -> String {
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(input, chunkSize: 7)), standardOutput: output,
      standardError: errors, variables: [:], workingDirectory: nil)
    environment.processorCount = CommandRun.processors
    let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
    var options = try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
    options.configuration.threading = threading
    var sink = StandardOutputSink(stream: environment.standardOutput, isPretty: options.isPretty)
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: environment)
    return "status \(status.rawValue)\n--- stdout\n\(output.text)--- stderr\n\(errors.text)"
  }

  /// Expects every threading to give what `.single` gives.
  private func expectSameEverywhere(_ arguments: [String], input: [UInt8], _ context: String) throws
  {
    let single = try replay(arguments, input: input, threading: .single)
    // The replay ran: it read every line (the last line of standard error is its summary).
    #expect(
      single.contains(" lines read: ") || single.contains(" line read: "), "\(context): \(single)")
    for threading in Self.threadings {
      let other = try replay(arguments, input: input, threading: threading)
      #expect(other == single, "\(context), \(threading)")
    }
  }

  /// Lines whose payload looks like the line's last member without being it, or is it but is
  /// bad: the reading thread assumes where each of these payloads ends, and must be corrected.
  static let misleadingLines = [
    #"{"type":"geo.heading","payload":{"heading":90},"x":{}}"#,  // valid: another member follows
    #"{"type":"geo.heading","payload":{"heading":91},"type":{}}"#,  // the type twice
    #"{"type":"geo.heading","payload":{"heading":92},"payload":{}}"#,  // the payload twice
    #"{"type":"geo.heading","payload":{"heading":93},"ts":{}}"#,  // a ts that is an object
    #"{"type":"geo.heading","payload":{"heading":94}}}"#,  // a brace too many
    #"{"type":"geo.heading","payload":{"heading":95,"heading":96}}"#,  // a key twice
    #"{"type":"geo.heading","payload":{"heading":"}"}}"#,  // a brace in a string
    #"{"type":"geo.heading","payload":{"heading":500}}"#,  // out of range
    #"{"type":"geo.heading","payload":{"heading":97,}}"#,  // a trailing comma
    // nested, valid
    #"{"type":"geo.location","payload":{"latitude":1,"longitude":2,"x":{"y":{}}}}"#,
    // nested after
    #"{"type":"geo.location","payload":{"latitude":1,"longitude":2},"x":{"y":{}}}"#,
    #"{"type":"nav.push","payload":{"screen":"a"},"payload":{"screen":"b"}}"#,
    #"{"type":"zzz.event","payload":{"a":1},"b":{}}"#,  // unknown type, valid
    #"{"type":"zzz.event","payload":{"a":1},"type":{}}"#,  // unknown type, the type twice
    #"{"type":"zzz.event","payload":{"a":1}}}"#,  // unknown type, a brace too many
    #"{"type":"geo.heading","payload":{"heading":98}}"#,  // valid
  ]

  @Test(arguments: [
    ["--on-error", "skip", "--stats", "-"],
    ["--on-error", "skip", "--stats", "--strict", "--with-event", "-"],
    ["--stats", "-"],
    ["--final", "--on-error", "skip", "--stats", "-"],
  ])
  func misleadingPayloadsReadTheSameOnEveryThread(arguments: [String]) throws {
    let input = Array((Self.misleadingLines.joined(separator: "\n") + "\n").utf8)
    try expectSameEverywhere(arguments, input: input, arguments.joined(separator: " "))
  }

  @Test func theMisleadingLinesAreReadAsOnOneThread() throws {
    // What one thread makes of them, checked line by line against what each line is: lines 1,
    // 10, 11 and 16 are valid, line 13 is of an unknown type, and the others are bad.
    let input = Array((Self.misleadingLines.joined(separator: "\n") + "\n").utf8)
    let single = try replay(
      ["--on-error", "skip", "--final", "-"], input: input, threading: .single)
    let lines = single.split(separator: "\n")
    let errors = lines.filter { $0.hasPrefix("<stdin>:") }.map { $0.split(separator: ":")[1] }
    #expect(errors == ["2", "3", "4", "5", "6", "7", "8", "9", "12", "14", "15"])
    let summary = try #require(
      MutatedLogTests.Summary(lines.last.map(String.init) ?? ""), "\(single)")
    let counts: [Int] = [
      summary.read, summary.applied, summary.skipped, summary.ignored, summary.blank,
    ]
    #expect(counts == [16, 4, 11, 1, 0])
  }

  @Test func damagedLogsReadTheSameOnEveryThread() throws {
    for seed in 1...UInt64(500) {
      var mutator = LogMutator(seed: seed)
      let log = MutatedLogTests.logs[mutator.below(MutatedLogTests.logs.count)]
      let input = mutator.mutate(log.bytes)
      try expectSameEverywhere(
        ["--on-error", "skip", "--stats", "-"], input: input, "seed \(seed) (\(log.name))")
    }
  }

  /// The event logs of the fixtures, by folder.
  static func fixtureLogs() throws -> [(name: String, bytes: [UInt8])] {
    let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path("fixtures"))
    return names.sorted().compactMap { name in
      FileManager.default.contents(atPath: Repository.path("fixtures/\(name)/events.jsonl"))
        .map { ("fixtures/\(name)", Array($0)) }
    }
  }

  @Test func theFixturesLogsReadTheSameOnEveryThread() throws {
    let logs = try Self.fixtureLogs()
    for log in logs {
      try expectSameEverywhere(
        ["--on-error", "skip", "--stats", "-"], input: log.bytes, log.name)
    }
    #expect(logs.count > 40)
  }

  /// Expects a keyed replay on 2, 3 and 4 threads (`--jobs`: with 3 and 4, 2 and 3 kernels) to
  /// print what it prints on one.
  private func expectSameForEveryNumberOfJobs(
    _ arguments: [String], input: [UInt8], _ context: String
  ) throws {
    let one = try replay(["--jobs", "1"] + arguments, input: input, threading: .automatic)
    #expect(one.contains(" read: "), "\(context): \(one)")
    for jobs in ["2", "3", "4"] {
      let other = try replay(["-j", jobs] + arguments, input: input, threading: .automatic)
      #expect(other == one, "\(context), \(jobs) jobs")
    }
  }

  @Test func damagedLogsReplayedByKeyReadTheSameOnEveryNumberOfJobs() throws {
    for seed in 1...UInt64(150) {
      var mutator = LogMutator(seed: seed)
      let log = MutatedLogTests.logs[mutator.below(MutatedLogTests.logs.count)]
      let input = mutator.mutate(log.bytes)
      let errorMode = seed % 3 == 0 ? "fail" : "skip"
      let output = seed % 2 == 0 ? ["--with-event"] : ["--final", "--emit", "diff"]
      try expectSameForEveryNumberOfJobs(
        ["--key-by", "source", "--on-error", errorMode, "--stats"] + output + ["-"], input: input,
        "seed \(seed) (\(log.name))")
    }
  }

  @Test func theFixturesLogsReplayedByKeyReadTheSameOnEveryNumberOfJobs() throws {
    let logs = try Self.fixtureLogs()
    for log in logs {
      try expectSameForEveryNumberOfJobs(
        ["--key-by", "source", "--on-error", "skip", "--stats", "--with-event", "-"],
        input: log.bytes, log.name)
    }
    #expect(logs.count > 40)
  }
}
