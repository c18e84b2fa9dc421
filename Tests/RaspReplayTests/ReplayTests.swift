#if canImport(Glibc)
  import Glibc
#endif
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The kernel's public face: a replay yields its outcomes in order — records written into the
/// caller's buffer, bad lines, notices, waiting, and the end with the count of every line.
@Suite struct ReplayTests {
  /// Replays `inputs` (name, text) and describes each outcome on a line of its own.
  private func outcomes(
    _ inputs: [(name: String, text: String)], live: Bool = false, chunkSize: Int = .max,
    threading: ReplayConfiguration.Threading = .automatic,
    _ configure: (inout ReplayConfiguration) -> Void = { _ in }
  ) -> [String] {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.excludedDomains = [DataDomain()]
    configuration.threading = threading
    configure(&configuration)
    let replayInputs = inputs.map { input in
      ReplayInput(
        name: input.name,
        source: .memory(JSONMemorySource(Array(input.text.utf8), chunkSize: chunkSize)),
        isLive: live)
    }
    var replay = Replay(configuration: configuration, inputs: replayInputs)
    var output: [UInt8] = Array("kept".utf8)
    var described: [String] = []
    while let outcome = replay.next(appendingTo: &output) {
      described.append(describe(outcome, output))
    }
    #expect(replay.next(appendingTo: &output) == nil, "nothing after the end")
    #expect(output.starts(with: Array("kept".utf8)), "earlier bytes are left alone")
    return described
  }

  private func describe(_ outcome: ReplayOutcome, _ output: [UInt8]) -> String {
    switch outcome {
    case .record(let record):
      let place = record.input.map { "\($0):\(record.line ?? 0)" } ?? "-"
      return "\(record.seq) \(place) \(String(decoding: output[record.range], as: UTF8.self))"
    case .skipped(let diagnostic): return "skipped \(diagnostic)"
    case .ignored(let diagnostic): return "ignored \(diagnostic)"
    case .notice(let notice): return "notice \(notice.input): \(notice.message)"
    case .waiting: return "waiting"
    case .checkpoint(let checkpoint): return "checkpoint \(checkpoint.lines) #\(checkpoint.events)"
    case .end(let summary):
      let counts = summary.statistics
      return "end \(summary.ending): \(counts.read) read, \(counts.applied) applied, "
        + "\(counts.skipped) skipped, \(counts.unknownType)+\(counts.otherDomain) ignored, "
        + "\(counts.blank) blank"
    }
  }

  private static let geo90 = #"{"type":"geo.heading","payload":{"heading":90}}"#
  private static let geo91 = #"{"type":"geo.heading","payload":{"heading":91}}"#
  private static let push = #"{"type":"nav.push","payload":{"screen":"home"}}"#
  private static func snapshot(heading: Int?, stack: [String] = []) -> String {
    let screens = stack.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"geo":{"accuracy":null,"heading":\#(heading.map(String.init) ?? "null"),"#
      + #""location":null},"nav":{"modal":null,"stack":[\#(screens)],"tab":null}}"#
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .automatic, .readAhead, .decodeAhead])
  func yieldsARecordPerEventThenTheEndWithEveryLineCounted(
    threading: ReplayConfiguration.Threading
  ) {
    let log = [
      Self.geo90, "", #"{"type":"zzz.event"}"#, #"{"type":"data.set"}"#, Self.push, Self.geo91,
    ].joined(separator: "\n")
    #expect(
      outcomes([("a.jsonl", log)], threading: threading) == [
        "1 0:1 " + Self.snapshot(heading: 90),
        "2 0:5 " + Self.snapshot(heading: 90, stack: ["home"]),
        "3 0:6 " + Self.snapshot(heading: 91, stack: ["home"]),
        "end completed: 6 read, 3 applied, 0 skipped, 1+1 ignored, 1 blank",
      ])
  }

  @Test func aBadLineStopsTheReplayWithItsPlaceUnlessSkipped() {
    let log = [Self.geo90, #"{"type":"geo.heading","payload":{"heading":"x"}}"#, Self.geo91]
      .joined(separator: "\n")
    let reason = "field 'payload.heading' must be a number, found a string"
    #expect(
      outcomes([("a.jsonl", log)]) == [
        "1 0:1 " + Self.snapshot(heading: 90),
        "skipped a.jsonl:2:44: \(reason)",
        "end stoppedAtBadLine: 2 read, 1 applied, 1 skipped, 0+0 ignored, 0 blank",
      ])
    #expect(
      outcomes([("a.jsonl", log)]) { $0.errorMode = .skip } == [
        "1 0:1 " + Self.snapshot(heading: 90),
        "skipped a.jsonl:2:44: \(reason)",
        "2 0:3 " + Self.snapshot(heading: 91),
        "end completed: 3 read, 2 applied, 1 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func anUnknownTypeIsABadLineWhenStrict() {
    #expect(
      outcomes([("a.jsonl", #"{"type":"zzz.event"}"#)]) { $0.isStrict = true } == [
        "skipped a.jsonl:1:9: unknown event type 'zzz.event'",
        "end stoppedAtBadLine: 1 read, 0 applied, 1 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func aSelectionYieldsTheValueOnlyWhenItChanges() throws {
    let log = [Self.geo90, Self.push, Self.geo90, Self.geo91].joined(separator: "\n")
    let path = try JSONPath("geo.heading")
    #expect(
      outcomes([("a.jsonl", log)]) { $0.selection = path } == [
        "1 0:1 90", "4 0:4 91",
        "end completed: 4 read, 4 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func aSelectionOfSeveralValuesIsOneRecordOfLinesAndNoneForNoValue() throws {
    let pop = #"{"type":"nav.pop"}"#
    let other = #"{"type":"nav.push","payload":{"screen":"list"}}"#
    let log = [Self.push, other, Self.geo90, pop, pop, Self.push].joined(separator: "\n")
    let path = try JSONPath("nav.stack[]", allowsFilters: true)
    // The values are compared as a whole; the empty stack, no value, is a change but no record.
    #expect(
      outcomes([("a.jsonl", log)]) { $0.selection = path } == [
        "1 0:1 \"home\"", "2 0:2 \"home\"\n\"list\"", "4 0:4 \"home\"", "6 0:6 \"home\"",
        "end completed: 6 read, 6 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
    let final = outcomes([("a.jsonl", [Self.push, pop].joined(separator: "\n"))]) {
      $0.selection = path
      $0.isFinal = true
    }
    #expect(final == ["end completed: 2 read, 2 applied, 0 skipped, 0+0 ignored, 0 blank"])
  }

  @Test func finalYieldsOneRecordAfterTheLastEventUnlessABadLineStopped() {
    let log = [Self.geo90, Self.push].joined(separator: "\n")
    #expect(
      outcomes([("a.jsonl", log)]) { $0.isFinal = true } == [
        "2 0:2 " + Self.snapshot(heading: 90, stack: ["home"]),
        "end completed: 2 read, 2 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
    #expect(
      outcomes([("a.jsonl", "")]) { $0.isFinal = true } == [
        "0 - " + Self.snapshot(heading: nil),
        "end completed: 0 read, 0 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
    #expect(
      outcomes([("a.jsonl", Self.geo90 + "\n[]")]) { $0.isFinal = true } == [
        "skipped a.jsonl:2:1: an event must be a JSON object, found an array",
        "end stoppedAtBadLine: 2 read, 1 applied, 1 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func severalInputsAreMergedByTimeFirstInputFirstOnATie() {
    func line(_ heading: Int, _ time: String) -> String {
      #"{"type":"geo.heading","ts":"2026-11-22T09:30:\#(time)Z","payload":{"heading":\#(heading)}}"#
    }
    let phone = [line(1, "01"), line(3, "03"), line(5, "05")].joined(separator: "\n")
    let watch = [line(2, "02"), line(4, "03"), line(6, "06")].joined(separator: "\n")
    let selected = outcomes([("phone", phone), ("watch", watch)]) {
      $0.selection = try? JSONPath("geo.heading")
    }
    #expect(
      selected == [
        "1 0:1 1", "2 1:1 2", "3 0:2 3", "4 1:2 4", "5 0:3 5", "6 1:3 6",
        "end completed: 6 read, 6 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .automatic])
  func aLiveInputIsReplayedLineByLine(threading: ReplayConfiguration.Threading) {
    // Each read of the live input gives 20 bytes, as a slow writer's pipe would: the replay
    // yields each record as soon as its line is whole, and never parses half a line.
    let log = Self.geo90 + "\n" + Self.geo91 + "\n"
    let seen = outcomes([("<stdin>", log)], live: true, chunkSize: 20, threading: threading) {
      $0.selection = try? JSONPath("geo.heading")
    }
    #expect(
      seen.filter { $0 != "waiting" } == [
        "1 0:1 90", "2 0:2 91",
        "end completed: 2 read, 2 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func aLiveInputYieldsWaitingWheneverItHasHandedOnAllItHad() {
    // On one thread the order is fixed: 49 bytes a line, 20 a read; after each line, the next
    // is not whole yet, and after the second, the end is not known yet.
    let log = Self.geo90 + "\n" + Self.geo91 + "\n"
    let seen = outcomes([("<stdin>", log)], live: true, chunkSize: 20, threading: .single) {
      $0.selection = try? JSONPath("geo.heading")
    }
    #expect(
      seen == [
        "waiting", "1 0:1 90", "waiting", "2 0:2 91", "waiting",
        "end completed: 2 read, 2 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test(arguments: [1, 2])
  func aKeyedLiveInputYieldsWaitingAfterEachRecord(jobs: Int) {
    // Split by key on several threads, a record is handed on before the replay waits for the
    // next line: a quiet `tail -f` shows each key's latest state at once.
    let log = Self.geo90 + "\n" + Self.geo91 + "\n"
    let seen = outcomes([("<stdin>", log)], live: true, chunkSize: 20, threading: .single) {
      $0.selection = try? JSONPath("geo.heading")
      $0.keyPath = try? JSONPath("source")
      $0.jobs = jobs
    }
    #expect(
      seen == [
        "waiting", #"1 0:1 {"key":null,"value":90}"#, "waiting",
        #"2 0:2 {"key":null,"value":91}"#, "waiting",
        "end completed: 2 read, 2 applied, 0 skipped, 0+0 ignored, 0 blank",
      ])
  }

  @Test func aFileIsNeverWaitedFor() {
    let seen = outcomes([("a.jsonl", Self.geo90 + "\n" + Self.geo91)], chunkSize: 7)
    #expect(!seen.contains("waiting"))
    #expect(seen.count == 3)
  }

  @Test func aReadFailureEndsTheReplayAfterTheLinesBeforeIt() throws {
    let directory = open("/", O_RDONLY | O_CLOEXEC)
    try #require(directory >= 0)
    let input = ReplayInput(name: "/", source: .file(RaspOpenFile(descriptor: directory)))
    var replay = Replay(configuration: ReplayConfiguration(domains: []), inputs: [input])
    var output: [UInt8] = []
    let outcome = replay.next(appendingTo: &output)
    guard case .end(let summary) = outcome else {
      Issue.record("expected the end, got \(String(describing: outcome))")
      return
    }
    #expect(summary.ending == .readFailure(input: 0, message: "Is a directory"))
    #expect(summary.statistics.read == 0)
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .automatic])
  func anInterruptionEndsTheReplayAtALineBoundary(threading: ReplayConfiguration.Threading) {
    let interruption = ReplayInterruption()
    var configuration = ReplayConfiguration(domains: [GeoDomain()])
    configuration.interruption = interruption
    configuration.threading = threading
    let log = Array((Self.geo90 + "\n" + Self.geo91 + "\n").utf8)
    // A live input that gives one line, then has nothing more until the replay is stopped.
    let input = ReplayInput(
      name: "<stdin>", source: .memory(JSONMemorySource(log, chunkSize: log.count / 2)),
      isLive: true)
    var replay = Replay(configuration: configuration, inputs: [input])
    var output: [UInt8] = []
    var records = 0
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record:
        records += 1
        interruption.request(signal: SIGINT)
      case .end(let summary):
        #expect(summary.ending == .interrupted(signal: SIGINT))
        #expect(summary.statistics.read == records)
      default: break
      }
    }
    #expect(records >= 1)
    #expect(interruption.signal == SIGINT)
  }
}
