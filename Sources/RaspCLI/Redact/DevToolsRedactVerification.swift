import RaspJSON
import RaspReplay

/// `rasp redact --verify` of a Redux DevTools export: the redacted export replays as the
/// original's replay, redacted, each from its own start state (`committedState`,
/// `preloadedState`), and no original string of a redacted path is left anywhere in it — in
/// its actions, its states, and in every string of it that holds JSON (`payload`, an action
/// written as a string, a `$jsan` Map), as itself or, from four characters on, inside a longer
/// string.
///
/// ```swift
/// let problem = DevToolsRedactVerification.firstProblem(
///   original: document, redacted: shared, result: result, options: options,
///   environment: environment)
/// ```
enum DevToolsRedactVerification {
  /// The first leak or difference, as a message; `nil` when there is none.
  static func firstProblem(
    original: ImportedDocument, redacted: ImportedDocument, result: RedactCommand.Result,
    options: ReplayOptions, environment: RaspEnvironment
  ) -> String? {
    if let leak = firstLeak(in: redacted.bytes, of: result.originals) {
      return "\(redacted.name):\(leak.line): at \(leak.path): the value of "
        + "\(leak.original.path) at \(original.name):\(leak.original.line) is left in the output"
    }
    let quiet = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
      standardError: DiscardingOutput(), variables: environment.variables,
      workingDirectory: environment.workingDirectory)
    let (before, statusBefore) = snapshots(of: original, options: options, quiet: quiet)
    let (after, statusAfter) = snapshots(of: redacted, options: options, quiet: quiet)
    for index in 0..<max(before.count, after.count) {
      let expected =
        index < before.count ? substitute(before[index], result.substitutions) : nil
      let actual = index < after.count ? after[index] : nil
      if expected != actual {
        return "the replay of '\(redacted.name)' differs from the replay of "
          + "'\(original.name)', redacted, at snapshot \(index + 1)"
      }
    }
    if statusBefore != statusAfter {
      return "the replay of '\(redacted.name)' ends with status \(statusAfter), that of "
        + "'\(original.name)' with \(statusBefore)"
    }
    return nil
  }

  /// The first string of the export that holds an original, with its line and path.
  private static func firstLeak(
    in bytes: [UInt8], of originals: [String: (line: Int, path: String)]
  ) -> (line: Int, path: String, original: (line: Int, path: String))? {
    guard !originals.isEmpty,
      let root = try? JSONNode.read(file: bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
    else { return nil }
    var path: [JSONPath.Component] = []
    guard let (offset, at, place) = firstLeak(in: root, at: &path, outer: nil, originals) else {
      return nil
    }
    let line = JSONTextPosition(offset: offset, in: bytes).line
    return (line, JSONPath(components: at).description, place)
  }

  /// Searches a node, and the JSON its strings hold; `outer` is the offset of the string
  /// of the file that holds the node, if one does.
  private static func firstLeak(
    in node: JSONNode, at path: inout [JSONPath.Component], outer: Int?,
    _ originals: [String: (line: Int, path: String)]
  ) -> (Int, [JSONPath.Component], (line: Int, path: String))? {
    let offset = outer ?? node.offset
    switch node.content {
    case .string(let text):
      if let place = leaks(text, originals) { return (offset, path, place) }
      // A string of JSON (`payload`, a `$jsan` Map or Set): what it holds, too.
      var inner = Substring(text)
      if path.last == .key("$jsan"), let first = inner.first, first == "m" || first == "l" {
        inner = inner.dropFirst()
      }
      guard inner.first == "{" || inner.first == "[",
        let held = try? JSONNode.read(
          Array(inner.utf8), maximumDepth: JSONLimits.maximumWrittenDepth)
      else { return nil }
      return firstLeak(in: held, at: &path, outer: offset, originals)
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        if let found = firstLeak(in: element, at: &path, outer: outer, originals) {
          return found
        }
      }
    case .object(let members):
      for member in members {
        path.append(.key(member.key))
        defer { path.removeLast() }
        if let place = leaks(member.key, originals) {
          return (outer ?? member.keyOffset, path, place)
        }
        if let found = firstLeak(in: member.value, at: &path, outer: outer, originals) {
          return found
        }
      }
    case .null, .bool, .number:
      break
    }
    return nil
  }

  /// Where an original string was, when `text` is one or holds one of four characters or
  /// more.
  private static func leaks(_ text: String, _ originals: [String: (line: Int, path: String)])
    -> (line: Int, path: String)?
  {
    if let exact = originals[text] { return exact }
    for (original, place) in originals where original.count >= 4 && text.contains(original) {
      return place
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

  /// The snapshots of a replay of an export, from its own start state, and its exit status.
  private static func snapshots(
    of document: ImportedDocument, options: ReplayOptions, quiet: RaspEnvironment
  ) -> ([JSONValue], Int32) {
    var options = options
    options.configuration.domains = document.startingDomains(options.configuration.domains)
    var sink = SnapshotCollectingSink()
    let result = ReplayRun.run(
      options, inputs: [document.input], environment: quiet, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: quiet).rawValue
    return (sink.snapshots, status)
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
