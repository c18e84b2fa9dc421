import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct RecordSinkTests {
  @Test func writesOneLinePerRecordOnlyOnCommit() throws {
    let directory = try TemporaryDirectory()
    var sink = RecordSink(
      file: try RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")))
    var writer = JSONWriter()
    for record in [#"{"a":1}"#, "[2]"] {
      let start = writer.bytes.count
      writer.writeRaw(Array(record.utf8))
      try sink.endRecord(
        &writer, start: start, meta: ReplayRecordMeta(seq: 1, fileIndex: 0, line: 1))
    }
    try sink.finish(&writer)
    #expect(sink.count == 2)
    #expect(directory.bytes("g.jsonl") == nil, "nothing is in place before the commit")
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl") == Array("{\"a\":1}\n[2]\n".utf8))
  }

  @Test func writesLargeReplaysInChunks() throws {
    let directory = try TemporaryDirectory()
    var sink = RecordSink(
      file: try RaspAtomicFileWriter(path: "g.jsonl", resolvedPath: directory.file("g.jsonl")))
    var writer = JSONWriter()
    let record = "[" + String(repeating: "1,", count: 999) + "1]"
    for _ in 0..<100 {
      let start = writer.bytes.count
      writer.writeRaw(Array(record.utf8))
      try sink.endRecord(
        &writer, start: start, meta: ReplayRecordMeta(seq: 1, fileIndex: 0, line: 1))
      #expect(writer.bytes.count < sink.threshold + record.utf8.count + 1)
    }
    try sink.finish(&writer)
    try sink.file.commit()
    #expect(directory.bytes("g.jsonl")?.count == 100 * (record.utf8.count + 1))
  }

  @Test func aFailedWriteStopsTheReplayAndKeepsTheOldFile() throws {
    let directory = try TemporaryDirectory()
    try directory.write("g.jsonl", "old\n")
    var sink = RecordSink(
      file: try RaspAtomicFileWriter(
        path: "g.jsonl", resolvedPath: directory.file("g.jsonl"), fault: .write))
    var writer = JSONWriter()
    writer.writeRaw("[1]")
    try sink.endRecord(&writer, start: 0, meta: ReplayRecordMeta(seq: 1, fileIndex: 0, line: 1))
    #expect(throws: ReplayStop.self) { try sink.finish(&writer) }
    #expect(
      sink.error?.description == "rasp: error: cannot write 'g.jsonl': No space left on device\n")
    #expect(directory.bytes("g.jsonl") == Array("old\n".utf8))
    #expect(directory.names == ["g.jsonl"])
  }
}
