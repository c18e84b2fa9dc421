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
}

/// Appends a record's text to `output`, as a replay does, and returns the record.
private func append(_ text: String, to output: inout [UInt8]) -> ReplayRecord {
  let start = output.count
  output.append(contentsOf: text.utf8)
  return ReplayRecord(range: start..<output.count, seq: 1, input: 0, line: 1)
}
