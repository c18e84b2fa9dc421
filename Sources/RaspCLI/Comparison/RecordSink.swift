import RaspJSON

/// Writes each record of a replay as one line of a golden file, through an atomic writer:
/// `rasp check --update` and `--record missing`.
///
/// The lines are the replay's canonical compact JSON, so a later check compares them byte for
/// byte. Nothing replaces the golden file until the caller commits the writer.
///
/// ```swift
/// var sink = RecordSink(file: try environment.makeAtomicWriter("expected.jsonl"))
/// let outcome = engine.run(into: &sink)
/// if outcome.failure == nil, sink.error == nil { try sink.file.commit() } else { sink.file.discard() }
/// ```
struct RecordSink: ReplaySink {
  /// The file being written.
  let file: RaspAtomicFileWriter
  /// How many records were written.
  private(set) var count = 0
  /// The failure to write that stopped the replay, if one did.
  private(set) var error: RaspCommandError?
  /// How many bytes to gather before writing them.
  let threshold = 1 << 16

  init(file: RaspAtomicFileWriter) {
    self.file = file
  }

  mutating func endRecord(
    _ writer: inout JSONWriter, start: Int, meta: ReplayRecordMeta
  ) throws(ReplayStop) {
    writer.bytes.append(0x0A)
    count += 1
    if writer.bytes.count >= threshold { try flush(&writer) }
  }

  mutating func flush(_ writer: inout JSONWriter) throws(ReplayStop) {
    guard !writer.bytes.isEmpty else { return }
    defer { writer.removeAll() }
    do {
      try file.write(writer.bytes)
    } catch {
      self.error = error
      throw .sinkFinished
    }
  }

  mutating func finish(_ writer: inout JSONWriter) throws(ReplayStop) {
    try flush(&writer)
  }
}
