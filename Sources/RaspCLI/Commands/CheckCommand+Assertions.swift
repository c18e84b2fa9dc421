import RaspReplay

extension CheckCommand {
  /// Replays with the assertions' observer and no golden file: no record is written, only
  /// each key's last state; prints the violations and the summary, and chooses the status
  /// (1 for a violation, 2 for bad input or an assertion that could not be evaluated).
  static func checkAssertions(
    _ assertions: AssertionOptions, options: ReplayOptions, comparison: ComparisonOptions,
    environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    var options = options
    options.configuration.isFinal = true
    options.configuration.discardsRecords = true
    let observer = observe(assertions, in: &options)
    var sink = DiscardingSink()
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    let replayStatus = ReplayRun.finish(result, options: options, environment: environment)
    if result.interruptingSignal != nil { return replayStatus }
    if result.failure != nil || result.ending == .stoppedAtBadLine { return .failure }
    return try printAssertionReport(
      observer, options: options, comparison: comparison, status: replayStatus,
      environment: environment)
  }

  /// The observer of `assertions`, set on the replay's configuration.
  static func observe(_ assertions: AssertionOptions, in options: inout ReplayOptions)
    -> AssertionObserver
  {
    let observer = AssertionObserver(
      assertions: assertions.assertions, domains: options.configuration.domains,
      inputNames: options.displayNames, maximumFailures: assertions.maximumFailures,
      recordsAppliedLines: assertions.reportsAppliedLines)
    options.configuration.stateObserver = observer
    return observer
  }

  /// Checks the final assertions, prints the report of the assertions in the format of
  /// `--format` and the summary, and chooses the status from it and the replay's (or the
  /// golden file's) `status`.
  static func printAssertionReport(
    _ observer: AssertionObserver, options: ReplayOptions, comparison: ComparisonOptions,
    status: RaspExitCode, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    observer.finish(isKeyed: options.configuration.keyPath != nil)
    if let error = observer.error {
      RaspDiagnostics.report(error, to: environment)
      return .failure
    }
    let report = AssertionReport(
      observer: observer, listsAppliedLines: observer.recordsAppliedLines)
    switch comparison.format {
    case .text:
      try RaspCommandLine.printOutput(
        comparison.printedText(report.text, environment: environment), environment: environment)
    case .json: try RaspCommandLine.printOutput(report.json, environment: environment)
    }
    RaspDiagnostics.write(report.summary, to: environment)
    if status != .success { return status == .differences ? status : .failure }
    return report.holds ? .success : .differences
  }
}
