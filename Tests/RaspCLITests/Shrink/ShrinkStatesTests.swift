import Foundation
import RaspDomains
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

@testable import RaspCLI

/// The saved states of `rasp shrink`: which one a candidate resumes from, and that a try
/// resumed from one ends as the try from the first line does.
@Suite struct ShrinkStatesTests {
  /// A state after `lines` lines ending at `offset`; its contents do not matter here.
  private func state(_ offset: Int, lines: Int) -> ReplayCheckpoint {
    ReplayCheckpoint(lines: [lines], offsets: [offset], events: lines, records: 0, state: .null)
  }

  private func offsets(_ states: ShrinkStates) -> [Int] {
    states.saved.map(ShrinkStates.offset(of:))
  }

  @Test func aCandidateResumesFromTheLastStateBeforeItsFirstChangedByte() {
    // Lines end at 2, 5, 9; the last, "dddd", has no line end.
    let log = Array("a\nbb\nccc\ndddd".utf8)
    let states = ShrinkStates(
      log: log,
      saved: [state(2, lines: 1), state(5, lines: 2), state(9, lines: 3), state(13, lines: 4)])
    // A last line without its line end could go on in a candidate: no state after it.
    #expect(offsets(states) == [2, 5, 9])
    func resumed(_ text: String) -> Int? {
      states.latest(sharedWith: Array(text.utf8)).map(ShrinkStates.offset(of:))
    }
    #expect(resumed("a\nbb\nccc\ndddd") == 9)
    #expect(resumed("a\nbb\nXcc\n") == 5)
    #expect(resumed("a\nbb\n") == 5)
    #expect(resumed("a\nb") == 2)
    #expect(resumed("a\nbb\nccc\ndddd and more\n") == 9)
    #expect(resumed("b\n") == nil)
    #expect(resumed("") == nil)
  }

  @Test func aCandidateAdoptedKeepsTheStatesOfItsSharedLinesAndAddsItsOwn() {
    var states = ShrinkStates(
      log: Array("a\nbb\nccc\ndddd\n".utf8),
      saved: [state(2, lines: 1), state(5, lines: 2), state(9, lines: 3), state(14, lines: 4)])
    // "ccc" removed: the states after "a" and "bb" stay, the replay's from there are added.
    let candidate = Array("a\nbb\ndddd\n".utf8)
    states.adopt(candidate, saved: [state(10, lines: 3)])
    #expect(states.log == candidate)
    #expect(offsets(states) == [2, 5, 10])
    #expect(states.latest(sharedWith: Array("a\nbb\ndddd\ne\n".utf8)).map(\.lines) == [3])
    // A candidate from the first line: all its states are its replay's.
    states.adopt(Array("bb\n".utf8), saved: [state(3, lines: 1)])
    #expect(offsets(states) == [3])
  }

  @Test func theSharedLengthIsTheFirstDifferingByteAcrossBlocks() {
    var random = RandomEvents(seed: 5)
    let bytes = (0..<10_000).map { _ in UInt8(random.int(256)) }
    for position in [0, 1, 4095, 4096, 4097, 8191, 9_999] {
      var other = bytes
      other[position] &+= 1
      #expect(ShrinkStates.sharedLength(bytes, other, upTo: .max) == position)
      #expect(ShrinkStates.sharedLength(bytes, other, upTo: 100) == min(position, 100))
    }
    #expect(ShrinkStates.sharedLength(bytes, bytes, upTo: .max) == bytes.count)
    #expect(ShrinkStates.sharedLength(bytes, Array(bytes[..<5_000]), upTo: .max) == 5_000)
  }

  /// The options of `rasp replay <arguments>` over the built-in domains.
  private func options(_ arguments: [String]) throws -> ReplayOptions {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
      standardError: DiscardingOutput())
    let parsed = try RaspArgumentParser.parse(arguments + ["log.jsonl"], spec: ReplayCommand.spec)
    return try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
  }

  private let quiet = RaspEnvironment(
    standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
    standardError: DiscardingOutput())

  /// 1,000 headings, line 700 not JSON.
  private func lines() -> [String] {
    (1...1_000).map { line in
      line == 700
        ? "not json\n" : #"{"type":"geo.heading","payload":{"heading":\#(line % 360)}}"# + "\n"
    }
  }

  /// The candidate of `lines` without the lines (numbered from 1) of `removed`.
  private func candidate(_ lines: [String], without removed: ClosedRange<Int>) -> [UInt8] {
    Array(lines.enumerated().filter { !removed.contains($0.offset + 1) }.map(\.1).joined().utf8)
  }

  @Test func statesAreSavedOnlyBeforeTheFirstBadLineAndResumedTriesEndTheSame() throws {
    let options = try options(["--on-error", "skip", "--final"])
    let lines = lines()
    let whole = Array(lines.joined().utf8)
    let first = ShrinkFailure.exitStatus(
      of: ShrinkReplay(bytes: whole, state: nil, interval: 100), options: options,
      environment: quiet)
    #expect(first.status == 2)
    // Lines 100, 200, … 600: none after the bad line, though the replay went on past it.
    #expect(first.states.map(\.lines) == (1...6).map { [$0 * 100] })
    let failure = ShrinkFailure.exitStatus(.init(status: 2, reason: first.reason))
    let states = ShrinkStates(log: whole, saved: first.states)
    for removed in [650...660, 699...699, 700...700, 1...3, 800...1_000, 601...1_000] {
      let bytes = candidate(lines, without: removed)
      let state = states.latest(sharedWith: bytes)
      let kept = removed.lowerBound - 1
      #expect(state?.lines.first == (kept >= 100 ? min(600, kept / 100 * 100) : nil))
      let resumed = failure.attempt(
        ShrinkReplay(bytes: bytes, state: state, interval: 100), options: options,
        environment: quiet)
      let fromStart = failure.holds(for: bytes, options: options, environment: quiet)
      #expect(resumed.fails == fromStart, "without lines \(removed)")
      #expect(resumed.fails == !removed.contains(700), "without lines \(removed)")
    }
  }

  @Test func aResumedGoldenTryComparesFromTheGoldenLineAfterTheStatesRecords() throws {
    let options = try options([])
    // All alike: a try compared with the wrong golden lines would find no difference.
    let lines = Array(
      repeating: #"{"type":"geo.heading","payload":{"heading":5}}"# + "\n", count: 1_000)
    // The golden file of a log whose line 800 has another heading.
    var changed = lines
    changed[799] = #"{"type":"geo.heading","payload":{"heading":7}}"# + "\n"
    let directory = try TemporaryDirectory()
    try directory.write("changed.jsonl", changed.joined())
    let golden = CommandRun.run(["replay", "changed.jsonl"], in: directory.path).standardOutput
    let check = ShrinkFailure.GoldenCheck(
      name: "golden.jsonl", bytes: Array(golden.utf8), options: JSONDiffOptions(), paths: nil)
    let whole = Array(lines.joined().utf8)
    let first = check.firstDifferencePaths(
      of: ShrinkReplay(bytes: whole, state: nil, interval: 100), options, quiet)
    let paths = try #require(first.paths)
    #expect(paths.contains { $0.contains("heading") })
    #expect(first.states.map(\.lines) == (1...7).map { [$0 * 100] })
    let states = ShrinkStates(log: whole, saved: first.states)
    for removed in [900...1_000, 801...801, 750...760, 1...1] {
      let bytes = candidate(lines, without: removed)
      let state = states.latest(sharedWith: bytes)
      let resumed = check.firstDifferencePaths(
        of: ShrinkReplay(bytes: bytes, state: state), options, quiet)
      let fromStart = check.firstDifferencePaths(of: ShrinkReplay(bytes: bytes), options, quiet)
      #expect(resumed.paths == fromStart.paths, "without lines \(removed)")
      #expect(resumed.paths == paths, "without lines \(removed)")
    }
  }
}

/// `rasp shrink` gives the same log, and the same summary, whether its tries resume from
/// saved states or replay from the first line (`--from-start`).
@Suite struct ShrinkResumptionTests {
  static let vault = Repository.path("fixtures/shrink-vault/vault.json")

  /// The summary without its last part, the time the shrink took (` · 1.4 s`, ` · 41 s`), which
  /// the summary shows once a shrink takes a second or more, as it may on a loaded machine.
  static func withoutTime(_ summary: String) -> String {
    summary.replacingOccurrences(
      of: #" · [0-9]+(\.[0-9])? s\n"#, with: "\n", options: .regularExpression)
  }

  @Test(arguments: [
    ["--key-by", "source", "--fails-with", "2"],
    ["--domain", "vault", "--fails-with", "2"],
    ["--key-by", "source", "--on-error", "skip", "--fails-with", "2"],
    ["--key-by", "source", "--assert", ".vault.total < 1e308"],
    ["--key-by", "source", "--assert-final", ".vault.deposits < 3"],
    ["--key-by", "source", "--fails-with", "2", "--payloads"],
  ])
  func resumedTriesShrinkToWhatTriesFromTheStartDo(_ arguments: [String]) throws {
    let log = PlantedCulpritLog(events: 4_000, keys: 8, seed: 23)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    var results: [String] = []
    for extra in [[], ["--from-start"]] {
      let run = CommandRun.run(
        ["shrink", "events.jsonl", "--spec", Self.vault, "-o", "min.jsonl"] + arguments + extra,
        in: directory.path)
      #expect(run.status == 0, "\(run.standardError)")
      results.append(
        Self.withoutTime(run.standardError)
          + String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self))
    }
    #expect(results[0] == results[1])
    #expect(results[0].contains("vault.deposit"))
  }

  @Test func aGoldenCheckShrinksAlikeResumedAndFromTheStart() throws {
    let lines = vaultDeposits(count: 3_000, seed: 8, largeAt: [1_900, 2_600])
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", lines.joined())
    let select = ["--domain", "vault", "--select", "vault.deposits"]
    let recorded = CommandRun.run(
      ["replay", "--spec", ShrinkCommandTests.vault] + select + ["events.jsonl"],
      in: directory.path)
    try directory.write("golden.jsonl", recorded.standardOutput)
    var results: [String] = []
    for extra in [[], ["--from-start"]] {
      let run = CommandRun.run(
        [
          "shrink", "events.jsonl", "--golden", "golden.jsonl", "-o", "min.jsonl", "--spec",
          ShrinkCommandTests.vaultWithBug,
        ] + select + extra, in: directory.path)
      #expect(run.status == 0, "\(run.standardError)")
      results.append(
        Self.withoutTime(run.standardError)
          + String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self))
    }
    #expect(results[0] == results[1])
    #expect(results[0].hasSuffix(#"{"type":"vault.deposit","payload":{"amount":500}}"# + "\n"))
  }
}
