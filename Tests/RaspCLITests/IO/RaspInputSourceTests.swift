import Foundation
import RaspCLI
import RaspJSON
import RaspReplay
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

  @Test func aFileIsReadIntoSpansAChunkAtATimeUntilItsEnd() throws {
    // Through the public form: each read stores into the start of the span it is given, a
    // span of the middle of a buffer here, and leaves the rest of the buffer alone.
    let directory = try TemporaryDirectory()
    try directory.write("log.jsonl", "{}\n[1]\n")
    let descriptor = open(directory.file("log.jsonl"), O_RDONLY)
    try #require(descriptor >= 0)
    var source = RaspInputSource.file(RaspOpenFile(descriptor: descriptor))
    #expect(source.byteCount == 7)
    var read: [UInt8] = []
    var buffer = [UInt8](repeating: 0x2E, count: 7)
    while true {
      let count: Int
      do {
        var elements = buffer.mutableSpan
        var space = elements.mutableBytes
        var middle = space._mutatingExtracting(2..<5)
        count = try source.read(into: &middle)
      }
      if count == 0 { break }
      #expect(buffer[..<2] == [0x2E, 0x2E] && buffer[5...] == [0x2E, 0x2E])
      read += buffer[2..<(2 + count)]
    }
    #expect(String(decoding: read, as: UTF8.self) == "{}\n[1]\n")
    var memory = RaspInputSource.memory(JSONMemorySource(Array("ab".utf8)))
    var chunk = [UInt8](repeating: 0, count: 4)
    var elements = chunk.mutableSpan
    var space = elements.mutableBytes
    #expect(try memory.read(into: &space) == 2)
    #expect(try memory.read(into: &space) == 0)
  }

  @Test func logsAreClosedWhenTheReplayStopsEarly() async throws {
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
      #expect(!isOpen(bad), "\(arguments) left \(bad) open")
      #expect(!isOpen(other), "\(arguments) left \(other) open")
    }
  }

  @Test func aLogIsClosedWhenTheOutputGoesAway() async throws {
    let directory = try TemporaryDirectory()
    let line = #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n"
    try directory.write("events.jsonl", String(repeating: line, count: 50_000))
    let path = directory.file("events.jsonl")
    for arguments in [["replay", path], ["replay", path, path]] {
      let run = CommandRun.run(arguments, brokenPipeAfter: 1)
      #expect(run.status == 0)
      #expect(!isOpen(path), "\(arguments) left \(path) open")
    }
  }
}
