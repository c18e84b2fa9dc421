import RaspDomains
import RaspJSON

/// Where a replay is, and the state it has there: what a checkpoint saves, so that a later
/// replay resumes from it instead of from the first line.
///
/// A replay with ``ReplayConfiguration/checkpointInterval`` or
/// ``ReplayConfiguration/checkpointsAtEnd`` yields ``ReplayOutcome/checkpoint(_:)`` at line
/// boundaries; ``Replay/init(configuration:inputs:resumingFrom:)`` starts from one, given
/// inputs that start after each one's ``lines``.
///
/// ```swift
/// case .checkpoint(let checkpoint):
///   flush()                                  // the records before it are printed first
///   save(checkpoint.lines, checkpoint.state)
/// ```
public struct ReplayCheckpoint: Sendable, Equatable {
  /// For each input, the number of the last line the replay handled: 0 for none.
  ///
  /// ```swift
  /// checkpoint.lines   // [1742]
  /// ```
  public var lines: [Int]
  /// For each input, the offset of the byte after the last line the replay handled (its line
  /// end included), counted from the input's first byte: where the input of a replay resumed
  /// from the checkpoint starts (``ReplayInput/startingAt(byte:)``). -1 when the replay could
  /// not tell: a line found too long was the last handled, and its end was not read yet.
  ///
  /// ```swift
  /// checkpoint.offsets   // [190348]
  /// ```
  public var offsets: [Int]
  /// For each input, the hash of every byte the replay had read of it — up to its offset and
  /// what it read ahead — or `nil` for a replay resumed, which does not know the hash of the
  /// bytes before where it started: what `rasp` checks a log against when it resumes, without
  /// reading it a second time to save.
  package var readHashes: [SegmentedLogHash?] = []
  /// For each input, the time of its last line handled, as the merge of several logs orders
  /// it (the last `ts` in it up to there), or `nil`: what a line without `ts` after it is
  /// merged by.
  ///
  /// ```swift
  /// checkpoint.times   // [2026-11-22T09:30:04.1Z]
  /// ```
  public var times: [RaspTimestamp?]
  /// How many events had been applied: the last one's `seq`.
  ///
  /// ```swift
  /// checkpoint.events   // 1700
  /// ```
  public var events: Int
  /// How many records had been yielded, by this replay and those it resumed from.
  ///
  /// ```swift
  /// checkpoint.records   // 1700: one per event of a plain replay
  /// ```
  public var records: Int
  /// The state of every stream (one, or one per key): each domain's state as it writes it,
  /// and what the output depends on besides (the last value selected, the last event).
  ///
  /// ```swift
  /// checkpoint.state["streams"]   // [{"domains":{"geo":{…}},…}]
  /// ```
  public var state: JSONValue

  /// A checkpoint.
  ///
  /// ```swift
  /// let checkpoint = ReplayCheckpoint(
  ///   lines: [20], offsets: [1816], events: 20, records: 20, state: state)
  /// ```
  ///
  /// - Parameters:
  ///   - lines: The last line handled of each input.
  ///   - offsets: The offset of the byte after each input's last line handled.
  ///   - times: The time of each input's last line handled; none by default.
  ///   - events: The events applied.
  ///   - records: The records yielded.
  ///   - state: The streams' state, as a replay yields it.
  public init(
    lines: [Int], offsets: [Int], times: [RaspTimestamp?]? = nil, events: Int, records: Int,
    state: JSONValue
  ) {
    self.lines = lines
    self.offsets = offsets
    self.times = times ?? lines.map { _ in nil }
    self.events = events
    self.records = records
    self.state = state
  }
}

/// Why a replay cannot resume from a checkpoint's state: what is wrong, and where in the
/// state.
///
/// ```swift
/// ReplayCheckpointError(path: "streams[0].domains.nav.stack", reason: "expected an array")
/// ```
public struct ReplayCheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where in ``ReplayCheckpoint/state`` the problem is, as a path.
  public var path: String
  /// What is wrong.
  public var reason: String

  /// An error.
  ///
  /// ```swift
  /// let error = ReplayCheckpointError(path: "streams", reason: "missing")
  /// ```
  ///
  /// - Parameters:
  ///   - path: Where in the state.
  ///   - reason: What is wrong.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The reason, after the path.
  ///
  /// ```swift
  /// print(error)   // at 'streams': missing
  /// ```
  public var description: String { path.isEmpty ? reason : "at '\(path)': \(reason)" }
}
