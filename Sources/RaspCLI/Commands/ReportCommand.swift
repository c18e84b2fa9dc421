import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp report`: a replay as one HTML page that works offline — summary, timeline with a
/// scrubber, the snapshot at any event with its changes, plots of numeric fields, geo track.
enum ReportCommand {
  /// The replay options a report takes: all but those that shape the printed lines.
  static let replayOptions = ReplayOptions.specs.filter {
    ![.final, .at, .withEvent, .emit, .changesOnly, .pretty, .jobs].contains($0.name)
  }.map { option in
    switch option.name {
    case .select:
      return RaspOptionSpec(
        name: .select, valueName: "path",
        help:
          "Show the value at <path> (such as geo.heading or rest.links|length) instead of the "
          + "snapshot, with the events that change it, and plot it alone.")
    case .onError:
      return RaspOptionSpec(
        name: .onError, valueName: "mode", allowedValues: ["fail", "skip"],
        help:
          "On a bad line, 'skip' (the default here) lists it in the report and goes on; "
          + "'fail' stops there, and the report holds what came before.")
    default:
      return option
    }
  }

  /// The assertions a report marks on its timeline: those of `rasp check`.
  static let assertionOptions = AssertionOptions.specs.map { option in
    guard option.name == .maxFailures else { return option }
    return RaspOptionSpec(
      name: .maxFailures, valueName: "n",
      help: "List at most <n> violations of the assertions (1000 by default); 0 lists all.")
  }

  static let spec = RaspCommandSpec(
    name: "rasp report",
    abstract: "Replay event logs and write one HTML page to explore them, offline.",
    discussion: """
      The page holds a summary (events per domain and type, lines skipped or ignored and \
      why), a timeline of the events coloured by domain with a scrubber, the snapshot at \
      the chosen event as a tree with the paths it changed marked and its diff, plots of \
      the numeric fields that change, and the track of geo.location. It makes no network \
      request: its style, script and data are inline. Open it at an event with \
      report.html#event=N.

      With --assert (as 'rasp check' takes it), each event at which an assertion stops \
      holding is marked on the timeline and listed, with the values it read before and \
      after; a click goes there. How many there were is said on standard error.

      Bad lines are listed in the report and on standard error, and skipped (--on-error \
      skip is the default here). The page goes to standard output unless -o names a file; \
      it is not written to a terminal.
      """,
    usage: "rasp report [-o <file>] [--key-by <path>] [<options>] [<file> ...]",
    arguments: [
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.", isRepeatable: true
      )
    ],
    options: [
      RaspOptionSpec(
        name: .output, short: "o", valueName: "file",
        help:
          "Write the page to <file> (replacing it at once, when whole) instead of standard "
          + "output; '-' is standard output, even a terminal.")
    ] + replayOptions + assertionOptions + [
      RaspColorChoice.optionSpec(coloring: "the labels of errors and warnings on standard error")
    ],
    exitStatuses: [
      ("0", "The report was written, every line replayed or ignored, every assertion held."),
      ("1", "The report was written, and an assertion was violated (marked in it)."),
      (
        "2",
        "The report was written, but some lines were bad (listed in it); or a file that "
          + "cannot be read or written, or a spec or map file with mistakes: no report."
      ),
      ("64", "A usage error: an unknown option, a bad value, a terminal as the output."),
      ("129, 130, 143", "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM: no report."),
    ])

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    var options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    let fail = spec.usageError
    if let text = parsed.value(.select), options.select?.filters.contains(.each) == true {
      throw fail(
        "'[]' in '--select \(text)' selects several values, which a report cannot plot as "
          + "one; select the whole value instead")
    }
    let output = parsed.value(.output)
    if output == nil, environment.standardOutput.isTerminal {
      throw fail(
        "The report is an HTML page, not for a terminal: write it to a file with "
          + "'-o report.html', or redirect standard output ('-o -' writes it here anyway)")
    }
    if let output, output != "-" {
      if let same = options.files.first(where: { $0 != "-" && environment.isSameFile($0, output) })
      {
        throw fail("Option '-o \(output)' would overwrite the log '\(same)'")
      }
    }
    let statedErrorMode = parsed.value(.onError) != nil
    if !statedErrorMode { options.configuration.errorMode = .skip }
    options.configuration.includesEvent = true
    // Each event's type and time as rasp read them, whatever the log's format (a map's, a
    // CloudEvent's, a Redux action's), not as its line wrote them.
    options.configuration.includesEventAsRead = true
    options.configuration.reportsIgnoredLines = true
    options.configuration.emit = .diff

    var assertions = try AssertionOptions(
      parsed: parsed, domains: options.configuration.domains, spec: spec,
      environment: environment)
    if !parsed.isGiven(.maxFailures) { assertions.maximumFailures = 1000 }
    let observer = assertions.isEmpty ? nil : CheckCommand.observe(assertions, in: &options)

    let initial = initialState(options)
    var sink = ReportSink(
      builder: ReportBuilder(
        initial: initial, isKeyed: options.configuration.keyPath != nil,
        selection: parsed.value(.select)))
    let file = try output.flatMap { path throws(RaspCommandError) in
      path == "-" ? nil : try environment.makeAtomicWriter(path)
    }
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    // Summaries on standard error as replay gives them: with --stats, or --on-error skip.
    var finishing = options
    if !statedErrorMode { finishing.configuration.errorMode = .fail }
    let unfinished =
      result.failure != nil && result.statistics.read == 0 || result.brokenPipe
      || result.interruptingSignal != nil
    if unfinished {
      file?.discard()
      return ReplayRun.finish(result, options: finishing, environment: environment)
    }
    observer?.finish(isKeyed: options.configuration.keyPath != nil)
    if let error = observer?.error {
      file?.discard()
      _ = ReplayRun.finish(result, options: finishing, environment: environment)
      RaspDiagnostics.report(error, to: environment)
      return .failure
    }
    let html = ReportDocument.html(
      builder: sink.builder, skipped: sink.skipped, ignored: sink.ignored,
      statistics: result.statistics,
      logs: options.displayNames, domains: options.domains.map(\.name).sorted(),
      command: ["rasp", "report"] + arguments, selection: parsed.value(.select),
      assertions: observer)
    do throws(RaspCommandError) {
      if let file {
        try file.write(html)
        try file.commit()
      } else {
        try RaspCommandLine.printOutput(html, environment: environment)
      }
    } catch {
      file?.discard()
      throw error
    }
    let status = ReplayRun.finish(result, options: finishing, environment: environment)
    guard let observer else { return status }
    let report = AssertionReport(observer: observer)
    RaspDiagnostics.write(report.summary, to: environment)
    if status != .success { return status }
    return report.holds ? .success : .differences
  }

  /// The state the report starts from: the snapshot before any event, the value selected in
  /// it with `--select`, and with `--key-by` the state each key starts from.
  static func initialState(_ options: ReplayOptions) -> JSONValue {
    (try? JSONParser.parse(options.initialSnapshot)) ?? .null
  }
}
