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
        + (redaction.shiftedEntries == 0
          ? "" : "; \(redaction.shiftedEntries) entries' timestamps shifted")
        + "\n",
      to: environment)
    guard verifies else { return .success }
    let redacted = try ImportedDocument.read(redaction.bytes, name: output)
    if let problem = DevToolsRedactVerification.firstProblem(
      original: document, redacted: redacted, result: redaction.result, options: options,
      environment: environment)
    {
      RaspDiagnostics.write("rasp: error: --verify: \(problem)\n", to: environment)
      return .differences
    }
    RaspDiagnostics.write(
      "rasp: verified '\(output)': it replays as '\(name)' redacted, and no original "
        + "string of a redacted path is left in it\n", to: environment)
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
    /// How many entries' `timestamp`s a `shift` of `meta.timestamp` moved.
    let shiftedEntries: Int
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
    var shiftedEntries = 0
    do {
      var bytes = try export.edited(document.bytes, edit)
      // The entries' times, which the actions' lines have as their `meta.timestamp`.
      if let offset = entryShift(policy) {
        let shifted = shiftingEntryTimestamps(in: bytes, by: offset)
        bytes = shifted.text
        shiftedEntries = shifted.count
      }
      return Redaction(
        bytes: bytes, actions: actions.count, changedActions: result.changedLines,
        states: states.count, changedStates: edit.states.count,
        shiftedEntries: shiftedEntries, result: result)
    } catch {
      let place = error.position(in: document.bytes)
      throw .invalidFile(
        document.name, line: place.line, column: place.column, path: error.path,
        reason: error.reason)
    }
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

  /// What a `shift` of `meta.timestamp` adds to each entry's `timestamp`: the `by` of the
  /// first rule whose path matches `meta.timestamp` or `meta`, when it shifts; `nil` else.
  static func entryShift(_ policy: RedactionPolicy) -> JSONNumber? {
    let meta: [JSONPath.Component] = [.key("meta")]
    let rule = policy.rules.first {
      $0.pattern.matches(meta) || $0.pattern.matches(meta + [.key("timestamp")])
    }
    guard let rule, case .shift(let offset) = rule.action else { return nil }
    return offset
  }

  /// A lifted state's text (or an export whose `payload` string holds one) with `offset`
  /// added to the `timestamp` of each entry of `actionsById`, the rest byte for byte; and how
  /// many changed.
  static func shiftingEntryTimestamps(in text: [UInt8], by offset: JSONNumber) -> (
    text: [UInt8], count: Int
  ) {
    guard let root = try? JSONNode.read(file: text, maximumDepth: JSONLimits.maximumWrittenDepth),
      let members = root.members
    else { return (text, 0) }
    var edits: [(range: Range<Int>, bytes: [UInt8])] = []
    var count = 0
    if let entries = members.first(where: { $0.key == "actionsById" })?.value.members {
      for entry in entries {
        guard let time = entry.value.members?.first(where: { $0.key == "timestamp" })?.value,
          case .number(let number) = time.content,
          let shifted = Redactor.shift(number, by: offset), shifted != number
        else { continue }
        var writer = JSONWriter()
        writer.writeNumber(shifted)
        edits.append((time.offset..<valueEnd(in: text, at: time.offset), writer.bytes))
        count += 1
      }
    } else if let payload = members.first(where: { $0.key == "payload" })?.value,
      case .string(let inner) = payload.content, inner.first == "{"
    {
      let held = shiftingEntryTimestamps(in: Array(inner.utf8), by: offset)
      guard held.count > 0 else { return (text, 0) }
      var writer = JSONWriter()
      writer.writeString(String(decoding: held.text, as: UTF8.self))
      edits.append((payload.offset..<valueEnd(in: text, at: payload.offset), writer.bytes))
      count = held.count
    }
    guard !edits.isEmpty else { return (text, 0) }
    var out: [UInt8] = []
    var copied = 0
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      out += text[copied..<edit.range.lowerBound]
      out += edit.bytes
      copied = edit.range.upperBound
    }
    out += text[copied...]
    return (out, count)
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
