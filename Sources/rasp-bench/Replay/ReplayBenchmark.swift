/// `rasp-bench replay`: times `rasp replay` against jq programs that compute the same values,
/// checks that both print the same values, and prints a Markdown report.
///
/// For each case — every snapshot, the final snapshot, a selected value
/// (``BenchCase/all(log:events:programs:)``) — rasp and jq first run once each with standard
/// output to a pipe that this process reads to the end, keeping the first and last `--sample`
/// lines: those lines must parse to the same JSON values, and the line counts must match, or the
/// benchmark stops with status 1. Then both run `--runs` times each, alternating, with standard
/// output to `/dev/null`; the best wall time of each counts. With `--long-log`, rasp alone
/// replays a longer log once per mode for its peak memory. Then the core library runs in-process
/// (``CoreBenchmark``). A missed target is reported, not a failure.
///
/// ```sh
/// rasp-bench replay --log bench-output/events-1m.jsonl --runs 3 --rasp .build/release/rasp
/// ```
enum ReplayBenchmark {
  static let usage = """
    Usage: rasp-bench replay --log <file> [--long-log <file>] [--runs <count>] [--rasp <path>]
                             [--jq <path>] [--programs <dir>] [--scratch <dir>] [--sample <lines>]
                             [--core-events <count>] [--commit <text>]
    """

  /// What to run: the options every benchmark over a log has, and the replay benchmark's own.
  struct Options: LogBenchmarkCommandOptions {
    var shared = LogBenchmarkOptions()
    var longLog: String?
    var sampleLines = 1000
    var coreEvents = 10_000_000
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `replay`.
  /// - Returns: 0 when the report was printed, 1 when the tools disagree or fail, 2 when the
  ///   benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    BenchCommandLine.runLogBenchmark(parse(arguments), usage: usage, reportName: "results.md") {
      try run($0).markdown
    }
  }

  /// Reads the options.
  ///
  /// - Parameter arguments: The arguments after `replay`.
  /// - Returns: The options, or the usage error (empty for `--help`).
  static func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    BenchCommandLine.parseLogBenchmark(arguments, into: Options()) { options, argument, value in
      switch argument {
      case "--long-log": options.longLog = value.isEmpty ? nil : value
      case "--sample":
        options.sampleLines = try BenchCommandLine.positiveNumber(value, for: argument)
      case "--core-events":
        options.coreEvents = try BenchCommandLine.positiveNumber(value, for: argument)
      default: throw UsageErrorMessage("Unknown option '\(argument)'")
      }
    }
  }

  /// Runs every case and returns the report.
  ///
  /// - Throws: ``BenchError`` when a tool fails or the outputs differ.
  static func run(_ options: Options) throws(BenchError) -> BenchReport {
    let inspected = try options.shared.inspect()
    let log = inspected.log

    let loadBefore = Machine.loadAverage()
    var results: [CaseResult] = []
    var lastSnapshot: [UInt8]?
    var finalSnapshot: [UInt8]?
    for benchCase in BenchCase.all(log: options.log, events: log.events, programs: options.programs)
    {
      let (result, lastLine) = try run(benchCase, options)
      if benchCase.expectedLines == log.events { lastSnapshot = lastLine }
      if benchCase.expectedLines == 1 { finalSnapshot = lastLine }
      results.append(result)
    }
    if let finalSnapshot, let lastSnapshot {
      try OutputComparison.checkSameValue(
        finalSnapshot, lastSnapshot, label: "the final snapshot against the last of every snapshot")
    }
    let loadAfter = Machine.loadAverage()

    var longLog: BenchReport.LogFile?
    var longRuns: [BenchReport.LongRun] = []
    if let path = options.longLog {
      (longLog, longRuns) = try runLong(path, options)
    }

    printProgress(
      "core: \(BenchFormat.grouped(options.coreEvents)) events in-process, best of \(options.runs)")
    let core = CoreBenchmark.run(events: options.coreEvents, repetitions: options.runs)

    var header = inspected.header
    header.loadAverages = (loadBefore, loadAfter)
    return BenchReport(
      header: header, raspPath: options.rasp, log: log, runs: options.runs,
      sampleLines: options.sampleLines,
      peakMemorySource: ChildProcess.peakMemorySource,
      results: results, longLog: longLog, longRuns: longRuns, core: core)
  }

  /// Runs one case: the check through a pipe, then the timed runs.
  ///
  /// - Returns: The measurements, and the last line rasp printed.
  private static func run(
    _ benchCase: BenchCase, _ options: Options
  ) throws(BenchError) -> (CaseResult, [UInt8]?) {
    let name = benchCase.name.lowercased()
    let sample = ChildProcess.Output.pipe(sampleLimit: options.sampleLines)
    let raspCheck = try measure(options.rasp, benchCase.raspArguments, sample, options)
    let jqCheck = try measure(options.jq, benchCase.jqArguments, sample, options)
    let compared = try OutputComparison.check(
      raspCheck.output, against: jqCheck.output, expectedLines: benchCase.expectedLines,
      label: benchCase.name)
    printProgress(
      "\(name), through a pipe: rasp \(BenchFormat.seconds(raspCheck.seconds)), "
        + "jq \(BenchFormat.seconds(jqCheck.seconds)); outputs equal "
        + "(\(BenchFormat.lines(raspCheck.output.lineCount)), "
        + "\(BenchFormat.grouped(compared)) compared)"
    )
    var result = CaseResult(
      benchCase: benchCase, raspCheck: ToolRuns.Run(raspCheck), jqCheck: ToolRuns.Run(jqCheck))
    for run in 1...options.runs {
      let rasp = try measure(options.rasp, benchCase.raspArguments, .null, options)
      let jq = try measure(options.jq, benchCase.jqArguments, .null, options)
      result.rasp.runs.append(ToolRuns.Run(rasp))
      result.jq.runs.append(ToolRuns.Run(jq))
      printProgress(
        "\(name), run \(run)/\(options.runs): rasp \(BenchFormat.seconds(rasp.seconds)), "
          + "jq \(BenchFormat.seconds(jq.seconds))")
    }
    return (result, raspCheck.output.lastLine)
  }

  /// Replays the long log with rasp alone, once for every snapshot and once with `--final`.
  private static func runLong(
    _ path: String, _ options: Options
  ) throws(BenchError) -> (BenchReport.LogFile, [BenchReport.LongRun]) {
    let size = try FileBytes.measure(path)
    let log = BenchReport.LogFile(path: path, events: size.lines, bytes: size.bytes)
    printProgress("long log \(log.summary)")
    var runs: [BenchReport.LongRun] = []
    for (name, arguments) in [
      ("Every snapshot", ["replay", path]), ("Final snapshot", ["replay", "--final", path]),
    ] {
      let rasp = try measure(options.rasp, arguments, .null, options)
      runs.append(
        BenchReport.LongRun(
          name: name, command: ([options.rasp] + arguments).joined(separator: " "),
          run: ToolRuns.Run(rasp)))
      printProgress(
        "\(name.lowercased()), long log: rasp \(BenchFormat.seconds(rasp.seconds)), "
          + "peak \(BenchFormat.memory(rasp.peakKilobytes))")
    }
    return (log, runs)
  }

  /// Runs a tool and throws unless it succeeded.
  private static func measure(
    _ tool: String, _ arguments: [String], _ output: ChildProcess.Output, _ options: Options
  ) throws(BenchError) -> ChildProcess.Result {
    try ChildProcess.runChecked(tool, arguments, output: output, scratch: options.scratch)
  }
}
