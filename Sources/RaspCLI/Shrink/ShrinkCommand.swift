import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp shrink`: cuts a failing event log down to the fewest events that still fail the same
/// way, for a regression test or a bug report.
///
/// The log's lines are tried in subsets (``DeltaDebugging``): first whole keys, with
/// `--key-by`, then single events, until removing any one remaining event makes the failure
/// go away. Each candidate is replayed in this process, from memory (``ShrinkFailure``), from
/// the state saved before its first change (``ShrinkStates``); only `--cmd` runs a process per
/// try. The output is a subset of the log's lines, byte for byte,
/// written atomically, and never over the log.
enum ShrinkCommand {
  static let spec = RaspCommandSpec(
    name: "rasp shrink",
    abstract: "Cut a failing event log down to the fewest events that still fail.",
    discussion: """
      What "fails" means is one of: --fails-with <status>, the status 'rasp replay' ends with (2 \
      for a bad line), with the same mistake as the whole log's first bad line; --golden <file>, a \
      snapshot differs from its golden line at the same paths as the whole log's first difference \
      does (snapshots missing at the end or extra do not count); --cmd <command>, a shell command \
      run with the candidate log's file as $1 exits with 0; --assert <expr> (or --assert-file, \
      --assert-final), a state violates an assertion, as in 'rasp check', the same one first as \
      in the whole log.

      With --key-by, whole keys are removed first; then single events, by delta debugging (ddmin), \
      until removing any one remaining event makes the failure go away: the result is 1-minimal. \
      Each candidate is replayed in this process, from the state saved before its first \
      changed line (--from-start: from the first line). It is deterministic. The output holds \
      lines of the log, byte for byte, in their order, so it is in the log's format; --payloads \
      then makes each remaining event smaller, field by field, and writes a changed line as \
      compact JSON. A Redux DevTools export (--log-format devtools) shrinks into an export of \
      the same shape with the kept actions. A summary on standard error says how many keys \
      and events there were and are left, and how many replays it took.

      --budget and --time bound the search, and Ctrl-C stops it: the smallest failing log found so \
      far is written, and said not to be minimal.
      """,
    usage:
      "rasp shrink <file> -o <file> (--fails-with <status> | --golden <file> | --cmd <command> "
      + "| --assert <expr> ...) [--payloads] [--budget <n>] [--time <seconds>] [<options>]",
    arguments: [
      RaspArgumentSpec(name: "file", help: "The event log that fails.")
    ],
    options: [
      RaspOptionSpec(
        name: .output, short: "o", valueName: "file",
        help:
          "Write the shrunk log to <file>, atomically (required); never the log itself."),
      RaspOptionSpec(
        name: .failsWith, valueName: "status",
        help:
          "The log fails when its replay ends with exit status <status>, as 'rasp replay' "
          + "would (2 for a bad line), and with the same first mistake as the whole log."),
      RaspOptionSpec(
        name: .golden, valueName: "file",
        help:
          "The log fails when a snapshot differs from its line in <file>, at the same paths as "
          + "the whole log's first difference."),
      RaspOptionSpec(
        name: .cmd, valueName: "command",
        help:
          "The log fails when the shell command <command>, run with the candidate log's file "
          + "as $1, exits with 0 (one process per try)."),
      RaspOptionSpec(
        name: .assert, valueName: "expr", isRepeatable: true,
        help:
          "The log fails when a state violates <expr>, a jq-like assertion as 'rasp check "
          + "--assert' reads it (see docs/debugging.md), the same one first as in the whole "
          + "log; repeat for several."),
      RaspOptionSpec(
        name: .assertFile, valueName: "file", isRepeatable: true,
        help: "Read such assertions from <file>, one per line; '#' starts a comment."),
      RaspOptionSpec(
        name: .assertFinal, valueName: "expr", isRepeatable: true,
        help:
          "The log fails when its last state (each key's, with --key-by) violates <expr>."),
      RaspOptionSpec(
        name: .payloads,
        help:
          "Then shrink each remaining event: drop fields, empty or halve strings, drop array "
          + "elements, where the failure stays; a changed line is written as compact JSON."),
      RaspOptionSpec(
        name: .fromStart,
        help:
          "Replay every candidate from the log's first line, not from the state saved before "
          + "its first change: the same result, slower; for comparison."),
      RaspOptionSpec(
        name: .budget, valueName: "n",
        help: "Stop after <n> replays, with the smallest failing log so far (not minimal)."),
      RaspOptionSpec(
        name: .time, valueName: "seconds",
        help:
          "Stop after <seconds> seconds, with the smallest failing log so far (not minimal)."),
      RaspOptionSpec(
        name: .ignore, valueName: "path", isRepeatable: true,
        help: "With --golden, leave out differences at <path> and below it, as 'rasp check' does."),
      RaspOptionSpec(
        name: .precision, valueName: "epsilon",
        help: "With --golden, count numbers as equal when they differ by at most <epsilon>."),
    ] + ReplayOptions.specs.filter { !excludedReplayOptions.contains($0.name) },
    exitStatuses: [
      ("0", "The shrunk log was written (see standard error for whether it is minimal)."),
      (
        "2",
        "The log does not fail in the first place (nothing is written), or cannot be read, "
          + "or the output cannot be written."
      ),
      ("64", "A usage error."),
      (
        "129, 130, 143",
        "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM, after writing the smallest failing log "
          + "so far."
      ),
    ])

  /// The options of `rasp replay` that a shrink has no use for: it reads one file, prints no
  /// snapshots; its progress line is of the search, not of each try.
  static let excludedReplayOptions: Set<RaspOptionName> = [.concat, .pretty, .stats]

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let fail = spec.usageError
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let file = try parsed.onlyLog(describedAs: "the event log that fails", spec: spec)
    if file == "-" {
      throw fail("The event log must be a file, not standard input ('-'): it is read many times")
    }
    guard let output = parsed.value(.output) else {
      throw fail("Missing expected argument '-o <file>': where to write the shrunk log")
    }
    if output == "-" {
      throw fail("The output must be a file, not standard output ('-')")
    }
    if output == file || environment.isSameFile(output, file) {
      throw .failure("refusing to write '\(output)': it is the event log '\(file)', to be kept")
    }
    var options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    if options.emitsDevTools {
      throw fail("Option '--emit devtools' writes an export: use it with 'rasp replay'")
    }
    let bound = try ShrinkBound(parsed, fail: fail)
    // The tries are silent and cannot be stopped half-way: the search stops between them.
    options.configuration.interruption = nil
    options.notes = []
    var failure = try failure(
      parsed, file: file, domains: options.configuration.domains, environment: environment,
      fail: fail)
    // How a replay ends does not depend on the snapshots it prints: with --fails-with, the
    // tries print only the last (each of a log whose states grow would cost its square).
    if case .exitStatus = failure, options.configuration.at == nil {
      options.configuration.isFinal = true
    }
    defer { if case .command(let command) = failure { command.remove() } }
    let fileBytes = try environment.readFile(file)
    // A DevTools export is shrunk over the lines it makes, and written as an export again.
    var devTools: ShrinkDevTools?
    if options.configuration.format.document == .devtools {
      let export = try ShrinkDevTools(bytes: fileBytes, name: file)
      options.configuration.domains = export.document.startingDomains(
        options.configuration.domains)
      devTools = export
    }
    let bytes = devTools?.lines ?? fileBytes
    // An output that cannot be written is said before the search, not after it.
    try environment.makeAtomicWriter(output).discard()
    let log = ShrinkLog(bytes: bytes, pinned: devTools?.pinnedLines ?? 0)
    let quiet = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: DiscardingOutput(),
      standardError: DiscardingOutput(), variables: environment.variables,
      workingDirectory: environment.workingDirectory)
    // Each try goes on from the state its candidate shares with the current log, unless
    // --from-start asks for the plain ddmin, for comparison.
    let resumes = !parsed.flag(.fromStart) && failure.resumes(options)
    let states = try checkFails(
      &failure, bytes: bytes, commandBytes: fileBytes, file: file, options: options,
      savingEvery: resumes ? ShrinkStates.interval(forLines: log.lines.count) : nil,
      environment: environment, quiet: quiet)
    let keyPath = options.configuration.keyPath
    let payloads = parsed.flag(.payloads)
    var search = ShrinkSearch(
      log: log, failure: failure, options: options, environment: quiet, bound: bound,
      interruption: environment.interruption,
      states: resumes ? ShrinkStates(log: bytes, saved: states) : nil)
    search.devTools = devTools
    let progress = search.progress
    let display = ProgressDisplay.start(
      counting: ReplayProgress(totalBytes: nil), choice: options.progress, readsTerminal: false,
      in: environment, describing: { progress.line(elapsed: $0) })
    defer { display?.stop() }
    if let interruption = environment.interruption {
      interruption.watching { search.run(keyPath: keyPath, payloads: payloads) }
    } else {
      search.run(keyPath: keyPath, payloads: payloads)
    }
    display?.stop()
    let writer = try environment.makeAtomicWriter(output)
    try writer.write(try search.shrunkBytes())
    try writer.commit()
    RaspDiagnostics.write(
      "rasp: shrunk '\(file)' into '\(output)': \(search.summary)\n", to: environment)
    if let stop = search.stop {
      RaspDiagnostics.write(
        "rasp: note: the result is not minimal: \(stop.reason)\n", to: environment)
      if case .interrupted(let signal) = stop { return .signal(signal) }
    }
    return .success
  }

  /// Reads what "fails" means from the command line: exactly one of `--fails-with`,
  /// `--golden` and `--cmd`.
  private static func failure(
    _ parsed: RaspParsedArguments, file: String, domains: [any RaspDomain],
    environment: RaspEnvironment, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> ShrinkFailure {
    let assertionOptions: [RaspOptionName] = [.assert, .assertFile, .assertFinal]
    let given = [RaspOptionName.failsWith, .golden, .cmd, .assert, .assertFile, .assertFinal]
      .filter { parsed.isGiven($0) }
    let meanings =
      given.filter { !assertionOptions.contains($0) }.count
      + (given.contains(where: assertionOptions.contains) ? 1 : 0)
    guard meanings == 1 else {
      throw fail(
        given.isEmpty
          ? "Missing what 'fails' means: give '--fails-with <status>', '--golden <file>', "
            + "'--cmd <command>' or '--assert <expr>'"
          : "Options '--\(given[0].rawValue)' and '--\(given[1].rawValue)' cannot be used "
            + "together: give one meaning of 'fails'")
    }
    if let text = parsed.value(.failsWith) {
      guard let status = Int32(text), (0...255).contains(status) else {
        throw fail(
          "Invalid value '\(text)' for '--fails-with <status>': expected an exit status from "
            + "0 to 255, such as 2")
      }
      return .exitStatus(ShrinkFailure.StatusCheck(status: status, reason: nil))
    }
    if let golden = parsed.value(.golden) {
      if golden == "-" {
        throw fail("The golden file must be a file, not standard input ('-')")
      }
      let comparison = try ComparisonOptions(parsed: parsed, spec: spec)
      return .golden(
        ShrinkFailure.GoldenCheck(
          name: golden, bytes: try environment.readFile(golden), options: comparison.diff,
          paths: nil))
    }
    if given.contains(where: assertionOptions.contains) {
      let assertions = try AssertionOptions(
        parsed: parsed, domains: domains, spec: spec, environment: environment)
      return .assertions(ShrinkFailure.AssertionCheck(options: assertions, first: nil))
    }
    let text = parsed.value(.cmd) ?? ""
    if text.allSatisfy(\.isWhitespace) {
      throw fail("Invalid value '\(text)' for '--cmd <command>': expected a shell command")
    }
    return .command(
      try ShrinkShellCommand(text, logName: file, variables: environment.variables))
  }

  /// Checks that the whole log fails, and learns what its failure looks like (a golden
  /// check's differing paths).
  ///
  /// - Throws: ``RaspCommandError/failure(_:)`` when it does not fail.
  ///
  /// - Returns: The states its replay saved, every `interval` events (none without one).
  private static func checkFails(
    _ failure: inout ShrinkFailure, bytes: [UInt8], commandBytes: [UInt8], file: String,
    options: ReplayOptions,
    savingEvery interval: Int?, environment: RaspEnvironment, quiet: RaspEnvironment
  ) throws(RaspCommandError) -> [ReplayCheckpoint] {
    let replay = ShrinkReplay(bytes: bytes, state: nil, interval: interval)
    switch failure {
    case .exitStatus(var check):
      let (actual, reason, states) = ShrinkFailure.exitStatus(
        of: replay, options: options, environment: quiet)
      if actual != check.status {
        throw .failure(
          "'\(file)' does not fail: its replay ends with status \(actual), not \(check.status); "
            + "nothing to shrink")
      }
      check.reason = reason
      failure = .exitStatus(check)
      return states
    case .golden(var check):
      let (paths, states) = check.firstDifferencePaths(of: replay, options, quiet)
      guard let paths else {
        throw .failure(
          "'\(file)' does not fail: no snapshot of its replay differs from its line in "
            + "'\(check.name)'; nothing to shrink")
      }
      check.paths = paths
      failure = .golden(check)
      return states
    case .assertions(var check):
      let (first, states) = check.firstViolation(of: replay, options, quiet)
      guard let first else {
        throw .failure(
          "'\(file)' does not fail: every state satisfies the assertions; nothing to shrink")
      }
      check.first = first
      failure = .assertions(check)
      return states
    case .command(let command):
      if !command.succeeds(with: commandBytes) {
        throw .failure(
          "'\(file)' does not fail: '--cmd' exits with a status other than 0 for it; "
            + "nothing to shrink")
      }
      return []
    }
  }
}
