import RaspReplay

/// Writes each record of a replay as one line of a golden file, through an atomic writer:
/// `rasp check --update` and `--record missing`.
///
/// The lines are the replay's canonical compact JSON, so a later check compares them byte for
/// byte. Nothing replaces the golden file until the caller commits the writer.
///
/// ```swift
/// var sink = GoldenFileSink(file: try environment.makeAtomicWriter("expected.jsonl"))
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// if result.failure == nil, sink.error == nil {
///   try sink.file.commit()
/// } else {
///   sink.file.discard()
/// }
/// ```
struct GoldenFileSink: ReplaySink {
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

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    output.append(0x0A)
    count += 1
    if output.count >= threshold { try flush(&output) }
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {
    guard !output.isEmpty else { return }
    defer { output.removeAll(keepingCapacity: true) }
    do {
      try file.write(output)
    } catch {
      self.error = error
      throw .sinkFinished
    }
  }

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    try flush(&output)
  }
}
