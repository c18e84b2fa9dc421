import RaspJSON
import RaspReplay

/// `rasp redact --verify`'s comparison of two replays: the original log's (or export's) and
/// the redacted one's, snapshot by snapshot and value by value.
///
/// Each value of a snapshot of the redacted log must be the same value of the original's, at
/// the same path, but where the policy explains the difference:
///
/// - a string that a rule changed (hashed, replaced) matches what it became, wherever it is a
///   value: a hashed key, a replaced name;
/// - a number that a rule rounded to *N* decimals (in some event) matches a number within
///   half a unit of its *N*th decimal: its rounding, and what a domain makes of it as long as
///   it stays that close;
/// - a number that a rule shifted matches what it became;
/// - a value that a rule dropped (or a value inside one) matches its absence, `null`, or the
///   value that path had in the redacted replay's snapshot before (a domain that kept its
///   former value without the field).
///
/// Arrays must have the same length. The replays must end with the same status.
///
/// ```swift
/// let quiet = RedactReplayComparison.quiet(environment)
/// let before = RedactReplayComparison.replay(input, options: options, quiet: quiet)
/// let after = RedactReplayComparison.replay(redactedInput, options: options, quiet: quiet)
/// let problem = RedactReplayComparison.firstDifference(
///   original: ("events.jsonl", before), redacted: ("share.jsonl", after), result: result)
/// ```
enum RedactReplayComparison {
  /// A snapshot of a replay, parsed, with the line it follows.
  typealias Snapshot = (line: Int?, value: JSONValue)
  /// The snapshots of a replay, and its exit status.
  typealias Replay = (snapshots: [Snapshot], status: Int32)

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
  ///
  /// - Parameters:
  ///   - original: The original's name and replay.
  ///   - redacted: The redacted log's name and replay.
  ///   - result: What the policy changed.
  ///   - namesLines: Whether a snapshot is named by its line in the redacted log too.
  /// - Returns: The message: the snapshot, its line, the path and both values; or the two
  ///   statuses.
  static func firstDifference(
    original: (name: String, replay: Replay), redacted: (name: String, replay: Replay),
    result: RedactCommand.Result, namesLines: Bool = false
  ) -> String? {
    let before = original.replay.snapshots
    let after = redacted.replay.snapshots
    let tolerance = Tolerance(result)
    for index in 0..<max(before.count, after.count) {
      var place = "at snapshot \(index + 1)"
      if namesLines, index < after.count, let line = after[index].line {
        place += " (line \(line) of '\(redacted.name)')"
      }
      let heading =
        "the replay of '\(redacted.name)' differs from the replay of '\(original.name)', "
        + "redacted, \(place)"
      guard index < before.count, index < after.count else {
        return heading + (index < before.count ? ": it has no such snapshot" : ": an extra one")
      }
      let expected = before[index].value
      let previous = index > 0 ? after[index - 1].value : nil
      var path: [JSONPath.Component] = []
      if let difference = tolerance.firstDifference(
        expected, after[index].value, previous: previous, at: &path)
      {
        return heading + ", " + difference
      }
    }
    if original.replay.status != redacted.replay.status {
      return "the replay of '\(redacted.name)' ends with status \(redacted.replay.status), "
        + "that of '\(original.name)' with \(original.replay.status)"
    }
    return nil
  }

}

/// What differences the policy explains: the strings it changed, the numbers it rounded and
/// shifted, the values it dropped.
private struct Tolerance {
  let substitutions: [JSONValue: JSONValue]
  let rounded: [Double: Set<Int>]
  let shifted: [Double: Set<Double>]
  let dropped: Set<JSONValue>

  init(_ result: RedactCommand.Result) {
    substitutions = result.substitutions
    rounded = result.rounded
    shifted = result.shifted
    dropped = result.dropped
  }

  /// The first path where `actual` differs from `expected` beyond what the policy explains,
  /// as a message; `nil` when there is none.
  func firstDifference(
    _ expected: JSONValue?, _ actual: JSONValue?, previous: JSONValue?,
    at path: inout [JSONPath.Component]
  ) -> String? {
    if expected == actual { return nil }
    if let expected, let changed = substitutions[expected], changed == actual { return nil }
    if let expected, dropped.contains(expected),
      actual == nil || actual == .null || actual == previous
    {
      return nil
    }
    switch (expected, actual) {
    case (.number(let e)?, .number(let a)?):
      if explains(e.doubleValue, a.doubleValue) { return nil }
    case (.object(let e)?, .object(let a)?):
      var keys = Set(e.members.map(\.key))
      keys.formUnion(a.members.map(\.key))
      for key in keys.sorted() {
        path.append(.key(key))
        defer { path.removeLast() }
        var before: JSONValue?
        if case .object(let p)? = previous { before = p[key] }
        if let found = firstDifference(e[key], a[key], previous: before, at: &path) {
          return found
        }
      }
      return nil
    case (.array(let e)?, .array(let a)?) where e.count == a.count:
      for index in e.indices {
        path.append(.index(index))
        defer { path.removeLast() }
        var before: JSONValue?
        if case .array(let p)? = previous, index < p.count { before = p[index] }
        if let found = firstDifference(e[index], a[index], previous: before, at: &path) {
          return found
        }
      }
      return nil
    default:
      break
    }
    let at = path.isEmpty ? "the snapshot" : JSONPath(components: path).description
    return "at \(at): expected \(Self.text(expected)), found \(Self.text(actual))"
      + note(expected)
  }

  /// Whether the policy explains the number `actual` in place of `expected`.
  private func explains(_ expected: Double, _ actual: Double) -> Bool {
    if let decimals = rounded[expected] {
      for count in decimals {
        var unit = 1.0
        for _ in 0..<count { unit /= 10 }
        // Half a unit, and a hair for the doubles' own rounding.
        if abs(actual - expected) <= unit / 2 * (1 + 1e-9) + abs(expected) * 1e-15 {
          return true
        }
      }
    }
    return shifted[expected]?.contains(actual) == true
  }

  /// What the policy did to the value expected, for the message.
  private func note(_ expected: JSONValue?) -> String {
    guard case .number(let number)? = expected, let decimals = rounded[number.doubleValue]
    else { return "" }
    let list = decimals.sorted().map(String.init).joined(separator: " or ")
    return " (beyond its rounding to \(list) decimals)"
  }

  private static func text(_ value: JSONValue?) -> String {
    guard let value else { return "nothing" }
    var writer = JSONWriter()
    writer.write(value)
    return JSONError.abbreviated(String(decoding: writer.bytes, as: UTF8.self))
  }
}

/// Keeps every snapshot of a replay, parsed, with its line.
private struct SnapshotCollectingSink: ReplaySink {
  private(set) var snapshots: [RedactReplayComparison.Snapshot] = []

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    let bytes = Array(output[record.range])
    snapshots.append((record.line, (try? JSONParser.parse(bytes)) ?? .null))
    output.removeSubrange(record.range.lowerBound...)
  }
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
}
