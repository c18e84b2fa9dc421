import RaspJSON
import RaspReplay

/// `rasp redact --verify`: the redacted log replays as the original's replay, redacted, and no
/// original value of a redacted path is left anywhere in the output.
///
/// The original's snapshots are redacted by putting, for every string a rule changed, its
/// replacement in its place (a hashed key, a replaced name); the redacted log's snapshots must
/// then be equal to them, one by one, and its replay must end with the same status
/// (``RedactReplayComparison``). Strings are searched for in every key and string of the
/// output, the JSON held in strings included, and in lines that are not JSON; numbers at
/// every value's place and in NMEA sentences' fields (``RedactLeakSearch``).
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
    for text in strings(in: change.original) where result.originals.strings[text] == nil {
      result.originals.strings[text] = (line, change.path)
    }
    if let redacted = change.redacted {
      result.originals.written.formUnion(strings(in: redacted))
      for (number, _) in numbers(in: redacted, name: nil) {
        result.originals.writtenNumbers.insert(number.doubleValue)
      }
    }
    let name = (try? JSONPath(change.path, allowsPatterns: true))
      .flatMap { RedactLeakSearch.memberName($0.components) }
    for (number, held) in numbers(in: change.original, name: name)
    where result.originals.numbers[number.doubleValue] == nil {
      result.originals.numbers[number.doubleValue] = ((line, change.path), held)
    }
    if case .string = change.original, let redacted = change.redacted {
      result.substitutions[change.original] = redacted
    }
    switch (change.action, change.original, change.redacted) {
    case (.round(let decimals), .number(let number), _):
      result.rounded[number.doubleValue, default: []].insert(decimals)
    case (.shift, .number(let number), .number(let shifted)?):
      result.shifted[number.doubleValue, default: []].insert(shifted.doubleValue)
    case (.drop, let value, _):
      insertWithParts(value, into: &result.dropped)
    default:
      break
    }
  }

  /// The first leak or difference, as a message; `nil` when there is none.
  static func firstProblem(
    original: [UInt8], file: String, redacted: [UInt8], result: RedactCommand.Result,
    output: String, options: ReplayOptions, quiet: RaspEnvironment
  ) -> String? {
    if let leak = firstLeak(in: redacted, of: result.originals) {
      return "\(output):\(leak.line): \(leak.path.map { "at \($0): " } ?? "")the value of "
        + "\(leak.original.path) at \(file):\(leak.original.line) is left in the output"
    }
    return RedactReplayComparison.firstDifference(
      original: (
        file,
        RedactReplayComparison.replay(
          ShrinkFailure.input(original, options: options), options: options, quiet: quiet)
      ),
      redacted: (
        output,
        RedactReplayComparison.replay(
          ShrinkFailure.input(redacted, options: options), options: options, quiet: quiet)
      ),
      result: result, namesLines: true)
  }

  /// A value and every value inside it.
  private static func insertWithParts(_ value: JSONValue, into set: inout Set<JSONValue>) {
    set.insert(value)
    switch value {
    case .array(let elements): elements.forEach { insertWithParts($0, into: &set) }
    case .object(let object): object.members.forEach { insertWithParts($0.value, into: &set) }
    case .null, .bool, .number, .string: break
    }
  }

  /// Every number of a value, with the name of the member that holds it (`name`, the
  /// value's own, for the value itself or an element of its arrays).
  private static func numbers(in value: JSONValue, name: String?) -> [(JSONNumber, String?)] {
    switch value {
    case .number(let number): return [(number, name)]
    case .array(let elements): return elements.flatMap { numbers(in: $0, name: name) }
    case .object(let object):
      return object.members.flatMap { numbers(in: $0.value, name: $0.key) }
    case .null, .bool, .string: return []
    }
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

  /// The first line of the output that leaks an original, with the path there (none for a
  /// line that is not JSON).
  private static func firstLeak(
    in bytes: [UInt8], of originals: RedactLeakSearch.Originals
  ) -> (line: Int, path: String?, original: RedactLeakSearch.Place)? {
    guard !originals.isEmpty else { return nil }
    for (index, line) in ShrinkLog(bytes: bytes).lines.enumerated() {
      guard let root = try? JSONNode.read(Array(line), maximumDepth: JSONLimits.maximumWrittenDepth)
      else {
        let text = String(decoding: line, as: UTF8.self)
        if let place = RedactLeakSearch.leak(in: text, of: originals) {
          return (index + 1, nil, place)
        }
        if let leak = RedactLeakSearch.sentenceLeak(in: text, of: originals) {
          return (index + 1, leak.path, leak.original)
        }
        continue
      }
      if let leak = RedactLeakSearch.firstLeak(in: root, of: originals) {
        return (index + 1, JSONPath(components: leak.path).description, leak.original)
      }
    }
    return nil
  }
}
