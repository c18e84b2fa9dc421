import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp redact`: takes personal data out of an event log before it is shared, by the rules of
/// a policy file (``RedactionPolicy``).
///
/// Each line is redacted on its own (``Redactor``): a line that no rule changes is copied byte
/// for byte, a changed one is written as compact JSON. The output is written atomically, and
/// never over the log.
enum RedactCommand {
  static let spec = RaspCommandSpec(
    name: "rasp redact",
    abstract: "Take personal data out of an event log before it is shared.",
    discussion: """
      The policy file is a JSON object whose 'rules' array holds, for each path ('payload.email', \
      'userId', 'meta.*', as --ignore takes them), an action: 'hash' (HMAC-SHA256 of the value, \
      under the key of --key-file, so that equal values stay equal and --key-by still groups the \
      same events), 'drop', 'replace' (with 'value'), 'round' (numbers, with 'decimals') or \
      'shift' (numbers such as times, with 'by', so that their order is kept). The first rule \
      whose path matches a value, or one of its ancestors, applies to it.

      A line that no rule changes is copied byte for byte; a changed line is written as compact \
      JSON, its keys sorted, with its own line end. The output is written atomically, and never \
      over the log.

      --verify then replays both logs with the options of 'rasp replay' given (--spec, \
      --domain, --key-by, ...): the redacted log's snapshots must be the original's with each \
      string the policy changed changed alike, its replay must end with the same status, and \
      no original string of a redacted path may be left anywhere in the output; else it exits \
      with 1, naming the first leak or difference.
      """,
    usage:
      "rasp redact <file> --policy <file> -o <file> [--key-file <file>] [--verify [<options>]]",
    arguments: [
      RaspArgumentSpec(name: "file", help: "The event log to redact (JSON lines).")
    ],
    options: [
      RaspOptionSpec(
        name: .policy, valueName: "file",
        help: "Read the rules from <file>, a JSON policy (required; see docs/sharing.md)."),
      RaspOptionSpec(
        name: .output, short: "o", valueName: "file",
        help: "Write the redacted log to <file>, atomically (required); never the log itself."),
      RaspOptionSpec(
        name: .keyFile, valueName: "file",
        help:
          "Read the key of 'hash' from <file>, its bytes but a last line end (required when "
          + "a rule hashes); keep it secret, and the same to hash alike across logs."),
      RaspOptionSpec(
        name: .verify,
        help:
          "Then check that the redacted log replays as the original's replay redacted, and "
          + "that no original string of a redacted path is left in it; exit 1 if not."),
    ] + ReplayOptions.specs.filter { !ShrinkCommand.excludedReplayOptions.contains($0.name) },
    exitStatuses: [
      ("0", "The redacted log was written (and, with --verify, holds)."),
      (
        "1",
        "With --verify: an original value is left in the output, or the replays differ (the "
          + "output is written all the same)."
      ),
      (
        "2",
        "The log, the policy or the key cannot be read, the policy is not valid, a value "
          + "cannot be changed as its rule says (nothing is written), or the output cannot be "
          + "written."
      ),
      ("64", "A usage error."),
    ])

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    func fail(_ message: String) -> RaspCommandError {
      .usage(message, usage: spec.usage, command: spec.name)
    }
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let file = try parsed.onlyLog(describedAs: "the event log to redact", spec: spec)
    guard let policyFile = parsed.value(.policy) else {
      throw fail("Missing expected argument '--policy <file>': the rules of what to redact")
    }
    guard let output = parsed.value(.output) else {
      throw fail("Missing expected argument '-o <file>': where to write the redacted log")
    }
    if output == "-" {
      throw fail("The output must be a file, not standard output ('-')")
    }
    if output == file || (file != "-" && environment.isSameFile(output, file)) {
      throw .failure("refusing to write '\(output)': it is the event log '\(file)', to be kept")
    }
    let policy = try RedactionPolicy(file: policyFile, bytes: environment.readFile(policyFile))
    let key = try readKey(parsed, policy: policy, environment: environment, fail: fail)
    var options: ReplayOptions?
    let replayOnly = ReplayOptions.specs.compactMap { RaspOptionName(rawValue: $0.name) }
    if !parsed.flag(.verify), let given = replayOnly.first(where: { parsed.isGiven($0) }) {
      throw fail(
        "Option '--\(given.rawValue)' says how '--verify' replays: use it with '--verify'")
    }
    if parsed.flag(.verify) {
      if file == "-" { throw fail("With '--verify', the event log must be a file, not '-'") }
      var replay = try ReplayOptions(
        parsed: parsed, domains: domains, spec: spec, environment: environment)
      replay.configuration.interruption = nil
      replay.notes = []
      options = replay
    }
    let bytes = try environment.readFile(file)
    // An output that cannot be written is said before the work, not after it.
    try environment.makeAtomicWriter(output).discard()
    let redactor = Redactor(policy: policy, key: key)
    let result = try redact(bytes, file: file, redactor: redactor)
    let writer = try environment.makeAtomicWriter(output)
    try writer.write(result.bytes)
    try writer.commit()
    if let first = result.firstNotJSON {
      RaspDiagnostics.warn(
        "rasp: warning: \(file):\(first): "
          + "\(result.notJSON == 1 ? "a line is" : "\(result.notJSON) lines are") not JSON, "
          + "copied as \(result.notJSON == 1 ? "it is" : "they are"): no rule could read "
          + "\(result.notJSON == 1 ? "it" : "them")\n", to: environment)
    }
    RaspDiagnostics.write(
      "rasp: redacted '\(file)' into '\(output)': \(result.changedLines) of "
        + "\(result.lines) lines changed, \(result.changes) values\n", to: environment)
    if let options {
      let quiet = RaspEnvironment(
        standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
        standardError: DiscardingOutput(), variables: environment.variables,
        workingDirectory: environment.workingDirectory)
      if let problem = RedactVerification.firstProblem(
        original: bytes, file: file, result: result, output: output, options: options,
        quiet: quiet)
      {
        RaspDiagnostics.write("rasp: error: --verify: \(problem)\n", to: environment)
        return .differences
      }
      RaspDiagnostics.write(
        "rasp: verified '\(output)': it replays as '\(file)' redacted, and no original "
          + "string of a redacted path is left in it\n", to: environment)
    }
    return .success
  }

  /// What ``redact(_:file:redactor:)`` made.
  struct Result {
    /// The redacted log.
    var bytes: [UInt8] = []
    /// How many lines there were, and how many changed.
    var lines = 0
    var changedLines = 0
    /// How many values changed.
    var changes = 0
    /// How many lines were not JSON, and the first one's number.
    var notJSON = 0
    var firstNotJSON: Int?
    /// Every change, line by line (line numbers from 1), for `--verify`.
    var changesByLine: [(line: Int, changes: [Redactor.Change])] = []
  }

  /// Redacts a whole log, line by line.
  ///
  /// - Throws: ``RaspCommandError/input(file:line:column:reason:)`` for a value its rule
  ///   cannot change.
  static func redact(_ bytes: [UInt8], file: String, redactor: Redactor)
    throws(RaspCommandError) -> Result
  {
    var result = Result()
    result.bytes.reserveCapacity(bytes.count)
    var writer = JSONWriter()
    for (index, line) in ShrinkLog(bytes: bytes).lines.enumerated() {
      result.lines += 1
      var end = line.endIndex
      if end > line.startIndex, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
      if end > line.startIndex, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      let content = line[line.startIndex..<end]
      if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        result.bytes.append(contentsOf: line)
        continue
      }
      let parsed = content.withUnsafeBufferPointer { try? JSONParser.parse($0) }
      guard let event = parsed else {
        result.notJSON += 1
        if result.firstNotJSON == nil { result.firstNotJSON = index + 1 }
        result.bytes.append(contentsOf: line)
        continue
      }
      var path: [JSONPath.Component] = []
      var changes: [Redactor.Change] = []
      let redacted: JSONValue?
      do {
        redacted = try redactor.redact(event, at: &path, changes: &changes)
      } catch {
        throw .input(
          file: file, line: index + 1, column: nil, reason: "at \(error.path): \(error.reason)")
      }
      guard !changes.isEmpty, let redacted else {
        result.bytes.append(contentsOf: line)
        continue
      }
      writer.removeAll()
      writer.write(redacted)
      result.bytes.append(contentsOf: writer.bytes)
      result.bytes.append(contentsOf: line[end...])
      result.changedLines += 1
      result.changes += changes.count
      result.changesByLine.append((index + 1, changes))
    }
    return result
  }

  /// The key of `hash`, from `--key-file`: required when a rule hashes.
  private static func readKey(
    _ parsed: RaspParsedArguments, policy: RedactionPolicy, environment: RaspEnvironment,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> [UInt8] {
    guard let keyFile = parsed.value(.keyFile) else {
      if policy.hashes {
        throw fail(
          "Missing expected argument '--key-file <file>': the policy hashes, with a secret key")
      }
      return []
    }
    var key = try environment.readFile(keyFile)
    if key.last == UInt8(ascii: "\n") { key.removeLast() }
    if key.last == UInt8(ascii: "\r") { key.removeLast() }
    if key.isEmpty {
      throw .failure("the key file '\(keyFile)' is empty: a key of 32 random bytes will do")
    }
    return key
  }
}
