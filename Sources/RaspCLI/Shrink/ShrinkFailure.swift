import RaspJSON
import RaspReplay

/// What "still fails" means to `rasp shrink`, and how a candidate log is tried against it.
///
/// Each candidate is replayed in this process, from memory, into an environment whose
/// standard output and standard error are thrown away, so that the tries say nothing; only
/// ``command(_:)`` runs a process per try.
///
/// ```swift
/// let failure = ShrinkFailure.exitStatus(2)
/// failure.holds(for: candidate, options: options, environment: quiet)   // true: still fails
/// ```
enum ShrinkFailure {
  /// The replay ends with this exit status, as `rasp replay` would (`--fails-with`), and with
  /// the same first bad line's reason as the whole log's, if it had one: a candidate that
  /// fails at another mistake fails another way.
  case exitStatus(StatusCheck)
  /// The replay's snapshots still differ from the golden file's (`--golden`): a snapshot
  /// differs from its golden line, its first difference at the same paths as the whole log's.
  case golden(GoldenCheck)
  /// A shell command, run with the candidate's file as `$1`, exits with 0 (`--cmd`).
  case command(ShrinkShellCommand)
  /// An assertion is violated (`--assert`, `--assert-file`, `--assert-final`), the same one
  /// first as in the whole log.
  case assertions(AssertionCheck)

  /// Assertions, and the one the whole log violates first.
  struct AssertionCheck {
    /// The assertions, as `rasp check` reads them.
    let options: AssertionOptions
    /// The first violated assertion's text (with ` (final)` for one of `--assert-final`);
    /// `nil` until known.
    var first: String?

    /// The first violated assertion of the candidate `bytes`, or `nil` when none is, the
    /// log could not be read, or an assertion could not be evaluated.
    func firstViolation(
      of bytes: [UInt8], _ replayOptions: ReplayOptions, _ environment: RaspEnvironment
    ) -> String? {
      var candidate = replayOptions
      candidate.configuration.isFinal = true
      let observer = CheckCommand.observe(options, in: &candidate)
      var sink = DiscardingSink()
      let result = ReplayRun.run(
        candidate, inputs: [ShrinkFailure.input(bytes, options: candidate)],
        environment: environment, into: &sink)
      // A violation before a bad line is one all the same.
      guard result.failure == nil else { return nil }
      observer.finish(isKeyed: candidate.configuration.keyPath != nil)
      guard observer.error == nil, let violation = observer.violations.first else { return nil }
      return violation.assertion + (violation.isFinal ? " (final)" : "")
    }
  }

  /// An exit status, and the reason of the first bad line the failure must keep.
  struct StatusCheck {
    /// The status of `--fails-with`.
    let status: Int32
    /// What was wrong with the whole log's first bad line, without its place; `nil` until
    /// known, and when it had none.
    var reason: String?
  }

  /// A comparison with a golden file, and the differing paths the failure must keep.
  struct GoldenCheck {
    /// The golden file's name, for messages.
    let name: String
    /// The golden file's bytes, read once.
    let bytes: [UInt8]
    /// What to ignore, and how close numbers must be.
    let options: JSONDiffOptions
    /// The paths of the original log's first difference; `nil` until it is known.
    var paths: Set<String>?
  }

  /// Whether the candidate `bytes` still fails.
  ///
  /// - Parameters:
  ///   - bytes: The candidate log.
  ///   - options: How to replay it.
  ///   - environment: The quiet environment of the tries.
  /// - Returns: `true` when the candidate fails as the original did.
  func holds(
    for bytes: [UInt8], options: ReplayOptions, environment: RaspEnvironment
  ) -> Bool {
    switch self {
    case .exitStatus(let check):
      let (status, reason) = Self.exitStatus(of: bytes, options: options, environment: environment)
      return status == check.status && reason == check.reason
    case .golden(let check):
      guard let paths = check.firstDifferencePaths(of: bytes, options, environment) else {
        return false
      }
      return check.paths.map { $0 == paths } ?? true
    case .command(let command):
      return command.succeeds(with: bytes)
    case .assertions(let check):
      guard let first = check.firstViolation(of: bytes, options, environment) else {
        return false
      }
      return check.first.map { $0 == first } ?? true
    }
  }

  /// The input of a candidate: its bytes in memory, under the log's name.
  static func input(_ bytes: [UInt8], options: ReplayOptions) -> ReplayInput {
    ReplayInput(
      name: options.displayNames.first ?? "<stdin>",
      source: .memory(JSONMemorySource(bytes)), isLive: false)
  }

  /// The exit status of `rasp replay` over the candidate `bytes`, and the reason of its first
  /// bad line, if it had one.
  static func exitStatus(
    of bytes: [UInt8], options: ReplayOptions, environment: RaspEnvironment
  ) -> (status: Int32, reason: String?) {
    var sink = DiscardingSink()
    let result = ReplayRun.run(
      options, inputs: [input(bytes, options: options)], environment: environment, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: environment).rawValue
    return (status, sink.firstReason)
  }
}

extension ShrinkFailure.GoldenCheck {
  /// The paths at which the candidate's first differing snapshot differs from its golden
  /// line, or `nil` when no snapshot differs (snapshots missing at the end, or extra, do not
  /// count) or the replay stopped at a bad line.
  func firstDifferencePaths(
    of bytes: [UInt8], _ replayOptions: ReplayOptions, _ environment: RaspEnvironment
  ) -> Set<String>? {
    let golden = SnapshotLines(name: name, source: .memory(JSONMemorySource(self.bytes)))
    var sink = CheckSink(
      golden: golden, options: options, keepingAtMost: 1,
      fileNames: replayOptions.displayNames)
    let result = ReplayRun.run(
      replayOptions, inputs: [ShrinkFailure.input(bytes, options: replayOptions)],
      environment: environment, into: &sink)
    guard sink.error == nil, result.failure == nil, result.ending != .stoppedAtBadLine,
      let first = sink.comparison.firstDifference
    else { return nil }
    let differences = JSONDiff.differences(from: first.expected, to: first.actual, options: options)
    return Set(differences.map { "\($0.path)" })
  }
}

/// A sink that throws every record away: a try of `rasp shrink` needs only how it ended, and
/// what its first bad line was.
struct DiscardingSink: ReplaySink {
  /// The reason of the first bad line.
  private(set) var firstReason: String?

  mutating func skip(_ diagnostic: ReplayDiagnostic) {
    if firstReason == nil { firstReason = diagnostic.reason }
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    output.removeSubrange(record.range.lowerBound...)
  }
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
}

/// An output stream that throws everything away: the standard streams of `rasp shrink`'s tries.
final class DiscardingOutput: RaspOutputStream {
  func write(_ bytes: RawSpan) throws(RaspOutputError) {}
  var isTerminal: Bool { false }
  var terminalColumns: Int? { nil }
}
