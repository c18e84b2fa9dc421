import RaspReplay

/// Writes each record of a replay as one line of a golden file, through an atomic writer:
/// `rasp check --update` and `--record missing`.
///
/// The lines are the replay's canonical compact JSON, so a later check compares them byte for
/// byte. Nothing replaces the golden file until the caller commits the writer. Given the golden
/// file that exists, the sink reads it alongside the replay and finds what the new one changes
/// (``GoldenFileChanges``), with flat memory; an old file that cannot be read to its end (a
/// line too long) leaves ``changes`` `nil`, and the new file is written all the same.
///
/// ```swift
/// var sink = GoldenFileSink(
///   file: try environment.makeAtomicWriter("expected.jsonl"),
///   previous: try? SnapshotLines(file: "expected.jsonl", environment: environment))
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// if result.failure == nil, sink.error == nil, sink.changes?.hasChanges != false {
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
  /// What the new file changes in the old one: `nil` without an old file, or when it could not
  /// be read.
  private(set) var changes: GoldenFileChanges?
  /// How many bytes to gather before writing them.
  let threshold = 1 << 16
  /// The old golden file, read alongside the replay; `nil` once it has ended.
  private var previous: SnapshotLines?

  /// Creates a sink that writes into `file`, comparing with the `previous` golden file if
  /// there is one.
  init(file: RaspAtomicFileWriter, previous: SnapshotLines? = nil) {
    self.file = file
    self.previous = previous
    self.changes = previous == nil ? nil : GoldenFileChanges()
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    count += 1
    if changes != nil {
      let line = count
      output[record.range].withUnsafeBufferPointer { compareWithPrevious($0, line: line) }
    }
    output.append(0x0A)
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

  /// Writes what is left, and counts the old file's snapshots beyond the new one's end.
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    try flush(&output)
    do throws(RaspCommandError) {
      while let line = try previous?.next() {
        changes?.noteRemoved(line: line.number)
      }
      previous = nil
    } catch {
      abandonComparison()
    }
  }

  /// Compares a new snapshot, on `line` of the new file, with the old file's next one.
  private mutating func compareWithPrevious(_ record: UnsafeBufferPointer<UInt8>, line: Int) {
    do throws(RaspCommandError) {
      guard let old = try previous?.next() else {
        previous = nil
        changes?.noteAdded(line: line)
        return
      }
      changes?.compare(new: record, old: old.bytes, line: line)
    } catch {
      abandonComparison()
    }
  }

  /// Stops comparing with an old file that cannot be read: the summary is then a count.
  private mutating func abandonComparison() {
    previous = nil
    changes = nil
  }
}
