import RaspJSON
import RaspReplay

/// `rasp redact --verify` of a Redux DevTools export: the redacted export replays as the
/// original's replay, redacted, each from its own start state (`committedState`,
/// `preloadedState`), and no original value of a redacted path is left anywhere in it — in
/// its actions, its states, and in every string of it that holds JSON (`payload`, an action
/// written as a string, a `$jsan` Map), as ``RedactLeakSearch`` searches. With a rule of
/// `meta.timestamp`, no entry of `actionsById` may keep a `timestamp` that the rule changes:
/// it is the time of its action's line.
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
    entryRule: RedactionPolicy.Rule?, options: ReplayOptions, environment: RaspEnvironment
  ) -> String? {
    if let entryRule, let leak = entryLeak(original: original, redacted: redacted, entryRule) {
      return leak
    }
    if let root = try? JSONNode.read(
      file: redacted.bytes, maximumDepth: JSONLimits.maximumWrittenDepth),
      let leak = RedactLeakSearch.firstLeak(in: root, of: result.originals)
    {
      let line = JSONTextPosition(offset: leak.offset, in: redacted.bytes).line
      return "\(redacted.name):\(line): at \(JSONPath(components: leak.path)): the value of "
        + "\(leak.original.path) at \(original.name):\(leak.original.line) is left in the output"
    }
    let quiet = RedactReplayComparison.quiet(environment)
    return RedactReplayComparison.firstDifference(
      original: (original.name, replay(original, options: options, quiet: quiet)),
      redacted: (redacted.name, replay(redacted, options: options, quiet: quiet)),
      result: result)
  }

  /// The first entry whose `timestamp` is the original's where `rule` changes it, as a
  /// message; `nil` when there is none.
  static func entryLeak(
    original: ImportedDocument, redacted: ImportedDocument, _ rule: RedactionPolicy.Rule
  ) -> String? {
    let kept = Dictionary(
      entryTimestamps(in: redacted.bytes).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for entry in entryTimestamps(in: original.bytes) {
      guard case .number(let time) = entry.value, let left = kept[entry.id],
        left.value == entry.value, changes(rule.action, time)
      else { continue }
      let line = JSONTextPosition(offset: left.offset, in: redacted.bytes).line
      let from = JSONTextPosition(offset: entry.offset, in: original.bytes).line
      return "\(redacted.name):\(line): at \(left.path): the value of meta.timestamp (the time "
        + "of the entry's action) at \(original.name):\(from) is left in the output"
    }
    return nil
  }

  /// Whether `action` makes a time other than it was.
  private static func changes(_ action: RedactionPolicy.Action, _ time: JSONNumber) -> Bool {
    switch action {
    case .hash, .drop: true
    case .replace(let value): value != .number(time)
    case .round(let decimals): Redactor.round(time, decimals: decimals) != time
    case .shift(let offset): Redactor.shift(time, by: offset) != time
    }
  }

  /// Each entry of `actionsById` with its `timestamp` (`nil` without one), where it is (the
  /// string's place, for one that `payload` holds) and its path.
  static func entryTimestamps(in bytes: [UInt8]) -> [(
    id: String, value: JSONValue?, offset: Int, path: String
  )] {
    guard
      let root = try? JSONNode.read(file: bytes, maximumDepth: JSONLimits.maximumWrittenDepth),
      let members = root.members
    else { return [] }
    var lifted = members
    var prefix = "actionsById"
    var heldAt: Int?
    if !members.contains(where: { $0.key == "actionsById" }),
      let payload = members.first(where: { $0.key == "payload" })?.value,
      case .string(let inner) = payload.content,
      let held = try? JSONNode.read(
        Array(inner.utf8), maximumDepth: JSONLimits.maximumWrittenDepth),
      let heldMembers = held.members
    {
      lifted = heldMembers
      prefix = "payload.actionsById"
      heldAt = payload.offset
    }
    guard let entries = lifted.first(where: { $0.key == "actionsById" })?.value.members else {
      return []
    }
    return entries.map { entry in
      let time = entry.value.members?.first(where: { $0.key == "timestamp" })?.value
      let path = JSONPath(components: [.key(entry.key), .key("timestamp")]).description
      let offset = heldAt ?? time?.offset ?? entry.value.offset
      return (entry.key, time?.json, offset, "\(prefix).\(path)")
    }
  }

  /// The replay of an export, from its own start state.
  private static func replay(
    _ document: ImportedDocument, options: ReplayOptions, quiet: RaspEnvironment
  ) -> RedactReplayComparison.Replay {
    var options = options
    options.configuration.domains = document.startingDomains(options.configuration.domains)
    return RedactReplayComparison.replay(document.input, options: options, quiet: quiet)
  }
}
