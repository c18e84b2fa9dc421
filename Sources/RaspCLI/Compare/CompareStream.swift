import RaspJSON
import RaspReplay

/// One version's replay of one log, read a step at a time: what `rasp compare` lays beside the
/// other version's, event by event.
///
/// The replay yields a record for each event it applies (the whole snapshot, or
/// `{"key":…,"state":…}` with `--key-by`), a bad line for each it rejects, and — its
/// configuration asks for them — an ignored line for each it does not apply (an event of a
/// type it does not know, of a domain left out, dropped). Each is a ``Step`` at a place of the
/// log, its line and its position among the events of that line (``position``), so that two
/// versions' steps are matched by where they are in the log, whatever each applied.
///
/// The stream keeps the state after the last event it applied (each key's, in a keyed
/// replay), which a step of the other version alone is compared with. Unkeyed, that state is
/// the last record, swapped out of the replay's buffer, not copied.
///
/// ```swift
/// var stream = CompareStream(replay: Replay(configuration: c, inputs: [log]), initial: s,
///                            isKeyed: false)
/// stream.fetch()
/// if case .applied = stream.head { … stream.stateBytes … }
/// stream.consume()
/// ```
///
/// A noncopyable struct, not a class, and its steps plain values: the comparison reads the
/// head several times an event, and a class's properties would check exclusive access at each
/// read, an enum with a diagnostic inside would be copied and retained.
struct CompareStream: ~Copyable {
  /// What the replay did at one place of the log.
  enum Step {
    /// It applied an event: its number, its line, and where the key (keyed) and the state
    /// after it are in ``output``.
    case applied(seq: Int, line: Int, key: Range<Int>?, state: Range<Int>)
    /// It did not apply the event of this line.
    case ignored(line: Int)
    /// It rejected the line (``CompareStream/rejection`` says why).
    case rejected
    /// It ended (``CompareStream/summary`` says how).
    case end
  }

  private var replay: Replay
  /// The bytes of the head's record.
  private(set) var output: [UInt8] = []
  /// The next step, not consumed yet; `nil` before ``fetch()``.
  private(set) var head: Step?
  /// The head's place: its line, and how many steps of the same line came before it. The
  /// end is after every line.
  private(set) var position = (line: 0, ordinal: 0)
  /// The state after the last event applied, unkeyed.
  private var current: [UInt8]
  /// Where the state is in ``current``: the record's bytes, without what follows them.
  private var currentRange: Range<Int>
  /// The state after each key's last event applied, keyed, by the key's canonical JSON.
  private var keyStates: [[UInt8]: [UInt8]] = [:]
  /// The state before any event.
  let initial: [UInt8]
  /// Whether records are `{"key":…,"state":…}`.
  let isKeyed: Bool
  /// The summary, once the replay ended.
  private(set) var summary: ReplaySummary?
  /// Why the replay rejected the head's line, when it did.
  private(set) var rejection: ReplayDiagnostic?

  /// A stream of `replay`, whose state starts as `initial` (canonical JSON).
  init(replay: consuming Replay, initial: [UInt8], isKeyed: Bool) {
    self.replay = replay
    self.initial = initial
    self.current = initial
    self.currentRange = initial.indices
    self.isKeyed = isKeyed
    output.reserveCapacity(1 << 12)
  }

  /// Whether the head is the end.
  var isAtEnd: Bool {
    if case .end? = head { return true }
    return false
  }

  /// Reads the next step into ``head``, unless it holds one.
  mutating func fetch() {
    guard head == nil else { return }
    output.removeAll(keepingCapacity: true)
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record(let record):
        let line = record.line ?? 0
        let (key, state) = isKeyed ? Self.split(output, record.range) : (nil, record.range)
        place(line)
        head = .applied(seq: record.seq, line: line, key: key, state: state)
        return
      case .skipped(let diagnostic):
        place(diagnostic.line)
        rejection = diagnostic
        head = .rejected
        return
      case .ignored(let diagnostic):
        place(diagnostic.line)
        head = .ignored(line: diagnostic.line)
        return
      case .end(let summary):
        self.summary = summary
        position = (Int.max, 0)
        head = .end
        return
      case .notice, .waiting, .checkpoint:
        continue
      }
    }
    position = (Int.max, 0)
    head = .end
  }

  /// Notes the line of the step fetched: the next position on the same line, or the first of
  /// a new one.
  private mutating func place(_ line: Int) {
    position = line == position.line ? (line, position.ordinal + 1) : (line, 0)
  }

  /// The bytes of the head's key (keyed and applied), or `nil`.
  var headKey: ArraySlice<UInt8>? {
    guard case .applied(_, _, let key?, _)? = head else { return nil }
    return output[key]
  }

  /// Calls `body` with the head's state, when the head applied an event.
  func withHeadState<Result>(_ body: (ArraySlice<UInt8>) -> Result) -> Result? {
    guard case .applied(_, _, _, let state)? = head else { return nil }
    return body(output[state])
  }

  /// The state after the last event applied for `key` (any key, unkeyed).
  func state(forKey key: ArraySlice<UInt8>?) -> ArraySlice<UInt8> {
    guard isKeyed, let key else { return current[currentRange] }
    return keyStates[Array(key)].map { $0[...] } ?? initial[...]
  }

  /// Takes the head: an event applied becomes the stream's state.
  mutating func consume() {
    guard let step = head else { return }
    head = nil
    rejection = nil
    guard case .applied(_, _, let key, let state) = step else { return }
    if let key {
      keyStates[Array(output[key])] = Array(output[state])
    } else {
      // The record becomes the state where it is: the buffers trade places, no bytes move.
      swap(&current, &output)
      currentRange = state
    }
  }

  /// Where the key and the state are in a keyed record, `{"key":…,"state":…}` as the replay
  /// writes it (members sorted, compact).
  private static func split(_ bytes: [UInt8], _ range: Range<Int>) -> (Range<Int>?, Range<Int>) {
    let keyStart = range.lowerBound + 7  // {"key":
    let found: Int? = bytes.withUnsafeBufferPointer { buffer in
      guard keyStart < range.upperBound else { return nil }
      let slice = UnsafeBufferPointer(rebasing: buffer[..<range.upperBound])
      var scanner = JSONScanner(
        slice, position: keyStart, maximumDepth: JSONLimits.maximumWrittenDepth)
      guard (try? scanner.skipValue()) != nil else { return nil }
      return scanner.position
    }
    // `,"state":` is 9 bytes; the record ends with `}`.
    guard let keyEnd = found, keyEnd + 9 <= range.upperBound - 1 else { return (nil, range) }
    return (keyStart..<keyEnd, (keyEnd + 9)..<(range.upperBound - 1))
  }
}
