import Foundation
import RaspJSON
import Testing
import RaspTestSupport

/// Property tests: valid logs, damaged at random (bytes flipped, dropped, duplicated, cut), never
/// crash the reader or the replay, and the replay accounts for every line it read.
///
/// Each case is replayed from its seed: a failure names it, and `LogMutator(seed:)` with that
/// seed rebuilds the exact input.
@Suite struct MutatedLogTests {
  /// The valid logs that are damaged: every built-in domain, and a mixed session.
  static let logs: [(name: String, bytes: [UInt8])] = [
    "session-mixed", "example", "domain-data", "domain-geo", "domain-lifecycle", "domain-motion",
    "domain-nav", "domain-rest",
  ].map { name in
    let path = Repository.path("fixtures/\(name)/events.jsonl")
    return (name, FileManager.default.contents(atPath: path).map { Array($0) } ?? [])
  }

  /// How many damaged logs each test replays.
  static let cases = 1_000

  @Test func validLogsAreThere() {
    for log in Self.logs { #expect(log.bytes.count > 300, "fixtures/\(log.name)/events.jsonl") }
  }

  @Test func theReaderReturnsEveryLineAndTheParserAValueOrAnError() throws {
    for seed in 1...UInt64(Self.cases) {
      let (name, input) = damagedLog(seed: seed)
      let reader = JSONLinesReader(
        source: JSONMemorySource(input, chunkSize: 1 + Int(seed % 97)), chunkSize: 64)
      var count = 0
      while let line = try reader.next() {
        count += 1
        #expect(line.number == count, "seed \(seed) (\(name))")
        if line.isBlank { continue }
        if let error = JSONParser.parseError(line.bytes) {
          #expect(error.offset >= 0 && error.offset <= line.bytes.count, "seed \(seed): \(error)")
        }
      }
      #expect(count == Self.lineCount(input), "seed \(seed) (\(name)): lines")
      #expect(reader.bytesRead == input.count, "seed \(seed) (\(name)): bytes")
    }
  }

  @Test(arguments: [
    ["replay", "--on-error", "skip", "--stats", "-"],
    ["replay", "--on-error", "skip", "--stats", "--emit", "diff", "-"],
    ["replay", "--on-error", "skip", "--stats", "--with-event", "--strict", "-"],
  ])
  func skipModeAccountsForEveryLine(arguments: [String]) throws {
    var damaged = 0
    for seed in 1...UInt64(Self.cases) {
      let (name, input) = damagedLog(seed: seed)
      let run = CommandRun.run(arguments, input: input)
      let context = "seed \(seed) (\(name)), \(arguments.joined(separator: " "))"
      let errors = run.standardError.split(separator: "\n")
      let summary = try #require(
        Summary(errors.last.map(String.init) ?? ""), "\(context): \(run.standardError)")
      #expect(
        summary.read == summary.applied + summary.skipped + summary.ignored + summary.blank,
        "\(context)")
      #expect(summary.read == Self.lineCount(input), "\(context): lines read")
      #expect(
        errors.filter { $0.hasPrefix("<stdin>:") }.count == summary.skipped,
        "\(context): one error per skipped line")
      #expect(run.status == (summary.skipped == 0 ? 0 : 2), "\(context): status")
      if summary.skipped > 0 { damaged += 1 }
      let snapshots = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast()
      #expect(snapshots.count == summary.applied, "\(context): one output line per applied event")
      for snapshot in snapshots {
        #expect(JSONParser.parseError(Array(snapshot.utf8)) == nil, "\(context): \(snapshot)")
      }
    }
    #expect(
      damaged > Self.cases / 2, "most damaged logs hold a bad line: \(damaged) of \(Self.cases)")
    #expect(damaged < Self.cases, "some damage leaves valid JSON: \(damaged) of \(Self.cases)")
  }

  @Test func failModeStopsAtTheFirstBadLineThatSkipModeReports() throws {
    for seed in 1...UInt64(Self.cases) {
      let (name, input) = damagedLog(seed: seed)
      let fail = CommandRun.run(["replay", "--stats", "-"], input: input)
      let skip = CommandRun.run(["replay", "--on-error", "skip", "-"], input: input)
      let context = "seed \(seed) (\(name))"
      let firstError = skip.standardError.split(separator: "\n").first { $0.hasPrefix("<stdin>:") }
      if let firstError {
        #expect(fail.status == 2, "\(context)")
        #expect(fail.standardError.split(separator: "\n").first == firstError, "\(context)")
        #expect(
          skip.standardOutput.hasPrefix(fail.standardOutput),
          "\(context): snapshots before the error")
        let lines = fail.standardError.split(separator: "\n")
        let summary = try #require(
          Summary(lines.last.map(String.init) ?? ""), "\(context): \(fail.standardError)")
        #expect(
          summary.read == summary.applied + summary.skipped + summary.ignored + summary.blank,
          "\(context)")
        #expect(summary.skipped == 1, "\(context): the line that stopped the replay")
      } else {
        #expect(fail.status == 0 && skip.status == 0, "\(context)")
        #expect(fail.standardOutput == skip.standardOutput, "\(context)")
      }
    }
  }

  /// The log damaged with `seed`, and the name of the log it came from.
  private func damagedLog(seed: UInt64) -> (String, [UInt8]) {
    var mutator = LogMutator(seed: seed)
    let log = Self.logs[mutator.below(Self.logs.count)]
    return (log.name, mutator.mutate(log.bytes))
  }

  /// The lines in `bytes`, worked out the obvious way: one per newline, and one more for text
  /// after the last newline.
  static func lineCount(_ bytes: [UInt8]) -> Int {
    let newlines = bytes.lazy.filter { $0 == 0x0A }.count
    return newlines + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
  }

  /// The `--stats` summary: `rasp: 12 lines read: 9 applied, 1 skipped, 1 ignored, 1 blank`.
  struct Summary {
    var read = 0, applied = 0, skipped = 0, ignored = 0, blank = 0

    init?(_ line: String) {
      guard line.hasPrefix("rasp: ") else { return nil }
      let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," || $0 == "(" })
      func number(before word: String, from start: Int = 0) -> Int? {
        guard let index = words[start...].firstIndex(where: { $0 == word }), index > 0 else {
          return nil
        }
        return Int(words[index - 1])
      }
      guard let read = number(before: "lines") ?? number(before: "line"),
        let applied = number(before: "applied"), let skipped = number(before: "skipped"),
        let ignored = number(before: "ignored"), let blank = number(before: "blank")
      else { return nil }
      (self.read, self.applied, self.skipped, self.ignored, self.blank) = (
        read, applied, skipped, ignored, blank
      )
    }
  }
}

extension JSONParser {
  /// The error parsing `bytes` throws, or `nil` when they hold one JSON value.
  static func parseError(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    do {
      _ = try JSONParser.parse(bytes)
      return nil
    } catch {
      return error
    }
  }

  static func parseError(_ bytes: [UInt8]) -> JSONError? {
    bytes.withUnsafeBufferPointer { parseError($0) }
  }
}
