import RaspJSON
import RaspReplay

/// `rasp redact --verify`: the redacted log replays as the original's replay, redacted, and no
/// original string of a redacted path is left anywhere in the output.
///
/// The original's snapshots are redacted by putting, for every string a rule changed, its
/// replacement in its place (a hashed key, a replaced name); the redacted log's snapshots must
/// then be equal to them, one by one, and its replay must end with the same status. Strings
/// are searched for in every key and string of the output (and in lines that are not JSON), as
/// themselves or, from four characters on, inside a longer string. Numbers are not searched: a
/// shifted time may well be another event's original one.
///
/// ```swift
/// let problem = RedactVerification.firstProblem(
///   original: bytes, file: "events.jsonl", redacted: output, result: result,
///   output: "share.jsonl", options: options, quiet: quiet)
/// ```
enum RedactVerification {
  /// Keeps what `--verify` needs of one change: its strings, and what a string became.
  ///
  /// - Parameters:
  ///   - change: A change of line `line`.
  ///   - line: Its line, from 1.
  ///   - result: Where the strings and substitutions are kept.
  static func record(
    _ change: Redactor.Change, line: Int, in result: inout RedactCommand.Result
  ) {
    for text in strings(in: change.original) where result.originals[text] == nil {
      result.originals[text] = (line, change.path)
    }
    if case .string = change.original, let redacted = change.redacted {
      result.substitutions[change.original] = redacted
    }
  }

  /// The first leak or difference, as a message; `nil` when there is none.
  static func firstProblem(
    original: [UInt8], file: String, redacted: [UInt8], result: RedactCommand.Result,
    output: String, options: ReplayOptions, quiet: RaspEnvironment
  ) -> String? {
    let originals = result.originals
    let substitutions = result.substitutions
    if let leak = firstLeak(in: redacted, of: originals) {
      return "\(output):\(leak.line): \(leak.path.map { "at \($0): " } ?? "")the value of "
        + "\(leak.original.path) at \(file):\(leak.original.line) is left in the output"
    }
    let (before, statusBefore) = snapshots(of: original, options: options, quiet: quiet)
    let (after, statusAfter) = snapshots(of: redacted, options: options, quiet: quiet)
    for index in 0..<max(before.count, after.count) {
      let expected = index < before.count ? substitute(before[index], substitutions) : nil
      let actual = index < after.count ? after[index] : nil
      if expected != actual {
        return "the replay of '\(output)' differs from the replay of '\(file)', redacted, at "
          + "snapshot \(index + 1)"
      }
    }
    if statusBefore != statusAfter {
      return "the replay of '\(output)' ends with status \(statusAfter), that of '\(file)' with "
        + "\(statusBefore)"
    }
    return nil
  }

  /// Every string of a value, keys included.
  private static func strings(in value: JSONValue) -> [String] {
    switch value {
    case .string(let text): return [text]
    case .array(let elements): return elements.flatMap { strings(in: $0) }
    case .object(let object):
      return object.members.flatMap { [$0.key] + strings(in: $0.value) }
    case .null, .bool, .number: return []
    }
  }

  private static func leaks(_ text: String, _ originals: [String: (line: Int, path: String)])
    -> (line: Int, path: String)?
  {
    if let exact = originals[text] { return exact }
    for (original, place) in originals where original.count >= 4 && text.contains(original) {
      return place
    }
    return nil
  }

  private static func firstLeak(
    in bytes: [UInt8], of originals: [String: (line: Int, path: String)]
  ) -> (line: Int, path: String?, original: (line: Int, path: String))? {
    guard !originals.isEmpty else { return nil }
    for (index, line) in ShrinkLog(bytes: bytes).lines.enumerated() {
      let parsed = line.withUnsafeBufferPointer { try? JSONParser.parse($0) }
      guard let value = parsed else {
        if let place = leaks(String(decoding: line, as: UTF8.self), originals) {
          return (index + 1, nil, place)
        }
        continue
      }
      var path: [JSONPath.Component] = []
      if let (at, place) = firstLeak(in: value, at: &path, originals) {
        return (index + 1, JSONPath(components: at).description, place)
      }
    }
    return nil
  }

  private static func firstLeak(
    in value: JSONValue, at path: inout [JSONPath.Component],
    _ originals: [String: (line: Int, path: String)]
  ) -> ([JSONPath.Component], (line: Int, path: String))? {
    switch value {
    case .string(let text):
      return leaks(text, originals).map { (path, $0) }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        if let found = firstLeak(in: element, at: &path, originals) { return found }
      }
    case .object(let object):
      for member in object.members {
        path.append(.key(member.key))
        defer { path.removeLast() }
        if let place = leaks(member.key, originals) { return (path, place) }
        if let found = firstLeak(in: member.value, at: &path, originals) { return found }
      }
    case .null, .bool, .number:
      break
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

  /// The snapshots of a replay of `bytes`, parsed, and its exit status.
  private static func snapshots(
    of bytes: [UInt8], options: ReplayOptions, quiet: RaspEnvironment
  ) -> ([JSONValue], Int32) {
    var sink = CollectingSink()
    let result = ReplayRun.run(
      options, inputs: [ShrinkFailure.input(bytes, options: options)], environment: quiet,
      into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: quiet).rawValue
    return (sink.snapshots, status)
  }
}

/// Keeps every snapshot of a replay, parsed.
private struct CollectingSink: ReplaySink {
  private(set) var snapshots: [JSONValue] = []

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    let bytes = Array(output[record.range])
    snapshots.append((try? JSONParser.parse(bytes)) ?? .null)
    output.removeSubrange(record.range.lowerBound...)
  }
  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) { output.removeAll() }
}
