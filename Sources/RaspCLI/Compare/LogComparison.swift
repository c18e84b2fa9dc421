import RaspJSON
import RaspReplay

/// Compares two versions' replays of one log, event by event: the engine of `rasp compare`.
///
/// The two ``CompareStream``s are read in step, one event at a time, and matched by where
/// each event is in the log (``CompareStream/position``): an event that both applied compares
/// their two states after it; one that only one version applied (the other ignored it, or had
/// no such type) compares that version's state after it with the other's state before it,
/// which it kept; a line that only one version rejects is a divergence there. States are
/// compared by meaning: equal bytes are equal without being parsed (every state is canonical
/// JSON, keys sorted), other pairs are parsed and diffed with ``RaspJSON/JSONDiff`` under
/// `--ignore` and `--precision`, as `rasp check` compares a snapshot with a golden line; the
/// differences that an ``AllowedChange`` allows are set aside. The first event with any
/// difference left ends the comparison.
///
/// ```swift
/// var comparison = LogComparison(options: diffOptions, allowed: allowed, file: "a.jsonl")
/// let verdict = comparison.run(old: &oldStream, new: &newStream)
/// ```
struct LogComparison {
  /// What to ignore, and how close numbers must be.
  let options: JSONDiffOptions
  /// The intended changes.
  let allowed: [AllowedChange]
  /// The log's name, for places.
  let file: String
  /// Whether the replays stop at the first bad line (`--on-error fail`).
  let stopsAtBadLine: Bool
  /// The lines both versions rejected, in order, for standard error.
  private(set) var rejectedByBoth: [ReplayDiagnostic] = []
  /// Which of ``allowed`` allowed some difference.
  private(set) var usedAllowances: Set<Int> = []
  /// How many events' states differed only as allowed.
  private(set) var allowedEvents = 0
  /// How many events were compared.
  private(set) var events = 0
  /// The members' last pairs of values, so that a difference every state has is diffed once.
  private var members = MemberComparison()

  init(options: JSONDiffOptions, allowed: [AllowedChange], file: String, stopsAtBadLine: Bool) {
    self.options = options
    self.allowed = allowed
    self.file = file
    self.stopsAtBadLine = stopsAtBadLine
  }

  /// Reads both streams to their ends, or to the first divergence.
  mutating func run(old: inout CompareStream, new: inout CompareStream) -> LogVerdict {
    while true {
      old.fetch()
      new.fetch()
      if old.isAtEnd, new.isAtEnd { break }
      let first = old.position
      let second = new.position
      let takesOld = (first.line, first.ordinal) <= (second.line, second.ordinal)
      let takesNew = (second.line, second.ordinal) <= (first.line, first.ordinal)
      events += 1
      if let divergence = compareStep(
        old: old, takesOld: takesOld, new: new, takesNew: takesNew)
      {
        return .divergent(divergence)
      }
      if takesOld { old.consume() }
      if takesNew { new.consume() }
    }
    for ending in [old.summary?.ending, new.summary?.ending] {
      switch ending {
      case .readFailure(_, let message)?:
        return .failed("cannot read '\(file)': \(message)")
      case .interrupted(let signal)?:
        return .interrupted(signal)
      default:
        break
      }
    }
    if stopsAtBadLine, let last = rejectedByBoth.last {
      return .failed("both versions stop at \(last)")
    }
    return allowedEvents == 0 ? .identical : .allowed(events: allowedEvents)
  }

  /// What one version did at the step: its head when the step is its own, else nothing.
  private func side(_ stream: borrowing CompareStream, takes: Bool) -> Divergence.Side {
    guard takes, let head = stream.head else { return stream.isAtEnd ? .ended : .ignored }
    switch head {
    case .applied(let seq, _, _, _): return .applied(seq: seq)
    case .ignored: return .ignored
    case .rejected:
      guard let diagnostic = stream.rejection else { return .ignored }
      return .rejected(diagnostic)
    case .end: return .ended
    }
  }

  /// Compares one step; returns the divergence it is, if it is one.
  private mutating func compareStep(
    old: borrowing CompareStream, takesOld: Bool, new: borrowing CompareStream, takesNew: Bool
  ) -> Divergence? {
    let oldSide = side(old, takes: takesOld)
    let newSide = side(new, takes: takesNew)
    let line = takesOld ? old.position.line : new.position.line
    if let rejection = oldSide.rejection, newSide.rejection != nil {
      rejectedByBoth.append(rejection)
      return nil
    }
    let oldKey = takesOld ? old.headKey : nil
    let newKey = takesNew ? new.headKey : nil
    if let oldKey, let newKey, oldKey != newKey {
      return Divergence(
        event: events, file: file, line: line, key: Array(oldKey), old: oldSide, new: newSide,
        oldState: nil, newState: nil, differences: [], allowedDifferences: [],
        keys: (Array(oldKey), Array(newKey)))
    }
    let key = oldKey ?? newKey
    let isRejected = oldSide.rejection != nil || newSide.rejection != nil
    guard oldSide.seq != nil || newSide.seq != nil || isRejected else { return nil }
    // Each version's state after the step: its head's, or the one it had; views of the
    // streams' buffers, not copies.
    let oldState = (takesOld ? old.withHeadState { $0 } : nil) ?? old.state(forKey: key)
    let newState = (takesNew ? new.withHeadState { $0 } : nil) ?? new.state(forKey: key)
    var oldValue: JSONValue?
    var newValue: JSONValue?
    var unintended: [JSONDifference] = []
    var allowedHere: [JSONDifference] = []
    let bytesEqual = oldState.withUnsafeBufferPointer { a in
      newState.withUnsafeBufferPointer { b in UTF8Order.equal(a, b) }
    }
    // Member by member first: only what differs unintendedly is diffed whole, for the report.
    if !bytesEqual, !isRejected,
      let outcome = members.compare(oldState, newState, classify: classify),
      outcome.unintended == 0
    {
      usedAllowances.formUnion(outcome.allowances)
      if outcome.allowed > 0 { allowedEvents += 1 }
      return nil
    }
    if !bytesEqual || isRejected {
      oldValue = Self.parse(oldState)
      newValue = Self.parse(newState)
      if !bytesEqual, let oldValue, let newValue {
        for difference in JSONDiff.differences(from: oldValue, to: newValue, options: options) {
          if let index = allowed.firstIndex(where: { $0.allows(difference) }) {
            usedAllowances.insert(index)
            allowedHere.append(difference)
          } else {
            unintended.append(difference)
          }
        }
      }
    }
    guard !unintended.isEmpty || isRejected else {
      if !allowedHere.isEmpty { allowedEvents += 1 }
      return nil
    }
    return Divergence(
      event: events, file: file, line: line, key: key.map(Array.init), old: oldSide,
      new: newSide, oldState: oldValue, newState: newValue, differences: unintended,
      allowedDifferences: allowedHere, keys: nil)
  }

  /// What a pair of values differs by, unintendedly and as allowed.
  private func classify(_ old: JSONValue, _ new: JSONValue) -> MemberComparison.Outcome {
    var outcome = MemberComparison.Outcome.none
    for difference in JSONDiff.differences(from: old, to: new, options: options) {
      if let index = allowed.firstIndex(where: { $0.allows(difference) }) {
        outcome.allowed += 1
        outcome.allowances.insert(index)
      } else {
        outcome.unintended += 1
      }
    }
    return outcome
  }

  /// A state as a value: the replay wrote it, so it is JSON.
  private static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue? {
    bytes.withUnsafeBufferPointer {
      try? JSONParser.parse($0, maximumDepth: JSONLimits.maximumWrittenDepth)
    }
  }
}
