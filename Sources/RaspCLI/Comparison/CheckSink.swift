import RaspJSON
import RaspReplay

/// Compares each record of a replay with the next snapshot of a golden file, as the replay
/// goes: `rasp check`.
///
/// Neither side is held in memory: the golden file is read one line at a time alongside the
/// replay, and only the first differing pairs (up to `--max-diffs`) are kept, for the report. A
/// golden line that is not JSON stops the replay with an input error at its line and column.
///
/// ```swift
/// var sink = CheckSink(
///   golden: try SnapshotLines(file: "expected.jsonl", environment: environment),
///   options: JSONDiffOptions(), keepingAtMost: 10, fileNames: options.displayNames)
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// if let error = sink.error { … } else { print(sink.report.text) }
/// ```
struct CheckSink: ReplaySink {
  /// The golden file.
  private(set) var golden: SnapshotLines
  /// The comparison so far.
  private(set) var comparison: SnapshotComparison
  /// The names of the event files, by position, for places.
  let fileNames: [String]
  /// The mistake in the golden file that stopped the check, if one did.
  private(set) var error: RaspCommandError?

  /// Creates a sink that compares with `golden`.
  ///
  /// - Parameters:
  ///   - golden: The golden file.
  ///   - options: What to ignore, and how close numbers must be.
  ///   - limit: How many differing pairs to keep for the report; `nil` keeps them all.
  ///   - ignoredTexts: The `--ignore` paths as written, for the warning about one that
  ///     matched nothing.
  ///   - fileNames: The names of the event files, by position.
  init(
    golden: SnapshotLines, options: JSONDiffOptions, keepingAtMost limit: Int? = nil,
    ignoredTexts: [String] = [], fileNames: [String]
  ) {
    self.golden = golden
    self.comparison = SnapshotComparison(
      options: options, keepingAtMost: limit, ignoredTexts: ignoredTexts)
    self.fileNames = fileNames
  }

  /// The report of the comparison.
  var report: ComparisonReport {
    ComparisonReport(comparison: comparison, expectedName: golden.name, actualName: nil)
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    defer { output.removeSubrange(record.range.lowerBound...) }
    let actualPlace = SnapshotComparison.Place(
      snapshot: record.seq, file: record.input.map { fileNames[$0] }, line: record.line)
    do throws(RaspCommandError) {
      guard let line = try golden.next() else {
        comparison.noteExtra(at: actualPlace)
        return
      }
      let expectedPlace = SnapshotComparison.Place(
        snapshot: golden.count, file: golden.name, line: line.number)
      let result: Result<Void, SnapshotComparison.InputError> = output[record.range]
        .withUnsafeBufferPointer { actual in
          Result { () throws(SnapshotComparison.InputError) in
            try comparison.compare(
              expected: line.bytes, at: expectedPlace, actual: actual, at: actualPlace)
          }
        }
      if case .failure(let failure) = result {
        switch failure.side {
        case .expected: throw golden.inputError(failure.error, in: line)
        case .actual:
          throw RaspCommandError.failure("the replay wrote invalid JSON: \(failure.error)")
        }
      }
    } catch {
      self.error = error
      throw .sinkFinished
    }
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {}

  /// Counts the golden snapshots the replay did not reach, checking that they are JSON.
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    do throws(RaspCommandError) {
      while let line = try golden.next() {
        try golden.validate(line)
        comparison.noteMissing(
          at: SnapshotComparison.Place(snapshot: golden.count, file: golden.name, line: line.number)
        )
      }
    } catch {
      self.error = error
      throw .sinkFinished
    }
  }
}
