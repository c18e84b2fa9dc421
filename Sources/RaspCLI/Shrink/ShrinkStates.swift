import RaspReplay

/// The saved states of the log a shrink is at: the replay's checkpoints after some of its
/// first lines, so that a candidate that keeps those lines unchanged is replayed from the
/// state after them rather than from its first line.
///
/// Every candidate of ``DeltaDebugging`` and of the payloads pass is the current log with
/// lines removed or one line changed: up to its first changed line, it is the current log,
/// byte for byte, so the replay's state after those lines is the current log's there. The
/// states are the checkpoints (``ReplayCheckpoint``) that the current log's replays yielded,
/// every ``interval(forLines:)`` events; a candidate is resumed from the last one before the
/// first byte in which it differs from the current log. When a candidate still fails it is
/// the current log: the states of the lines it shares are kept, and those of its own replay
/// added. A state is saved only while the replay had seen nothing of the failure (no bad line,
/// no snapshot differing, no assertion violated), so that a replay resumed from it sees all
/// of the candidate's failure, and ends as the replay from the first line would.
///
/// ```swift
/// var states = ShrinkStates(log: whole, saved: firstReplay.states)
/// let state = states.latest(sharedWith: candidate)   // the checkpoint after line 4,096
/// // … replay the candidate from `state`: it still fails, and saved `tried.states` …
/// states.adopt(candidate, saved: tried.states)
/// ```
struct ShrinkStates {
  /// The log the states are of: the current log's bytes.
  private(set) var log: [UInt8]
  /// The states, by ascending offset, each after a whole line of ``log``.
  private(set) var saved: [ReplayCheckpoint] = []

  /// The states of `log`, from checkpoints its replay yielded.
  ///
  /// - Parameters:
  ///   - log: The log's bytes.
  ///   - saved: The checkpoints, in the order yielded; those not after a line end of `log`
  ///     are left out.
  init(log: [UInt8], saved: [ReplayCheckpoint]) {
    self.log = log
    append(saved)
  }

  /// How many events apart a replay of a log of `lines` lines saves its states: a 32nd of
  /// the log, and at least 256, so that saving (each time the state of every key, as JSON)
  /// costs little beside the replay.
  static func interval(forLines lines: Int) -> Int { max(256, lines / 32) }

  /// The offset after the lines a state holds, in the log of one input.
  static func offset(of state: ReplayCheckpoint) -> Int { state.offsets.first ?? -1 }

  /// The latest state after lines that `candidate` starts with too, or `nil` for none.
  ///
  /// - Parameter candidate: A log's bytes.
  /// - Returns: The state to resume the candidate's replay from.
  /// - Complexity: O(*n*) for a candidate of *n* bytes.
  func latest(sharedWith candidate: [UInt8]) -> ReplayCheckpoint? {
    guard let last = saved.last else { return nil }
    let shared = Self.sharedLength(candidate, log, upTo: Self.offset(of: last))
    return saved.last { Self.offset(of: $0) <= shared }
  }

  /// Makes `candidate` the current log: keeps the states of the lines it shares with the
  /// log, and adds those its replay saved.
  ///
  /// - Parameters:
  ///   - candidate: The log that still fails.
  ///   - states: The checkpoints of its replay, in the order yielded.
  mutating func adopt(_ candidate: [UInt8], saved states: [ReplayCheckpoint]) {
    let shared = Self.sharedLength(
      candidate, log, upTo: saved.last.map(Self.offset(of:)) ?? 0)
    while let last = saved.last, Self.offset(of: last) > shared { saved.removeLast() }
    log = candidate
    append(states)
  }

  /// Adds the states after a whole line of ``log``, beyond the last one.
  private mutating func append(_ states: [ReplayCheckpoint]) {
    for state in states {
      let offset = Self.offset(of: state)
      // A last line without its line end could go on in a candidate: no state after it.
      guard state.offsets.count == 1, offset > saved.last.map(Self.offset(of:)) ?? 0,
        offset <= log.count, log[offset - 1] == UInt8(ascii: "\n")
      else { continue }
      saved.append(state)
    }
  }

  /// How many bytes `a` and `b` start with alike, counting at most `limit`.
  static func sharedLength(_ a: [UInt8], _ b: [UInt8], upTo limit: Int) -> Int {
    let count = min(a.count, b.count, limit)
    return a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        var start = 0
        let block = 4096
        while start + block <= count,
          a[start..<start + block].elementsEqual(b[start..<start + block])
        {
          start += block
        }
        while start < count, a[start] == b[start] { start += 1 }
        return start
      }
    }
  }
}
