import Foundation
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp shrink`, run in-process, its results checked by ``MinimalityChecker`` with the built
/// `rasp replay`.
@Suite struct ShrinkCommandTests {
  static let vault = Repository.path("fixtures/shrink-vault/vault.json")
  static let vaultWithBug = Repository.path("fixtures/shrink-vault/vault-bug.json")

  /// The lines of a file, each with its line end.
  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\n" }
  }

  @Test func aPlantedCulpritAmongTenThousandEventsShrinksToExactlyItsThreeEvents() async throws {
    let log = PlantedCulpritLog(events: 10_000, keys: 100, seed: 40)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--key-by", "source", "--fails-with", "2",
        "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("min.jsonl") == Array(log.culpritLines.utf8))
    #expect(run.standardError.hasPrefix("rasp: shrunk 'events.jsonl' into 'min.jsonl': keys "))
    #expect(run.standardError.contains("→1 · events 10000→3 · "))
    #expect(run.standardOutput == "")
    let checker = MinimalityChecker(
      replayArguments: ["--spec", Self.vault, "--key-by", "source"]
    ) { $0.status == 2 }
    try await checker.expectOneMinimal(Self.lines(log.culpritLines))
  }

  @Test func withoutKeysTheEventsPassAloneFindsTheCulprit() throws {
    let log = PlantedCulpritLog(events: 2_000, keys: 20, seed: 7)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--domain", "vault", "--fails-with", "2",
        "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("min.jsonl") == Array(log.culpritLines.utf8))
    #expect(run.standardError.contains(": events 2000→3 · "))
  }

  @Test func aGoldenCheckShrinksToTheEventThatMakesTheSnapshotDiffer() async throws {
    let lines = vaultDeposits(count: 300, seed: 3, largeAt: [120, 250])
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", lines.joined())
    // The golden file, from the spec without the bug: a deposit of 500 is counted once.
    let recorded = CommandRun.run(
      [
        "replay", "--spec", Self.vault, "--domain", "vault", "--select", "vault.deposits",
        "events.jsonl",
      ], in: directory.path)
    try directory.write("golden.jsonl", recorded.standardOutput)
    let replayArguments = [
      "--spec", Self.vaultWithBug, "--domain", "vault", "--select", "vault.deposits",
    ]
    let run = CommandRun.run(
      ["shrink", "events.jsonl", "--golden", "golden.jsonl", "-o", "min.jsonl"]
        + replayArguments, in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    let shrunk = String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self)
    #expect(shrunk == #"{"type":"vault.deposit","payload":{"amount":500}}"# + "\n")
    // Independently: a snapshot differs from its golden line, at the whole log's paths.
    let golden = recorded.standardOutput.split(separator: "\n").map(String.init)
    func firstDifference(_ replay: MinimalityChecker.Replay) -> Set<String>? {
      for (actual, expected) in zip(replay.snapshots, golden) {
        let paths = MinimalityChecker.differingPaths(expected, actual)
        if !paths.isEmpty { return paths }
      }
      return nil
    }
    let original = try await MinimalityChecker(replayArguments: replayArguments) { _ in true }
      .replay(lines)
    let signature = try #require(firstDifference(original))
    let checker = MinimalityChecker(replayArguments: replayArguments) {
      $0.status == 0 && firstDifference($0) == signature
    }
    try await checker.expectOneMinimal(Self.lines(shrunk))
  }

  @Test func anAssertionShrinksToEventsThatStillViolateIt() async throws {
    // Two of the three planted deposits already take a vault beyond 1e308.
    let log = PlantedCulpritLog(events: 5_000, keys: 50, seed: 17)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--key-by", "source", "--assert",
        ".vault.total < 1e308", "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    let shrunk = Self.lines(String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self))
    #expect(shrunk.count == 2)
    #expect(shrunk.allSatisfy { Self.lines(log.culpritLines).contains($0) })
    // Independently: some vault's total, as 'rasp replay' prints it, reaches 1e308.
    let checker = MinimalityChecker(
      replayArguments: ["--spec", Self.vault, "--key-by", "source", "--select", "vault.total"]
    ) { replay in
      replay.status == 0
        && replay.snapshots.contains { snapshot in
          guard
            let object = try? JSONSerialization.jsonObject(with: Data(snapshot.utf8))
              as? [String: Any],
            let value = object["value"] as? Double
          else { return false }
          return value >= 1e308
        }
    }
    try await checker.expectOneMinimal(shrunk)
  }

  @Test func aShellCommandDecidesWithTheCandidateAsItsFirstArgument() throws {
    let log = PlantedCulpritLog(events: 300, keys: 5, seed: 11)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    // Fails while the candidate holds all three planted lines, which alone have "n".
    let run = CommandRun.run(
      [
        "shrink", directory.file("events.jsonl"), "--cmd",
        #"test "$(grep -c '"n":' "$1")" -eq 3"#, "-o", directory.file("min.jsonl"),
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("min.jsonl") == Array(log.culpritLines.utf8))
  }

  @Test func theLinesAreKeptByteForByteWithTheirLineEnds() throws {
    let directory = try TemporaryDirectory()
    let lines = [
      #"{"type":"geo.heading","payload":{"heading":5}}"# + "\r\n",
      #"{"type":"geo.heading","payload":{"heading":7}}"# + "\r\n",
      "not json\r\n",
      #"{"type":"geo.heading","payload":{"heading":9}}"#,
    ]
    try directory.write("events.jsonl", lines.joined())
    let run = CommandRun.run(
      ["shrink", "events.jsonl", "--fails-with", "2", "-o", "min.jsonl"], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("min.jsonl") == Array("not json\r\n".utf8))
  }

  @Test func payloadsDropTheFieldsTheFailureDoesNotNeed() async throws {
    let log = PlantedCulpritLog(events: 2_000, keys: 20, seed: 12)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--key-by", "source", "--fails-with", "2",
        "--payloads", "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains(" · events 2000→3 · 3 fields dropped · "))
    // Each planted line without its "n"; the amount, the key and the type are needed.
    let source = try #require(log.culpritLines.firstRange(of: #""source":"user-"#))
    let key = log.culpritLines[source.upperBound...].prefix { $0 != "\"" }
    let line = #"{"payload":{"amount":6e+307},"source":"user-\#(key)","type":"vault.deposit"}"#
    #expect(directory.bytes("min.jsonl") == Array(String(repeating: line + "\n", count: 3).utf8))
    let checker = MinimalityChecker(
      replayArguments: ["--spec", Self.vault, "--key-by", "source"]
    ) { $0.status == 2 }
    try await checker.expectOneMinimal(Self.lines(String(repeating: line + "\n", count: 3)))
  }

  @Test func aCandidateThatFailsAtAnotherMistakeDoesNotFailTheSameWay() throws {
    // Without the planted lines, the replay would stop at the last line, not JSON: status 2
    // too, but another mistake.
    let log = PlantedCulpritLog(events: 500, keys: 5, seed: 13)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text + "oops\n")
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--key-by", "source", "--fails-with", "2",
        "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("min.jsonl") == Array(log.culpritLines.utf8))
  }

  @Test func aLogThatDoesNotFailIsRefusedAndNothingIsWritten() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", #"{"type":"geo.heading","payload":{"heading":7}}"# + "\n")
    let run = CommandRun.run(
      ["shrink", "events.jsonl", "--fails-with", "2", "-o", "min.jsonl"], in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "rasp: error: 'events.jsonl' does not fail: its replay ends with status 0, not 2; "
        + "nothing to shrink\n")
    #expect(directory.bytes("min.jsonl") == nil)
  }

  @Test func anOutputThatCannotBeWrittenIsSaidBeforeTheSearch() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", "oops\n")
    let run = CommandRun.run(
      ["shrink", "events.jsonl", "--fails-with", "2", "-o", "missing/min.jsonl"],
      in: directory.path)
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("rasp: error: cannot write 'missing/min.jsonl': "))
    #expect(!run.standardError.contains("shrunk"))
    #expect(directory.names == ["events.jsonl"])
  }

  @Test func theOutputIsNeverTheLog() throws {
    let directory = try TemporaryDirectory()
    let text = "oops\n"
    try directory.write("events.jsonl", text)
    for output in ["events.jsonl", "./events.jsonl"] {
      let run = CommandRun.run(
        ["shrink", "events.jsonl", "--fails-with", "2", "-o", output], in: directory.path)
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "rasp: error: refusing to write '\(output)': it is the event log 'events.jsonl', "
          + "to be kept\n")
      #expect(directory.bytes("events.jsonl") == Array(text.utf8))
    }
  }

  @Test(arguments: [
    (
      ["shrink", "e.jsonl", "-o", "m.jsonl"],
      "missing what 'fails' means: give '--fails-with <status>', '--golden <file>', "
        + "'--cmd <command>' or '--assert <expr>'"
    ),
    (
      ["shrink", "e.jsonl", "-o", "m.jsonl", "--fails-with", "2", "--cmd", "true"],
      "options '--fails-with' and '--cmd' cannot be used together: give one meaning of 'fails'"
    ),
    (
      ["shrink", "e.jsonl", "--fails-with", "2"],
      "missing expected argument '-o <file>': where to write the shrunk log"
    ),
    (
      ["shrink", "e.jsonl", "-o", "m.jsonl", "--fails-with", "two"],
      "invalid value 'two' for '--fails-with <status>': expected an exit status from 0 to 255, "
        + "such as 2"
    ),
    (
      ["shrink", "e.jsonl", "-o", "m.jsonl", "--fails-with", "2", "--budget", "0"],
      "invalid value '0' for '--budget <n>': expected a whole number of replays from 1"
    ),
    (
      ["shrink", "-", "-o", "m.jsonl", "--fails-with", "2"],
      "the event log must be a file, not standard input ('-'): it is read many times"
    ),
  ])
  func usageMistakesAreNamed(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("e.jsonl", "oops\n")
    let run = CommandRun.run(arguments, in: directory.path)
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix("rasp: error: \(message)\n"), "\(run.standardError)")
    #expect(directory.bytes("m.jsonl") == nil)
  }

  @Test func aBudgetStopsTheSearchWithALogThatStillFailsAndSaysItIsNotMinimal() throws {
    let log = PlantedCulpritLog(events: 1_000, keys: 10, seed: 5)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    let run = CommandRun.run(
      [
        "shrink", "events.jsonl", "--spec", Self.vault, "--fails-with", "2", "--budget", "20",
        "-o", "min.jsonl",
      ], in: directory.path)
    #expect(run.status == 0)
    #expect(run.standardError.contains(" · 20 replays"), "\(run.standardError)")
    #expect(
      run.standardError.hasSuffix(
        "rasp: note: the result is not minimal: the budget of 20 replays ran out\n"))
    let shrunk = String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self)
    #expect(shrunk.count < log.text.count)
    #expect(shrunk.contains(log.culpritLines.split(separator: "\n")[0]))
    let replay = CommandRun.run(["replay", "--spec", Self.vault, "min.jsonl"], in: directory.path)
    #expect(replay.status == 2, "the shrunk log still fails")
  }

  @Test func aTimeSpentBeforeTheFirstTryStopsTheSearchAtOnce() throws {
    // A time that rounds to no milliseconds has run out before any candidate is tried: the
    // log is written as it is, and said not to be minimal.
    let directory = try TemporaryDirectory()
    let text = #"{"type":"geo.heading","payload":{"heading":7}}"# + "\n" + "oops\n"
    try directory.write("events.jsonl", text)
    let run = CommandRun.run(
      ["shrink", "events.jsonl", "--fails-with", "2", "--time", "1e-9", "-o", "min.jsonl"],
      in: directory.path)
    #expect(run.status == 0)
    #expect(
      run.standardError
        == "rasp: shrunk 'events.jsonl' into 'min.jsonl': events 2→2 · 1 replay\n"
        + "rasp: note: the result is not minimal: the time of 0.0 s ran out\n")
    #expect(directory.bytes("min.jsonl") == Array(text.utf8))
  }

  @Test func sameInputSameOutput() throws {
    let log = PlantedCulpritLog(events: 500, keys: 7, seed: 9)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    var results: [String] = []
    for jobs in ["1", "3"] {
      let run = CommandRun.run(
        [
          "shrink", "events.jsonl", "--spec", Self.vault, "--key-by", "source", "--final",
          "-j", jobs, "--fails-with", "2", "-o", "min.jsonl",
        ], in: directory.path)
      // The summary says how long it took when that is a second or more: not the same twice.
      let summary = run.standardError.replacingOccurrences(
        of: #" · [0-9][0-9. hmins]*\n"#, with: "\n", options: .regularExpression)
      results.append(
        summary + String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self))
    }
    #expect(results[0] == results[1])
    #expect(results[0].hasPrefix("rasp: shrunk 'events.jsonl' into 'min.jsonl': keys 7→1"))
  }
}

@Suite struct DeltaDebuggingTests {
  @Test func findsTheNeededElementsAndTriesEachRemoval() {
    var kept = Array(0..<100)
    var tried: [[Int]] = []
    DeltaDebugging.minimize(&kept) { (candidate: [Int]) -> Bool in
      tried.append(candidate)
      return candidate.contains(7) && candidate.contains(42) && candidate.contains(99)
    }
    #expect(kept == [7, 42, 99])
    #expect(tried.first == [])
    for index in kept.indices {
      var fewer = kept
      fewer.remove(at: index)
      #expect(tried.contains(fewer), "removing \(kept[index]) was tried")
    }
  }

  @Test func anEmptyListThatFailsIsTheAnswer() {
    var kept = [1, 2, 3]
    DeltaDebugging.minimize(&kept) { (_: [Int]) -> Bool in true }
    #expect(kept.isEmpty)
  }

  @Test func splitMakesNearlyEqualChunksInOrder() {
    #expect(DeltaDebugging.split(Array(0..<7), into: 3) == [[0, 1], [2, 3], [4, 5, 6]])
    #expect(DeltaDebugging.split([1, 2], into: 4) == [[1], [2]])
  }
}
