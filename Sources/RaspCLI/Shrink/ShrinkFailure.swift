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

    /// The first violated assertion of the candidate, or `nil` when none is, the log could
    /// not be read, or an assertion could not be evaluated; and the states saved before any.
    func firstViolation(
      of replay: ShrinkReplay, _ replayOptions: ReplayOptions, _ environment: RaspEnvironment
    ) -> (violation: String?, states: [ReplayCheckpoint]) {
      var candidate = replay.options(replayOptions)
      candidate.configuration.isFinal = true
      let observer = CheckCommand.observe(options, in: &candidate)
      var sink = StateKeepingSink(DiscardingSink()) { _ in
        observer.violations.isEmpty && observer.error == nil
      }
      let result = ReplayRun.run(
        candidate, inputs: [replay.input(options: candidate)], resumingFrom: replay.state,
        environment: environment, into: &sink)
      // A violation before a bad line is one all the same.
      guard result.failure == nil else { return (nil, sink.states) }
      observer.finish(isKeyed: candidate.configuration.keyPath != nil)
      guard observer.error == nil, let violation = observer.violations.first else {
        return (nil, sink.states)
      }
      return (violation.assertion + (violation.isFinal ? " (final)" : ""), sink.states)
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

  /// Whether the candidate still fails, and the states its replay saved on the way
  /// (``ShrinkStates``): none for a shell command, which the candidate's file is given to.
  ///
  /// - Parameters:
  ///   - replay: The candidate log, and the state to replay it from.
  ///   - options: How to replay it.
  ///   - environment: The quiet environment of the tries.
  /// - Returns: Whether the candidate fails as the original did, and the states.
  func attempt(
    _ replay: ShrinkReplay, options: ReplayOptions, environment: RaspEnvironment
  ) -> (fails: Bool, states: [ReplayCheckpoint]) {
    switch self {
    case .exitStatus(let check):
      let (status, reason, states) = Self.exitStatus(
        of: replay, options: options, environment: environment)
      return (status == check.status && reason == check.reason, states)
    case .golden(let check):
      let (paths, states) = check.firstDifferencePaths(of: replay, options, environment)
      guard let paths else { return (false, states) }
      return (check.paths.map { $0 == paths } ?? true, states)
    case .command(let command):
      return (command.succeeds(with: replay.commandBytes ?? replay.bytes), [])
    case .assertions(let check):
      let (first, states) = check.firstViolation(of: replay, options, environment)
      guard let first else { return (false, states) }
      return (check.first.map { $0 == first } ?? true, states)
    }
  }

  /// Whether the candidate `bytes` still fails, replayed from the first line.
  ///
  /// - Parameters:
  ///   - bytes: The candidate log.
  ///   - options: How to replay it.
  ///   - environment: The quiet environment of the tries.
  /// - Returns: `true` when the candidate fails as the original did.
  func holds(
    for bytes: [UInt8], options: ReplayOptions, environment: RaspEnvironment
  ) -> Bool {
    attempt(ShrinkReplay(bytes: bytes), options: options, environment: environment).fails
  }

  /// Whether the candidates can be replayed from saved states: not with `--cmd`, whose command
  /// is given whole files, nor with a range (`--since`, `--until`, `--at`).
  func resumes(_ options: ReplayOptions) -> Bool {
    if case .command = self { return false }
    let configuration = options.configuration
    return configuration.since == nil && configuration.until == nil && configuration.at == nil
  }

  /// The input of a candidate: its bytes in memory, under the log's name.
  static func input(_ bytes: [UInt8], options: ReplayOptions) -> ReplayInput {
    ReplayInput(
      name: options.displayNames.first ?? "<stdin>",
      source: .memory(JSONMemorySource(bytes)), isLive: false)
  }

  /// The exit status of `rasp replay` over the candidate, the reason of its first bad line,
  /// if it had one, and the states saved before it.
  static func exitStatus(
    of replay: ShrinkReplay, options: ReplayOptions, environment: RaspEnvironment
  ) -> (status: Int32, reason: String?, states: [ReplayCheckpoint]) {
    let options = replay.options(options)
    var sink = StateKeepingSink(DiscardingSink()) { $0.firstReason == nil }
    let result = ReplayRun.run(
      options, inputs: [replay.input(options: options)], resumingFrom: replay.state,
      environment: environment, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: environment).rawValue
    return (status, sink.base.firstReason, sink.states)
  }
}

/// A candidate's replay: its bytes, the saved state it starts from, and how many events apart
/// it saves states of its own (``ShrinkStates``).
///
/// ```swift
/// let replay = ShrinkReplay(bytes: candidate, state: states.latest(sharedWith: candidate),
///                           interval: 4096)
/// replay.input(options: options)   // the candidate's bytes after the state's lines
/// ```
struct ShrinkReplay {
  /// The whole candidate log.
  let bytes: [UInt8]
  /// The state after the candidate's first lines, or `nil` to replay from the first line.
  var state: ReplayCheckpoint?
  /// The events between the states it saves, or `nil` to save none.
  var interval: Int?
  /// What `--cmd` is given instead of ``bytes``: the DevTools export of the candidate.
  var commandBytes: [UInt8]?

  /// The replay options: `options`, saving a state every ``interval`` events.
  func options(_ options: ReplayOptions) -> ReplayOptions {
    guard let interval else { return options }
    var options = options
    options.configuration.checkpointInterval = interval
    return options
  }

  /// The input: the candidate's bytes from the state's offset on.
  func input(options: ReplayOptions) -> ReplayInput {
    let offset = state.map(ShrinkStates.offset(of:)) ?? 0
    guard offset > 0, offset <= bytes.count else {
      return ShrinkFailure.input(bytes, options: options)
    }
    return ShrinkFailure.input(Array(bytes[offset...]), options: options)
  }
}

extension ShrinkFailure.GoldenCheck {
  /// The paths at which the candidate's first differing snapshot differs from its golden
  /// line, or `nil` when no snapshot differs (snapshots missing at the end, or extra, do not
  /// count) or the replay stopped at a bad line; and the states saved before any differed.
  ///
  /// Resumed from a state, the replay's records are compared from the golden line after the
  /// state's records on.
  func firstDifferencePaths(
    of replay: ShrinkReplay, _ replayOptions: ReplayOptions, _ environment: RaspEnvironment
  ) -> (paths: Set<String>?, states: [ReplayCheckpoint]) {
    let replayOptions = replay.options(replayOptions)
    var golden = SnapshotLines(name: name, source: .memory(JSONMemorySource(self.bytes)))
    // The lines the state's records were compared with, equal: none differed before it.
    for _ in 0..<(replay.state?.records ?? 0) {
      guard (try? golden.next()) != nil else { break }
    }
    let check = CheckSink(
      golden: golden, options: options, keepingAtMost: 1,
      fileNames: replayOptions.displayNames)
    var sink = StateKeepingSink(check) {
      $0.error == nil && $0.comparison.firstDifference == nil
    }
    let result = ReplayRun.run(
      replayOptions, inputs: [replay.input(options: replayOptions)], resumingFrom: replay.state,
      environment: environment, into: &sink)
    guard sink.base.error == nil, result.failure == nil, result.ending != .stoppedAtBadLine,
      let first = sink.base.comparison.firstDifference
    else { return (nil, sink.states) }
    let differences = JSONDiff.differences(from: first.expected, to: first.actual, options: options)
    return (Set(differences.map { "\($0.path)" }), sink.states)
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

/// A sink that hands everything to another, and keeps the checkpoints the replay yields while
/// `isUndecided` says that the other has seen nothing of the failure yet: the states that
/// ``ShrinkStates`` resumes later tries from.
///
/// ```swift
/// var sink = StateKeepingSink(DiscardingSink()) { $0.firstReason == nil }
/// ```
struct StateKeepingSink<Base: ReplaySink>: ReplaySink {
  /// The sink that takes the records.
  private(set) var base: Base
  /// Whether nothing of the failure has been seen: the replay's state is worth saving.
  let isUndecided: (Base) -> Bool
  /// The checkpoints kept, in the order yielded.
  private(set) var states: [ReplayCheckpoint] = []
  private var isDecided = false

  /// A sink that hands everything to `base`.
  init(_ base: Base, isUndecided: @escaping (Base) -> Bool) {
    self.base = base
    self.isUndecided = isUndecided
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    try base.take(record, in: &output)
  }
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) { try base.flush(&output) }
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) { try base.finish(&output) }
  mutating func skip(_ diagnostic: ReplayDiagnostic) { base.skip(diagnostic) }
  mutating func ignore(_ diagnostic: ReplayDiagnostic) { base.ignore(diagnostic) }
  var linesWritten: Int? { base.linesWritten }

  mutating func keep(_ checkpoint: ReplayCheckpoint) {
    // What was seen stays seen: no state after it is kept.
    guard !isDecided, isUndecided(base) else {
      isDecided = true
      return
    }
    states.append(checkpoint)
  }
}

/// An output stream that throws everything away: the standard streams of `rasp shrink`'s tries.
final class DiscardingOutput: RaspOutputStream {
  func write(_ bytes: RawSpan) throws(RaspOutputError) {}
  var isTerminal: Bool { false }
  var terminalColumns: Int? { nil }
}
