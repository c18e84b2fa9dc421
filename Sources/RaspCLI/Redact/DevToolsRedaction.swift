import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp redact` of a Redux DevTools export (`--log-format devtools`, or a map file whose
/// `document` is `devtools`): the policy's rules apply to each action of the export, as it is
/// written there (`payload.email` is the action's `payload`), and what they changed in the
/// actions is changed alike in the recorded states; the output is the export again.
///
/// Each action — of every line, and a skipped one too — is redacted on its own text by the
/// ``Redactor``: as written (its layout kept), or decoded to plain JSON when it holds `$jsan`
/// tags. Every string a rule changed (hashed, replaced) is then put as it became wherever it
/// is a value of `committedState`, `preloadedState` or `computedStates`, so that the states
/// stay those of the redacted actions. The rest of the export is copied byte for byte
/// (``DevToolsExport/edited(_:_:)``).
///
/// ```swift
/// let code = try DevToolsRedaction.run(
///   file: "session.json", output: "share.json", policy: policy, key: key, options: options,
///   verifies: true, environment: environment)
/// ```
enum DevToolsRedaction {
  /// The replay options of the command line when they read the log as a DevTools export;
  /// `nil` for another format.
  ///
  /// - Throws: A usage error for an option of `rasp replay` other than the format without
  ///   `--verify`, which alone replays.
  static func options(
    _ parsed: RaspParsedArguments, domains: [any RaspDomain], environment: RaspEnvironment
  ) throws(RaspCommandError) -> ReplayOptions? {
    let formatOptions: Set<RaspOptionName> = [.logFormat, .map]
    if !parsed.flag(.verify),
      let given = ReplayOptions.specs.map(\.name).first(where: {
        !formatOptions.contains($0) && parsed.isGiven($0)
      })
    {
      throw .usage(
        "Option '--\(given.rawValue)' says how '--verify' replays: use it with '--verify'",
        usage: RedactCommand.spec.usage, command: RedactCommand.spec.name)
    }
    var options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: RedactCommand.spec, environment: environment)
    guard options.configuration.format.document == .devtools else { return nil }
    options.configuration.interruption = nil
    options.notes = []
    return options
  }

  /// Redacts the export of `file` into `output`, and verifies it with `verifies`.
  ///
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` for a file that is
  ///   not an export, or a value its rule cannot change, at its place; what reading or
  ///   writing throws.
  static func run(
    file: String, output: String, policy: RedactionPolicy, key: [UInt8], options: ReplayOptions,
    verifies: Bool, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    let name = file == "-" ? "<stdin>" : file
    let document = try ImportedDocument.open(file, name: name, environment: environment)
    let writer = try environment.makeAtomicWriter(output)
    let redaction: Redaction
    do {
      redaction = try redact(document, policy: policy, key: key)
      try writer.write(redaction.bytes)
      try writer.commit()
    } catch {
      writer.discard()
      throw error
    }
    let changes = redaction.result.changes
    RaspDiagnostics.write(
      "rasp: redacted '\(name)' into '\(output)': \(redaction.changedActions) of "
        + "\(redaction.actions) actions changed, \(changes) value\(changes == 1 ? "" : "s")"
        + (redaction.states == 0
          ? "" : "; \(redaction.changedStates) of \(redaction.states) recorded states")
        + (redaction.entries == 0
          ? ""
          : "; \(redaction.entries) "
            + (redaction.entries == 1 ? "entry's timestamp " : "entries' timestamps ")
            + Self.participle(redaction.entryAction))
        + "\n",
      to: environment)
    guard verifies else { return .success }
    let redacted = try ImportedDocument.read(redaction.bytes, name: output)
    if let problem = DevToolsRedactVerification.firstProblem(
      original: document, redacted: redacted, result: redaction.result,
      entryRule: entryRule(policy), options: options, environment: environment)
    {
      RaspDiagnostics.write("rasp: error: --verify: \(problem)\n", to: environment)
      return .differences
    }
    RaspDiagnostics.write(
      "rasp: verified '\(output)': it replays as '\(name)' redacted, and no original "
        + "value of a redacted path is left in it\n", to: environment)
    return .success
  }

  /// What a redaction made.
  struct Redaction {
    /// The new export.
    let bytes: [UInt8]
    /// How many actions there are, and how many changed.
    let actions: Int
    let changedActions: Int
    /// How many recorded states there are, and how many changed.
    let states: Int
    let changedStates: Int
    /// How many entries' `timestamp`s the rule of `meta.timestamp` changed, and how.
    let entries: Int
    let entryAction: RedactionPolicy.Action?
    /// The values changed, and what `--verify` needs of them.
    let result: RedactCommand.Result
  }

  /// Redacts the actions of an export, and its states alike.
  static func redact(
    _ document: ImportedDocument, policy: RedactionPolicy, key: [UInt8]
  ) throws(RaspCommandError) -> Redaction {
    let export = document.export
    var redactor = Redactor(policy: policy, key: key)
    redactor.collectsChanges = true
    var result = RedactCommand.Result()
    var edit = DevToolsExportEdit()
    let actions = export.actions(in: document.bytes)
    for (position, action) in actions.enumerated() {
      guard let (text, count) = try redact(action, in: document, &redactor, &result) else {
        continue
      }
      edit.actions[position] = text
      result.changedLines += 1
      result.changes += count
    }
    // The states: by the rules, then with each string changed anywhere put as it became.
    let states = export.states(in: document.bytes)
    var redactedStates: [[UInt8]] = []
    for state in states {
      if let (text, _) = try redact(state, in: document, &redactor, &result) {
        redactedStates.append(text)
      } else {
        redactedStates.append(state.text)
      }
    }
    var strings: [String: String] = [:]
    for (original, redacted) in result.substitutions {
      if case .string(let from) = original, case .string(let to) = redacted { strings[from] = to }
    }
    for (position, text) in redactedStates.enumerated() {
      let substituted = substituting(strings, in: text)
      if substituted != states[position].text { edit.states[position] = substituted }
    }
    result.lines = actions.count
    var bytes: [UInt8]
    do {
      bytes = try export.edited(document.bytes, edit)
    } catch {
      let place = error.position(in: document.bytes)
      throw .invalidFile(
        document.name, line: place.line, column: place.column, path: error.path,
        reason: error.reason)
    }
    // The entries' times, which the actions' lines have as their `meta.timestamp`.
    var entries = 0
    let rule = entryRule(policy)
    if let rule {
      let redacted = try redactingEntryTimestamps(
        in: bytes, rule: rule, key: key, name: document.name)
      bytes = redacted.text
      entries = redacted.count
    }
    return Redaction(
      bytes: bytes, actions: actions.count, changedActions: result.changedLines,
      states: states.count, changedStates: edit.states.count, entries: entries,
      entryAction: rule?.action, result: result)
  }

  /// The text of an action (or a state) redacted, and how many values changed; `nil` when no
  /// rule changed it. The changes are recorded in `result`.
  private static func redact(
    _ action: DevToolsExport.Action, in document: ImportedDocument, _ redactor: inout Redactor,
    _ result: inout RedactCommand.Result
  ) throws(RaspCommandError) -> ([UInt8], Int)? {
    var output: [UInt8] = []
    let outcome = action.text.withUnsafeBufferPointer {
      redactor.redact(line: $0, into: &output)
    }
    let place = JSONTextPosition(offset: action.offset, in: document.bytes)
    switch outcome {
    case .unchanged, .notJSON:
      return nil
    case .mistake(let mistake):
      var line = place.line
      var column = place.column
      var reason = mistake.reason
      if action.isInString || action.isDecoded {
        let inner = JSONTextPosition(offset: mistake.offset, in: action.text)
        reason +=
          action.isDecoded
          ? " (at \(inner) of it decoded)" : " (at \(inner) of the string that holds it)"
      } else {
        let at = JSONTextPosition(offset: action.offset + mistake.offset, in: document.bytes)
        line = at.line
        column = at.column
      }
      throw .invalidFile(
        document.name, line: line, column: column, path: "\(action.path).\(mistake.path)",
        reason: reason)
    case .changed(let count):
      for change in redactor.changes {
        RedactVerification.record(change, line: place.line, in: &result)
      }
      return (output, count)
    }
  }

  /// The rule of each entry's `timestamp`, which an action's line has as its
  /// `meta.timestamp`: the first rule whose path matches `meta.timestamp` or `meta`.
  static func entryRule(_ policy: RedactionPolicy) -> RedactionPolicy.Rule? {
    let meta: [JSONPath.Component] = [.key("meta")]
    return policy.rules.first {
      $0.pattern.matches(meta) || $0.pattern.matches(meta + [.key("timestamp")])
    }
  }

  /// What an action did to a value, for the summary: `shifted`, `rounded`, ….
  static func participle(_ action: RedactionPolicy.Action?) -> String {
    switch action {
    case .hash: "hashed"
    case .drop: "dropped"
    case .replace: "replaced"
    case .round: "rounded"
    case .shift, nil: "shifted"
    }
  }

  /// An export's text with `rule`'s action done to the `timestamp` of each entry of
  /// `actionsById` — in a lifted state, and in one that `payload` holds as a string — the rest
  /// byte for byte, as ``Redactor`` redacts a line; and how many changed.
  ///
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` for a time the
  ///   rule cannot change (a string to round).
  static func redactingEntryTimestamps(
    in text: [UInt8], rule: RedactionPolicy.Rule, key: [UInt8], name: String
  ) throws(RaspCommandError) -> (text: [UInt8], count: Int) {
    let paths = ["actionsById.*.timestamp", "payload.actionsById.*.timestamp"]
    let rules = paths.compactMap { path in
      (try? JSONPath(path, allowsPatterns: true)).map {
        RedactionPolicy.Rule(text: rule.text, pattern: $0, action: rule.action)
      }
    }
    var redactor = Redactor(policy: RedactionPolicy(rules: rules), key: key)
    var output: [UInt8] = []
    let outcome = text.withUnsafeBufferPointer { redactor.redact(line: $0, into: &output) }
    switch outcome {
    case .unchanged, .notJSON:
      return (text, 0)
    case .changed(let count):
      return (output, count)
    case .mistake(let mistake):
      let place = JSONTextPosition(offset: mistake.offset, in: text)
      throw .invalidFile(
        name, line: place.line, column: place.column, path: mistake.path,
        reason: mistake.reason + " (the rule '\(rule.text)' of meta.timestamp does it to "
          + "each entry's timestamp)")
    }
  }

  /// Where the JSON value that starts at `offset` of `text` ends.
  private static func valueEnd(in text: [UInt8], at offset: Int) -> Int {
    text.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer, position: offset)
      _ = try? scanner.skipValue()
      return scanner.position
    }
  }

  /// A JSON text with each string value that `map` has put as it says (not keys, nor the
  /// text of a `$jsan` tag), the rest byte for byte.
  static func substituting(_ map: [String: String], in text: [UInt8]) -> [UInt8] {
    guard !map.isEmpty,
      let root = try? JSONNode.read(text, maximumDepth: JSONLimits.maximumWrittenDepth)
    else { return text }
    var edits: [(offset: Int, value: String)] = []
    func walk(_ node: JSONNode) {
      switch node.content {
      case .string(let value):
        if let new = map[value] { edits.append((node.offset, new)) }
      case .array(let elements):
        elements.forEach(walk)
      case .object(let members):
        if members.count == 1, members[0].key == "$jsan" { return }
        for member in members { walk(member.value) }
      case .null, .bool, .number:
        break
      }
    }
    walk(root)
    guard !edits.isEmpty else { return text }
    var out: [UInt8] = []
    var copied = 0
    text.withUnsafeBufferPointer { buffer in
      for edit in edits {
        var scanner = JSONScanner(buffer, position: edit.offset)
        _ = try? scanner.skipValue()
        out += buffer[copied..<edit.offset]
        var writer = JSONWriter()
        writer.writeString(edit.value)
        out += writer.bytes
        copied = scanner.position
      }
      out += buffer[copied...]
    }
    return out
  }
}
