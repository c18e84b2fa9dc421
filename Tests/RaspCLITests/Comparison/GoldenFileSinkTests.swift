import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI

@Suite struct GoldenFileSinkTests {
  @Test func writesOneLinePerRecordOnlyOnCommit() throws {
    let directory = try TemporaryDirectory()
    var sink = GoldenFileSink(
      file: try RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")))
    var output: [UInt8] = []
    for record in [#"{"a":1}"#, "[2]"] {
      try sink.take(append(record, to: &output), in: &output)
    }
    try sink.finish(&output)
    #expect(sink.count == 2)
    #expect(directory.bytes("g.jsonl") == nil, "nothing is in place before the commit")
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl") == Array("{\"a\":1}\n[2]\n".utf8))
  }

  @Test func writesLargeReplaysInChunks() throws {
    let directory = try TemporaryDirectory()
    var sink = GoldenFileSink(
      file: try RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")))
    var output: [UInt8] = []
    let record = "[" + String(repeating: "1,", count: 999) + "1]"
    for _ in 0..<100 {
      try sink.take(append(record, to: &output), in: &output)
      #expect(output.count < sink.threshold + record.utf8.count + 1)
    }
    try sink.finish(&output)
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl")?.count == 100 * (record.utf8.count + 1))
  }

  @Test func aFailedWriteStopsTheReplayAndKeepsTheOldFile() throws {
    let directory = try TemporaryDirectory()
    try directory.write("g.jsonl", "old\n")
    var sink = GoldenFileSink(
      file: try RaspAtomicFileWriter(
        path: "g.jsonl", resolvedPath: directory.file("g.jsonl"), fault: .write))
    var output: [UInt8] = []
    try sink.take(append("[1]", to: &output), in: &output)
    #expect(throws: ReplayStop.self) { try sink.finish(&output) }
    #expect(
      sink.error?.description == "rasp: error: cannot write 'g.jsonl': No space left on device\n")
    #expect(directory.bytes("g.jsonl") == Array("old\n".utf8))
    #expect(directory.names == ["g.jsonl"])
  }

  /// A sink writing `g.jsonl` in `directory`, reading `previous` as the old golden file.
  func sink(in directory: TemporaryDirectory, previous: String?) throws -> GoldenFileSink {
    try GoldenFileSink(
      file: RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")),
      previous: previous.map {
        SnapshotLines(name: "g.jsonl", source: .memory(JSONMemorySource(Array($0.utf8))))
      })
  }

  @Test func withoutAnOldFileThereAreNoChanges() throws {
    let directory = try TemporaryDirectory()
    var sink = try sink(in: directory, previous: nil)
    var output: [UInt8] = []
    try sink.take(append("[1]", to: &output), in: &output)
    try sink.finish(&output)
    #expect(sink.changes == nil)
  }

  @Test func findsWhatChangesInTheOldFileWhileWriting() throws {
    let directory = try TemporaryDirectory()
    var sink = try sink(in: directory, previous: "[1]\n\n{ \"a\": 2 }\n[3]\n[4]\n")
    var output: [UInt8] = []
    for record in ["[1]", #"{"a":2}"#, "[30]"] {
      try sink.take(append(record, to: &output), in: &output)
    }
    try sink.finish(&output)
    let changes = try #require(sink.changes)
    #expect(changes.unchanged == 2)
    #expect(changes.changed.runs == [3...3], "lines of the new file")
    #expect(changes.removed.runs == [5...5], "lines of the old file, blank ones counted")
    #expect(changes.added.count == 0)
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl") == Array("[1]\n{\"a\":2}\n[30]\n".utf8))
  }

  @Test func countsWhatIsAddedAfterTheOldFileEnds() throws {
    let directory = try TemporaryDirectory()
    var sink = try sink(in: directory, previous: "[1]\n")
    var output: [UInt8] = []
    for record in ["[1]", "[2]", "[3]"] {
      try sink.take(append(record, to: &output), in: &output)
    }
    try sink.finish(&output)
    #expect(sink.changes?.added.runs == [2...3])
    #expect(sink.changes?.unchanged == 1)
  }

  @Test func anOldFileThatCannotBeReadLeavesOnlyTheCount() throws {
    let directory = try TemporaryDirectory()
    var sink = GoldenFileSink(
      file: try RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")),
      previous: SnapshotLines(name: "g.jsonl", source: .descriptor(-1)))
    var output: [UInt8] = []
    try sink.take(append("[1]", to: &output), in: &output)
    try sink.finish(&output)
    #expect(sink.changes == nil)
    #expect(sink.count == 1)
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl") == Array("[1]\n".utf8), "the file is written all the same")
  }
}

/// Appends a record's text to `output`, as a replay does, and returns the record.
private func append(_ text: String, to output: inout [UInt8]) -> ReplayRecord {
  let start = output.count
  output.append(contentsOf: text.utf8)
  return ReplayRecord(range: start..<output.count, seq: 1, input: 0, line: 1)
}
