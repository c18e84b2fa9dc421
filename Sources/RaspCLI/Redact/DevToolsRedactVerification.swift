import RaspJSON
import RaspReplay

/// `rasp redact --verify` of a Redux DevTools export: the redacted export replays as the
/// original's replay, redacted, each from its own start state (`committedState`,
/// `preloadedState`), and no original string of a redacted path is left anywhere in it — in
/// its actions, its states, and in every string of it that holds JSON (`payload`, an action
/// written as a string, a `$jsan` Map), as ``RedactLeakSearch`` searches.
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

  /// The replay of an export, from its own start state.
  private static func replay(
    _ document: ImportedDocument, options: ReplayOptions, quiet: RaspEnvironment
  ) -> RedactReplayComparison.Replay {
    var options = options
    options.configuration.domains = document.startingDomains(options.configuration.domains)
    return RedactReplayComparison.replay(document.input, options: options, quiet: quiet)
  }
}
