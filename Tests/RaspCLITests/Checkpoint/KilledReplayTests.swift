import Foundation
import RaspJSON
import RaspTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A replay with `--checkpoint-every`, killed with SIGKILL at random points and resumed from
/// its last checkpoint: nothing lost, nothing doubled. The oracle is the full replay: the
/// killed run printed its first lines (every line up to the checkpoint was delivered before
/// the checkpoint was saved), and the resumed run prints exactly its lines after the
/// checkpoint's `records`. Randomness only decides after how many printed lines to kill;
/// nothing is timed.
@Suite(.serialized) struct KilledReplayTests {
  /// A log of `count` events of two domains, different enough that a line lost or doubled
  /// shows.
  static func log(count: Int) -> String {
    var text = ""
    text.reserveCapacity(count * 60)
    for index in 0..<count {
      switch index % 5 {
      case 0: text += #"{"type":"nav.push","payload":{"screen":"s\#(index % 7)"}}"# + "\n"
      case 3: text += #"{"type":"nav.pop"}"# + "\n"
      default: text += #"{"type":"geo.heading","payload":{"heading":\#(index % 360)}}"# + "\n"
      }
    }
    return text
  }

  func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }

  @Test func aReplayKilledAtRandomPointsResumesFromItsLastCheckpointExactly() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log(count: 100_000))
    let options = ["--domain", "geo,nav"]
    let full = lines(
      CommandRun.run(["replay"] + options + ["events.jsonl"], in: directory.path).standardOutput)
    #expect(full.count == 100_000)
    // Waits for the child's output and its exit on a thread of its own, not the pool's.
    try await onThreadOfItsOwn { checks in
      for seed in 1...6 {
        var random = SplitMix64(seed: UInt64(seed))
        try? FileManager.default.removeItem(atPath: directory.file("state.json"))
        let command = try SpawnedCommand(
          ["replay"] + options + [
            "--save-state", directory.file("state.json"), "--checkpoint-every", "1009",
            directory.file("events.jsonl"),
          ], outputDirectory: directory.path, pipingOutput: true)
        command.closeInput()
        // Killed once it has printed a random number of lines past its first checkpoint
        // (saved before line 1010 is printed), whether the machine is fast or slow.
        let killAfter = Int.random(in: 1_010...99_000, using: &random)
        command.readOutput(lines: killAfter)
        command.signal(SIGKILL)
        command.readOutput()
        _ = command.wait()
        let saved = try directory.bytes("state.json").map { try JSONParser.parse($0) }
        // The lines printed up to the checkpoint: what a consumer keeps of the killed run.
        guard
          let printed = saved?["lines"].flatMap({ value -> Int? in
            if case .number(let number) = value { return number.integerValue.map(Int.init) }
            return nil
          })
        else {
          checks.expect(false, "seed \(seed): no checkpoint after \(killAfter) lines")
          continue
        }
        // The killed run's whole lines are the full replay's first ones, and reach the
        // checkpoint. (Compared as Booleans first: a failure describes no 100,000 lines.)
        let killed = lines(String(decoding: command.output, as: UTF8.self))
        checks.expect(killed.count >= killAfter, "seed \(seed): \(killed.count) lines")
        checks.expect(killed.count >= printed, "seed \(seed)")
        let isPrefix = killed.elementsEqual(full.prefix(killed.count))
        checks.expect(isPrefix, "seed \(seed): the killed run's lines are not the full replay's")
        let resumed = CommandRun.run(
          ["replay"] + options + ["--resume", "state.json", directory.file("events.jsonl")],
          in: directory.path)
        checks.expect(resumed.status, equals: 0)
        let isRest = Array(full.prefix(printed)) + lines(resumed.standardOutput) == full
        checks.expect(
          isRest, "seed \(seed): resumed after \(printed) lines, not the full replay's rest")
      }
    }
  }
}
