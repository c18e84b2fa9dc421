import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp check`: replays event logs and compares the snapshots with a golden file, or records
/// the golden file.
///
/// The replay takes every option of `rasp replay` but `--pretty` (a golden file holds one
/// snapshot per line). The comparison streams: the golden file is read a line at a time
/// alongside the replay (``CheckSink``). The report goes to standard output, as diff(1) prints
/// its differences there, and a one-line summary to standard error; the status is diff(1)'s:
/// 0 equal, 1 different, 2 trouble. Recording writes the golden file atomically
/// (``RaspAtomicFileWriter``), and only after a replay without errors; over a golden file that
/// exists, it summarizes what changed (``GoldenFileChanges``), and leaves the file as it was
/// when nothing did. `--color` covers the report and the diagnostics.
enum CheckCommand {
  static let spec = RaspCommandSpec(
    name: "rasp check",
    abstract: "Replay event logs and compare the snapshots with a golden file.",
    discussion: """
      The logs are replayed as by 'rasp replay', with the same options, and each snapshot is \
      compared with the next line of the golden file by meaning: key order, whitespace and \
      the spelling of numbers never matter. Each differing snapshot, up to --max-diffs, is \
      printed as a tree of '-' expected and '+' actual lines, then the number of further \
      differing, missing and extra snapshots; a one-line summary goes to standard error.

      Recording (--update, --record) over a golden file that exists says which snapshots \
      changed, were added or were removed, and leaves the file as it was when none did. It is \
      refused when the CI environment variable is set, unless RASP_ALLOW_RECORD=1.

      A Redux DevTools export (--log-format devtools) without --golden is checked against the \
      states it recorded: the state after each of its actions is compared with its \
      'computedStates', for the spec's domains (see docs/devtools.md).

      Assertions (--assert, --assert-file, --assert-final) are checked against the state \
      after every event, with or without a golden file: each violation, up to \
      --max-failures, is reported with its event, its place and the values before and \
      after it of every path the assertion reads (see docs/debugging.md).
      """,
    usage:
      "rasp check (--golden <file> [--update | --record <mode>] | --assert <expr> ...) "
      + "[--ignore <path> ...] [--precision <epsilon>] [<options>] [<file> ...]",
    arguments: [
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.", isRepeatable: true
      )
    ],
    options: [
      RaspOptionSpec(
        name: .golden, valueName: "file",
        help:
          "The golden file: the expected snapshots, one JSON value per line (required, but for "
          + "a DevTools export, which records its own)."),
      RaspOptionSpec(
        name: .update,
        help:
          "Write the golden file from the replay instead of comparing with it (the same as "
          + "--record all)."
      ),
      RaspOptionSpec(
        name: .record, valueName: "mode", allowedValues: ["never", "missing", "all"],
        help:
          "When to write the golden file instead of comparing: 'never' (the default), 'missing' "
          + "(when it does not exist yet) or 'all'."
      ),
    ] + AssertionOptions.specs + [AssertionOptions.appliedLinesSpec] + ComparisonOptions.specs
      + ReplayOptions.specs.filter { $0.name != .pretty }
      + ReplayOptions.checkpointSpecs(
        after: "check the events after that point (with --assert; a final assertion sees "
          + "every key)"),
    exitStatuses: [
      ("0", "The snapshots match the golden file (or it was written), and the assertions hold."),
      ("1", "They differ, or an assertion is violated."),
      (
        "2",
        "Bad input, a golden file that is missing or cannot be written, recording "
          + "refused under CI, or an assertion that cannot be evaluated."
      ),
      ("64", "A usage error."),
      ("129, 130, 143", "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM."),
    ])

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let fail = spec.usageError
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    if options.emitsDevTools {
      throw fail("'--emit devtools' writes an export for Redux DevTools: use it with 'rasp replay'")
    }
    let comparison = try ComparisonOptions(parsed: parsed, spec: spec)
    try ReplayOptions.checkIgnoredPaths(
      parsed.all(.ignore), configuration: options.configuration, fail: fail)
    var assertions = try AssertionOptions(
      parsed: parsed, domains: options.configuration.domains, spec: spec,
      environment: environment)
    if parsed.flag(.appliedLines) {
      guard !assertions.isEmpty else {
        throw fail(
          "Option '--applied-lines' lists the lines the assertions were checked on: give "
            + "'--assert <expr>'")
      }
      guard comparison.format == .json else {
        throw fail("Option '--applied-lines' adds to the JSON report: give '--format json'")
      }
      assertions.reportsAppliedLines = true
    }
    if !assertions.isEmpty {
      if parsed.flag(.update) || (parsed.value(.record).map { $0 != "never" } ?? false) {
        throw fail(
          "Assertions are checked against a replay, not while recording a golden file: "
            + "drop '--assert' or '--\(parsed.flag(.update) ? "update" : "record")'")
      }
      if parsed.value(.golden) == nil {
        return try checkAssertions(
          assertions, options: options, comparison: comparison, environment: environment)
      }
    }
    if let option = [RaspOptionName.saveState, .resume, .checkpointEvery].first(where: {
      parsed.isGiven($0)
    }) {
      throw fail(
        "Option '--\(option.rawValue)' goes on from a checkpoint with '--assert' alone: a golden "
          + "file is compared from its first line")
    }
    if options.configuration.format.document == .devtools, parsed.value(.golden) == nil,
      !parsed.flag(.update), parsed.value(.record) == nil
    {
      try checkRecordedOptions(parsed, options: options, fail: fail)
      return try checkRecorded(options, comparison: comparison, environment: environment)
    }
    guard let golden = parsed.value(.golden) else {
      throw fail("Missing expected argument '--golden <file>'")
    }
    if golden == "-" {
      throw fail("The golden file must be a file, not standard input ('-')")
    }
    if parsed.flag(.update), parsed.value(.record) != nil {
      throw fail("Options '--update' and '--record <mode>' cannot be used together")
    }
    let mode =
      parsed.flag(.update) ? .all : parsed.value(.record).flatMap(RecordMode.init) ?? .never
    let exists = environment.fileExists(golden)
    switch try mode.action(golden: golden, exists: exists, environment: environment) {
    case .check:
      return try check(
        golden, options: options, comparison: comparison, assertions: assertions,
        environment: environment)
    case .record:
      return try record(golden, existed: exists, options: options, environment: environment)
    }
  }

  /// Replays and compares with the golden file; prints the report and the summary.
  static func check(
    _ golden: String, options: ReplayOptions, comparison: ComparisonOptions,
    assertions: AssertionOptions? = nil, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    var options = options
    let observer = assertions.flatMap { $0.isEmpty ? nil : observe($0, in: &options) }
    let lines = try SnapshotLines(file: golden, environment: environment)
    var sink = CheckSink(
      golden: lines, options: comparison.diff, keepingAtMost: comparison.differenceLimit,
      ignoredTexts: comparison.ignoredTexts, fileNames: options.displayNames)
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    if let error = sink.error { throw error }
    let replayStatus = ReplayRun.finish(result, options: options, environment: environment)
    // A replay stopped by a bad line, or by a signal, compared only part of the log: report
    // the line alone.
    if result.interruptingSignal != nil { return replayStatus }
    if result.failure != nil || result.ending == .stoppedAtBadLine { return .failure }
    let status = try printReport(
      sink.report, notes: [], comparison: comparison, replayStatus: replayStatus,
      environment: environment)
    guard let observer else { return status }
    return try printAssertionReport(
      observer, options: options, comparison: comparison, status: status,
      environment: environment)
  }

  /// Prints a comparison's report, in the format of `--format`, then the notes, the warning
  /// about `--ignore` paths that matched nothing and the summary on standard error; chooses
  /// the status.
  private static func printReport(
    _ report: ComparisonReport, notes: [String], comparison: ComparisonOptions,
    replayStatus: RaspExitCode, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    switch comparison.format {
    case .text:
      try RaspCommandLine.printOutput(
        comparison.printedText(report.text, environment: environment), environment: environment)
    case .json: try RaspCommandLine.printOutput(report.json, environment: environment)
    }
    for note in notes { RaspDiagnostics.write(note, to: environment) }
    if let warning = report.comparison.ignored.warning {
      RaspDiagnostics.write(warning, to: environment)
    }
    RaspDiagnostics.write(report.summary, to: environment)
    if replayStatus != .success { return .failure }
    return report.comparison.isEqual ? .success : .differences
  }

  /// Refuses what a check against an export's recorded states cannot do: it compares whole
  /// snapshots, one per action of one export.
  private static func checkRecordedOptions(
    _ parsed: RaspParsedArguments, options: ReplayOptions, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    if options.files.count != 1 {
      throw fail(
        "A check against the states a DevTools export recorded takes one export, not "
          + "\(options.files.count) files; give '--golden <file>' to compare with a golden file")
    }
    let conflicting = [RaspOptionName.select, .emit, .withEvent, .keyBy, .since, .at, .hide].first {
      parsed.isGiven($0)
    }
    if let conflicting {
      throw fail(
        "Option '--\(conflicting.rawValue)' cannot be used in a check against the states a "
          + "DevTools export recorded: each action's whole state is compared")
    }
  }

  /// Replays a Redux DevTools export and compares each action's state with the one the app
  /// recorded after it (``RecordedStatesSink``); prints the report and the summary.
  static func checkRecorded(
    _ options: ReplayOptions, comparison: ComparisonOptions, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    let file = options.files[0]
    let document = try ImportedDocument.open(
      file, name: options.displayNames[0], environment: environment)
    var started = options
    started.configuration.domains = document.startingDomains(options.configuration.domains)
    let domains = options.configuration.domains.map(\.name)
    let compared =
      options.specDomainNames.isEmpty
      ? domains : options.specDomainNames.filter(domains.contains)
    var sink = try RecordedStatesSink(
      document: document, initialSnapshot: started.initialSnapshot,
      comparedDomains: Set(compared), isFinal: options.isFinal, options: comparison.diff,
      keepingAtMost: comparison.differenceLimit, ignoredTexts: comparison.ignoredTexts)
    let result = ReplayRun.run(
      options, environment: environment, opened: [0: document], into: &sink)
    if let error = sink.error { throw error }
    sink.finish(linesRead: result.statistics.read - result.statistics.skippedInExport)
    let replayStatus = ReplayRun.finish(result, options: options, environment: environment)
    if result.interruptingSignal != nil { return replayStatus }
    if result.failure != nil || result.ending == .stoppedAtBadLine { return .failure }
    if let error = sink.nothingComparedError { throw error }
    return try printReport(
      sink.report, notes: [sink.uncomparedNote, sink.interruptionNote].compactMap { $0 },
      comparison: comparison, replayStatus: replayStatus, environment: environment)
  }

  /// Replays into a new golden file, which replaces the old one only if the replay succeeded
  /// and something changed, and says what did.
  static func record(
    _ golden: String, existed: Bool, options: ReplayOptions, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    if let input = options.files.first(where: { $0 != "-" && environment.isSameFile($0, golden) }) {
      throw .failure(
        "refusing to record '\(golden)': it is the event log '\(input)', which recording would "
          + "replace")
    }
    // The old file, read alongside the replay to say what changes; one that cannot be opened
    // is replaced all the same.
    let previous = existed ? try? SnapshotLines(file: golden, environment: environment) : nil
    var sink = GoldenFileSink(file: try environment.makeAtomicWriter(golden), previous: previous)
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    if let error = sink.error { throw error }
    let status = ReplayRun.finish(result, options: options, environment: environment)
    guard status == .success, result.failure == nil else {
      sink.file.discard()
      let state = existed ? "it is unchanged" : "it was not created"
      let cause = result.interruptingSignal == nil ? "errors" : "an interruption"
      RaspDiagnostics.write(
        "rasp: not recording '\(golden)' after \(cause): \(state)\n", to: environment)
      return status == .success ? .failure : status
    }
    guard let changes = sink.changes else {
      try sink.file.commit()
      RaspDiagnostics.write(
        "rasp: recorded \(ComparisonReport.count(sink.count, "snapshot")) in '\(golden)'\n",
        to: environment)
      return .success
    }
    if changes.hasChanges {
      try sink.file.commit()
    } else {
      sink.file.discard()
    }
    RaspDiagnostics.write(changes.summary(golden: golden), to: environment)
    return .success
  }
}
