import RaspJSON
import RaspDomains
import RaspReplay

/// `rasp replay`: JSON-lines event logs in, state snapshots out.
enum ReplayCommand {
  static let spec = RaspCommandSpec(
    name: "rasp replay",
    abstract: "Replay JSON-lines event logs and print the state snapshot after every event.",
    discussion: """
      Each line of a log is an event: {"type":"geo.heading","payload":{"heading":90}}. Every \
      event is applied to the state of its domain, and the snapshot of every domain is printed \
      as one line of JSON. Several logs are merged by their events' "ts", stably, or read \
      one after another with --concat.

      A log read from a pipe or a terminal is replayed line by line as it arrives, each \
      snapshot printed at once; --follow does the same for files that grow. Ctrl-C (SIGINT) \
      or SIGTERM stops a replay at the next line, after printing what it replayed and the \
      --stats summary, with the status of a command killed by the signal (130, 143).
      """,
    usage:
      "rasp replay [--select <path>] [--final] [--domain <name> ...] [<options>] [<file> ...]",
    arguments: [
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.", isRepeatable: true
      )
    ],
    options: ReplayOptions.specs + [
      RaspOptionSpec(
        name: .rawOutput, short: "r",
        help:
          "Print a selected string as its text, without quotes and with its escapes decoded, "
          + "as 'jq -r' does; other values, and records wrapped with --with-event or --key-by, "
          + "stay JSON."),
      RaspOptionSpec(
        name: .follow,
        help: "Keep reading the files as they grow, like 'tail -F', through rotation and "
          + "truncation, until Ctrl-C or SIGTERM."),
    ] + ReplayOptions.checkpointSpecs(after: "print what a whole replay prints after that point")
      + [
        RaspColorChoice.optionSpec(coloring: "the labels of errors and warnings on standard error")
      ],
    exitStatuses: [
      (
        "0",
        "Every line was replayed, or ignored (an event of unknown type); also when the "
          + "reader of the output went away ('| head')."
      ),
      (
        "2",
        "A bad line (after the lines before it, with --on-error fail; at the end, with "
          + "skip), a file that cannot be read, or a spec or map file with mistakes."
      ),
      ("64", "A usage error: an unknown option, a bad value."),
      (
        "129, 130, 143",
        "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM, after printing what was "
          + "replayed."
      ),
    ])

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    if options.emitsDevTools {
      var sink = DevToolsExportSink(
        stream: environment.standardOutput, initialState: options.initialSnapshot)
      let result = ReplayRun.run(options, environment: environment, into: &sink)
      return ReplayRun.finish(result, options: options, environment: environment)
    }
    var sink = StandardOutputSink(
      stream: environment.standardOutput, isPretty: options.isPretty, isRaw: options.isRaw,
      countsLines: options.saveStateFile != nil)
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    return ReplayRun.finish(result, options: options, environment: environment)
  }
}
