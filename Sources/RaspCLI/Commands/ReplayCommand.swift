import RaspDomains

/// `rasp replay`: JSON-lines event logs in, state snapshots out.
enum ReplayCommand {
  static let spec = RaspCommandSpec(
    name: "rasp replay",
    abstract: "Replay JSON-lines event logs and print the state snapshot after every event.",
    discussion: """
      Each line of a log is an event: {"type":"geo.heading","payload":{"heading":90}}. Every \
      event is applied to the state of its domain, and the snapshot of every domain is printed \
      as one line of JSON. Several logs are merged by their events' "ts", stably.
      """,
    usage: "rasp replay [--select <path>] [--final] [--domain <name> ...] [<options>] [<file> ...]",
    arguments: [
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.", isRepeatable: true)
    ],
    options: ReplayOptions.specs)

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    let engine = ReplayEngine(options: options, environment: environment)
    var sink = StandardOutputSink(stream: environment.standardOutput, isPretty: options.isPretty)
    let outcome = engine.run(emittingInto: &sink)
    return finish(outcome, options: options, environment: environment)
  }

  /// Reports how a replay ended and chooses the exit status.
  static func finish(
    _ outcome: ReplayOutcome, options: ReplayOptions, environment: RaspEnvironment
  ) -> RaspExitCode {
    if outcome.brokenPipe { return .success }
    if let failure = outcome.failure { RaspDiagnostics.report(failure, to: environment) }
    if let warning = outcome.stats.unknownTypeWarning {
      RaspDiagnostics.warn(warning, to: environment)
    }
    if options.showsStats || options.errorMode == .skip {
      RaspDiagnostics.write(outcome.stats.summary, to: environment)
    }
    if outcome.failure != nil || outcome.stats.skipped > 0 { return .failure }
    return .success
  }
}
