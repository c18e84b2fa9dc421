import RaspJSON
import RaspReplay

/// Where the records of a replay go: standard output for `replay`, a comparison with a golden
/// file for `check`, a new golden file for `check --update`.
///
/// ``ReplayRun`` hands each record to the sink as the replay yields it, in the buffer the
/// replay appended it to; the sink takes the bytes of `record.range`, and may leave them there
/// to write out later, in large writes.
///
/// ```swift
/// var sink = StandardOutputSink(stream: environment.standardOutput, isPretty: false)
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// ```
protocol ReplaySink {
  /// Takes the record at `record.range` of `output`, which the replay just appended.
  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop)
  /// Delivers what it holds: before a message goes to standard error, and whenever a live input
  /// has nothing more ready, so that what was replayed is seen at once.
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop)
  /// Takes whatever is left when the replay ends.
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop)
  /// Notes a bad line, which the run reports on standard error too (a report lists them).
  mutating func skip(_ diagnostic: ReplayDiagnostic)
  /// Notes a line not applied that is not bad either, when the replay's configuration asks for
  /// them (``RaspReplay/ReplayConfiguration/reportsIgnoredLines``).
  mutating func ignore(_ diagnostic: ReplayDiagnostic)
  /// How many lines it has delivered, when it counts them: a checkpoint saves it.
  var linesWritten: Int? { get }
  /// Takes a checkpoint the replay yielded, after what came before it was flushed: a sink of
  /// `rasp shrink`'s tries keeps the states to resume later tries from.
  mutating func keep(_ checkpoint: ReplayCheckpoint)
}

extension ReplaySink {
  /// Most sinks leave bad lines to the run's messages.
  mutating func skip(_ diagnostic: ReplayDiagnostic) {}
  /// Most sinks leave ignored lines to the summary's count.
  mutating func ignore(_ diagnostic: ReplayDiagnostic) {}
  /// Most sinks do not count what they deliver.
  var linesWritten: Int? { nil }
  /// Most sinks leave checkpoints to `--save-state`.
  mutating func keep(_ checkpoint: ReplayCheckpoint) {}
}

/// Why a run stopped taking records before the replay's end.
enum ReplayStop: Error {
  /// The reader of the output went away: stop quietly.
  case brokenPipe
  /// The output could not be written.
  case outputFailed(String)
  /// The sink has seen enough (a comparison that met a bad golden line).
  case sinkFinished

  /// The stop of a sink that could not read back a record the replay wrote: never so for
  /// rasp's own records, and said rather than left out of the output if it were.
  ///
  /// ```swift
  /// guard case .success(let value) = parsed else { throw .unreadable(record, parsed) }
  /// // rasp: error: cannot write the output: snapshot 3 could not be read back (…)
  /// ```
  static func unreadable<Value>(_ record: ReplayRecord, _ parsed: Result<Value, JSONError>)
    -> ReplayStop
  {
    var reason = "it has no event or no state"
    if case .failure(let error) = parsed { reason = "\(error)" }
    return .outputFailed("snapshot \(record.seq) could not be read back (\(reason))")
  }
}
