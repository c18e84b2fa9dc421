#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp redact`: takes personal data out of an event log before it is shared, by the rules of
/// a policy file (``RedactionPolicy``).
///
/// Each line is redacted on its own, in its bytes (``Redactor``): a line that no rule changes is
/// copied byte for byte, a changed one keeps its bytes but for the values changed. The log is
/// read and written as a stream, in chunks; the output is written atomically, and never over
/// the log.
enum RedactCommand {
  static let spec = RaspCommandSpec(
    name: "rasp redact",
    abstract: "Take personal data out of an event log before it is shared.",
    discussion: """
      The policy file is a JSON object whose 'rules' array holds, for each path ('payload.email', \
      'userId', 'meta.*', as --ignore takes them), an action: 'hash' (HMAC-SHA256 of the value, \
      under the key of --key-file, so that equal values stay equal and --key-by still groups the \
      same events), 'drop', 'replace' (with 'value'), 'round' (numbers, with 'decimals') or \
      'shift' (numbers such as times, with 'by', so that their order is kept; an RFC 3339 \
      string by 'by' seconds, in its own form). The first rule \
      whose path matches a value, or one of its ancestors, applies to it. A path goes on into \
      the JSON text that a string holds ('payload.payload.latitude' in a kcat message), which \
      is written back as a string. With --log-format gpsd, 'GGA.lat', 'RMC.lon', ... name \
      fields of NMEA sentences ('round', 'replace', 'drop'; 'shift' of 'GGA.time', 'RMC.time', \
      'GLL.time' by seconds, RMC's date rolling over midnight), whose checksums are written anew. \
      With --log-format devtools, the rule of 'meta.timestamp' is done to the entries' \
      timestamps too.

      A line that no rule changes is copied byte for byte; a changed line keeps its bytes but \
      for the values changed, each written in place as compact JSON, and the members dropped, \
      with their commas. The log is read and written as a stream. The output is written \
      atomically, and never over the log.

      --verify then replays both logs with the options of 'rasp replay' given (--spec, \
      --domain, --key-by, ...): the redacted log's snapshots must be the original's, value by \
      value, with each string the policy changed changed alike, a rounded number within its \
      rounding, a dropped value absent, null or as before; its replay must end with the same \
      status, and no original value of a redacted path may be left anywhere in the output; \
      else it exits with 1, naming the first leak or difference.
      """,
    usage:
      "rasp redact <file> --policy <file> -o <file> [--key-file <file>] [--verify [<options>]]",
    arguments: [
      RaspArgumentSpec(
        name: "file",
        help: "The event log to redact (JSON lines, or with --log-format devtools a Redux "
          + "DevTools export).")
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
          + "that no original value of a redacted path is left in it; exit 1 if not."),
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
    let fail = spec.usageError
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
    // A gpsd log's sentences: a path such as 'GGA.lat' names a field of theirs.
    let policy = try RedactionPolicy(
      file: policyFile, bytes: environment.readFile(policyFile),
      sentences: parsed.value(.logFormat) == "gpsd")
    let key = try readKey(parsed, policy: policy, environment: environment, fail: fail)
    // A DevTools export is one document, redacted action by action (DevToolsRedaction).
    if parsed.isGiven(.logFormat) || parsed.isGiven(.map) {
      let replay = try DevToolsRedaction.options(parsed, domains: domains, environment: environment)
      if let replay {
        return try DevToolsRedaction.run(
          file: file, output: output, policy: policy, key: key, options: replay,
          verifies: parsed.flag(.verify), environment: environment)
      }
    }
    var options: ReplayOptions?
    // The format says how the log is read, gpsd's sentences too; the rest how --verify replays.
    let replayOnly = ReplayOptions.specs.map(\.name).filter { $0 != .logFormat && $0 != .map }
    if !parsed.flag(.verify), let given = replayOnly.first(where: { parsed.isGiven($0) }) {
      throw fail(
        "Option '--\(given.rawValue)' says how '--verify' replays: use it with '--verify'")
    }
    if parsed.flag(.verify) {
      var replay = try ReplayOptions(
        parsed: parsed, domains: domains, spec: spec, environment: environment)
      replay.configuration.interruption = nil
      replay.notes = []
      options = replay
    }
    var source = file == "-" ? environment.standardInput : try environment.openForReading(file)
    // --verify replays the log once more: standard input is kept, as it cannot be read twice.
    var keptInput: [UInt8]?
    if options != nil, file == "-" {
      keptInput = try SpecFiles.readAll(source, name: "standard input")
      source = .memory(JSONMemorySource(keptInput ?? []))
    }
    // The output is opened before the work, so that one that cannot be written is said first;
    // a failure on the way removes what was written.
    let writer = try environment.makeAtomicWriter(output)
    var redactor = Redactor(policy: policy, key: key)
    redactor.collectsChanges = options != nil
    var kept: [UInt8]? = options != nil ? [] : nil
    let result: Result
    do {
      let write = { (bytes: [UInt8]) throws(RaspCommandError) in
        try writer.write(bytes)
        kept?.append(contentsOf: bytes)
      }
      // --verify keeps each change's line and path, in order: on one thread.
      if redactor.collectsChanges || redactingThreads == 1 {
        result = try redact(&source, file: file, redactor: &redactor, write: write)
      } else {
        result = try redact(
          &source, file: file, redactor: redactor, threads: redactingThreads, write: write)
      }
      try writer.commit()
    } catch {
      writer.discard()
      throw error
    }
    if let first = result.firstNotJSON {
      let what =
        policy.sentenceRules.isEmpty ? "not JSON" : "neither JSON nor a sentence a rule names"
      RaspDiagnostics.warn(
        "rasp: warning: \(file):\(first): "
          + "\(result.notJSON == 1 ? "a line is" : "\(result.notJSON) lines are") \(what), "
          + "copied as \(result.notJSON == 1 ? "it is" : "they are"): no rule could read "
          + "\(result.notJSON == 1 ? "it" : "them")\n", to: environment)
    }
    RaspDiagnostics.write(
      "rasp: redacted '\(file)' into '\(output)': \(result.changedLines) of "
        + "\(result.lines) lines changed, \(result.changes) values\n", to: environment)
    if let options {
      let quiet = RedactReplayComparison.quiet(environment)
      let original: [UInt8]
      if let keptInput { original = keptInput } else { original = try environment.readFile(file) }
      if let problem = RedactVerification.firstProblem(
        original: original, file: file, redacted: kept ?? [], result: result, output: output,
        options: options, quiet: quiet)
      {
        RaspDiagnostics.write("rasp: error: --verify: \(problem)\n", to: environment)
        return .differences
      }
      RaspDiagnostics.write(
        "rasp: verified '\(output)': it replays as '\(file)' redacted, and no original "
          + "value of a redacted path is left in it\n", to: environment)
    }
    return .success
  }

  /// What ``redact(_:file:redactor:write:)`` did.
  struct Result {
    /// How many lines there were, and how many changed.
    var lines = 0
    var changedLines = 0
    /// How many values changed.
    var changes = 0
    /// How many lines were not JSON, and the first one's number.
    var notJSON = 0
    var firstNotJSON: Int?
    /// With ``Redactor/collectsChanges``: each string of a value changed, with the line
    /// (from 1) and path of its first change, and what the rules wrote, for `--verify`'s
    /// search.
    var originals = RedactLeakSearch.Originals()
    /// With ``Redactor/collectsChanges``: what each string changed became.
    var substitutions: [JSONValue: JSONValue] = [:]
    /// With ``Redactor/collectsChanges``: each number rounded, by its value, with the
    /// decimals it was rounded to.
    var rounded: [Double: Set<Int>] = [:]
    /// With ``Redactor/collectsChanges``: each number shifted, by its value, with what it
    /// became.
    var shifted: [Double: Set<Double>] = [:]
    /// With ``Redactor/collectsChanges``: each value dropped, and each value inside one.
    var dropped: Set<JSONValue> = []
  }

  /// How much output is gathered before it is written.
  static let outputChunk = 1 << 20

  /// Redacts a log line by line as it is read, and hands the output on in chunks.
  ///
  /// Memory stays flat: a chunk of input, the longest line, and a chunk of output.
  ///
  /// - Parameters:
  ///   - source: The log.
  ///   - file: Its name, for messages.
  ///   - redactor: The policy's redactor.
  ///   - write: Takes each chunk of output, in order.
  /// - Returns: The counts, and with ``Redactor/collectsChanges`` what `--verify` needs.
  /// - Throws: ``RaspCommandError/input(file:line:column:reason:)`` for a value its rule
  ///   cannot change; what `source` or `write` throws.
  static func redact(
    _ source: inout RaspInputSource, file: String, redactor: inout Redactor,
    write: ([UInt8]) throws(RaspCommandError) -> Void
  ) throws(RaspCommandError) -> Result {
    var result = Result()
    var buffer = [UInt8](repeating: 0, count: outputChunk)
    var filled = 0
    var output: [UInt8] = []
    output.reserveCapacity(outputChunk + outputChunk / 4)
    var isAtEnd = false
    while true {
      let count: Int
      do {
        count = try buffer.withUnsafeMutableBytes { raw in
          try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
        }
      } catch {
        throw .cannotOpen(file, reason: "\(error)")
      }
      if count == 0 { isAtEnd = true }
      filled += count
      let consumed = try buffer.withUnsafeBufferPointer { (bytes) throws(RaspCommandError) in
        try redactLines(
          UnsafeBufferPointer(rebasing: bytes[..<filled]), isAtEnd: isAtEnd, file: file,
          redactor: &redactor, result: &result, output: &output)
      }
      if output.count >= outputChunk || isAtEnd {
        try write(output)
        output.removeAll(keepingCapacity: true)
      }
      if isAtEnd { return result }
      // The unfinished line goes to the front, and the buffer grows for a line longer than it.
      buffer.withUnsafeMutableBufferPointer { bytes in
        let base = bytes.baseAddress.unsafelyUnwrapped
        (base).update(from: base + consumed, count: filled - consumed)
      }
      filled -= consumed
      if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
    }
  }

  /// Redacts the whole lines of `bytes` (and, at the end of the input, the last one without a
  /// line end), and returns how many bytes they took.
  static func redactLines(
    _ bytes: UnsafeBufferPointer<UInt8>, isAtEnd: Bool, file: String,
    redactor: inout Redactor, result: inout Result, output: inout [UInt8]
  ) throws(RaspCommandError) -> Int {
    var start = 0
    while start < bytes.count {
      var next: Int
      let base = bytes.baseAddress.unsafelyUnwrapped
      if let found = memchr(base + start, 0x0A, bytes.count - start) {
        next = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
      } else if isAtEnd {
        next = bytes.count
      } else {
        break
      }
      result.lines += 1
      var end = next
      if end > start, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
      if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[start..<next])
      let content = UnsafeBufferPointer(rebasing: bytes[start..<end])
      defer { start = next }
      if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        output.append(contentsOf: line)
        continue
      }
      switch redactor.redact(line: content, into: &output) {
      case .unchanged:
        output.append(contentsOf: line)
      case .notJSON:
        result.notJSON += 1
        if result.firstNotJSON == nil { result.firstNotJSON = result.lines }
        output.append(contentsOf: line)
      case .mistake(let mistake):
        let column = JSONTextPosition(offset: mistake.offset, in: content).column
        throw .input(
          file: file, line: result.lines, column: column,
          reason: "at \(mistake.path): \(mistake.reason)")
      case .changed(let changes):
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[end..<next]))
        result.changedLines += 1
        result.changes += changes
        for change in redactor.changes {
          RedactVerification.record(change, line: result.lines, in: &result)
        }
      }
    }
    return start
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
