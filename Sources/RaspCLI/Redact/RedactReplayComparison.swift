import RaspJSON
import RaspReplay

/// `rasp redact --verify`'s comparison of two replays: the original log's (or export's) and
/// the redacted one's, snapshot by snapshot.
///
/// The original's snapshots are redacted by putting, for every string a rule changed, its
/// replacement in its place (a hashed key, a replaced name); the redacted log's snapshots must
/// then be equal to them, one by one, and its replay must end with the same status.
///
/// ```swift
/// let quiet = RedactReplayComparison.quiet(environment)
/// let before = RedactReplayComparison.replay(input, options: options, quiet: quiet)
/// let after = RedactReplayComparison.replay(redactedInput, options: options, quiet: quiet)
/// let problem = RedactReplayComparison.firstDifference(
///   original: ("events.jsonl", before), redacted: ("share.jsonl", after), result: result)
/// ```
enum RedactReplayComparison {
  /// The snapshots of a replay, parsed, and its exit status.
  typealias Replay = (snapshots: [JSONValue], status: Int32)

  /// An environment like `environment` whose standard output and errors go nowhere, and whose
  /// standard input is empty: the replays of `--verify` print nothing.
  static func quiet(_ environment: RaspEnvironment) -> RaspEnvironment {
    RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
      standardError: DiscardingOutput(), variables: environment.variables,
      workingDirectory: environment.workingDirectory)
  }

  /// Replays one input with `options`, keeping every snapshot.
  static func replay(_ input: ReplayInput, options: ReplayOptions, quiet: RaspEnvironment)
    -> Replay
  {
    var sink = SnapshotCollectingSink()
    let result = ReplayRun.run(options, inputs: [input], environment: quiet, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: quiet).rawValue
    return (sink.snapshots, status)
  }

  /// The first difference between the original's replay, redacted, and the redacted one's,
  /// as a message; `nil` when there is none.
  static func firstDifference(
    original: (name: String, replay: Replay), redacted: (name: String, replay: Replay),
    result: RedactCommand.Result
  ) -> String? {
    let before = original.replay.snapshots
    let after = redacted.replay.snapshots
    for index in 0..<max(before.count, after.count) {
      let expected = index < before.count ? substitute(before[index], result.substitutions) : nil
      let actual = index < after.count ? after[index] : nil
      if expected != actual {
        return "the replay of '\(redacted.name)' differs from the replay of "
          + "'\(original.name)', redacted, at snapshot \(index + 1)"
      }
    }
    if original.replay.status != redacted.replay.status {
      return "the replay of '\(redacted.name)' ends with status \(redacted.replay.status), "
        + "that of '\(original.name)' with \(original.replay.status)"
    }
    return nil
  }

  /// A snapshot with every string the policy changed put as it was changed.
  private static func substitute(_ value: JSONValue, _ map: [JSONValue: JSONValue]) -> JSONValue {
    if let replacement = map[value] { return replacement }
    switch value {
    case .array(let elements): return .array(elements.map { substitute($0, map) })
    case .object(let object):
      return .object(
        JSONObject(sortedMembers: object.members.map { ($0.key, substitute($0.value, map)) }))
    case .null, .bool, .number, .string: return value
    }
  }
}

/// Keeps every snapshot of a replay, parsed.
private struct SnapshotCollectingSink: ReplaySink {
  private(set) var snapshots: [JSONValue] = []

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    let bytes = Array(output[record.range])
    snapshots.append((try? JSONParser.parse(bytes)) ?? .null)
    output.removeSubrange(record.range.lowerBound...)
  }
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
}
