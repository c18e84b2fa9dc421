import Foundation
import RaspCLI
import Testing

/// A replay that stops early must not leave its logs open: an embedding program (or a test
/// run) would run out of descriptors.
@Suite struct RaspInputSourceTests {
  /// Whether this process holds a descriptor open on `path`.
  func isOpen(_ path: String) -> Bool {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.contains { name in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == path
    }
  }

  /// Waits up to ten seconds for `path` to be closed, as a reading thread lets go of it.
  func eventuallyClosed(_ path: String) -> Bool {
    for _ in 0..<1000 {
      if !isOpen(path) { return true }
      usleep(10_000)
    }
    return !isOpen(path)
  }

  @Test func logsAreClosedWhenTheReplayStopsEarly() throws {
    let directory = try TemporaryDirectory()
    let good = #"{"type":"geo.heading","ts":1,"payload":{"heading":1}}"# + "\n"
    try directory.write("bad.jsonl", "{\n" + String(repeating: good, count: 10))
    try directory.write("good.jsonl", String(repeating: good, count: 10))
    let bad = directory.file("bad.jsonl")
    let other = directory.file("good.jsonl")
    let runs: [[String]] = [
      ["replay", bad],  // one log, read ahead on a second thread
      ["replay", bad, other],  // a merge
      ["replay", other, bad],
      ["replay", other, directory.file("missing.jsonl")],  // the second cannot be opened
      ["check", "--golden", other, bad],
      ["diff", bad, other],
    ]
    for arguments in runs {
      let run = CommandRun.run(arguments)
      #expect(run.status == 2, "\(arguments): \(run.standardError)")
      #expect(eventuallyClosed(bad), "\(arguments) left \(bad) open")
      #expect(eventuallyClosed(other), "\(arguments) left \(other) open")
    }
  }

  @Test func aLogIsClosedWhenTheOutputGoesAway() throws {
    let directory = try TemporaryDirectory()
    let line = #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n"
    try directory.write("events.jsonl", String(repeating: line, count: 50_000))
    let path = directory.file("events.jsonl")
    for arguments in [["replay", path], ["replay", path, path]] {
      let run = CommandRun.run(arguments, brokenPipeAfter: 1)
      #expect(run.status == 0)
      #expect(eventuallyClosed(path), "\(arguments) left \(path) open")
    }
  }
}
