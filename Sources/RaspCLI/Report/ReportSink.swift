import RaspJSON
import RaspReplay

/// Takes a replay's records into a ``ReportBuilder``, and its bad lines into a list: the
/// consumer of the replay's outcomes behind `rasp report`.
///
/// The replay runs with `--with-event --emit diff`, so that each record is the event, where it
/// was read and the patch it made; nothing is written until the report is whole.
///
/// ```swift
/// var sink = ReportSink(builder: ReportBuilder(initial: initial, isKeyed: false))
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// ```
struct ReportSink: ReplaySink {
  var builder: ReportBuilder
  /// The bad lines, in the order they were met, up to ``skippedLimit``.
  private(set) var skipped: [ReplayDiagnostic] = []
  /// The most bad lines listed; the summary counts them all.
  let skippedLimit = 1000

  init(builder: ReportBuilder) {
    self.builder = builder
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    let parsed = output.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) in
        try ReportRecord(UnsafeBufferPointer(rebasing: buffer[record.range]))
      }
    }
    output.removeSubrange(record.range.lowerBound...)
    // Never so for a record of rasp's own; said rather than left out of the report if it were.
    guard case .success(let value) = parsed else {
      throw .unreadable(record, parsed)
    }
    builder.add(value)
  }

  mutating func skip(_ diagnostic: ReplayDiagnostic) {
    if skipped.count < skippedLimit { skipped.append(diagnostic) }
  }

  /// The lines ignored (unknown types, domains left out, dropped), up to ``skippedLimit``.
  private(set) var ignored: [ReplayDiagnostic] = []

  mutating func ignore(_ diagnostic: ReplayDiagnostic) {
    if ignored.count < skippedLimit { ignored.append(diagnostic) }
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {}

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {}
}
