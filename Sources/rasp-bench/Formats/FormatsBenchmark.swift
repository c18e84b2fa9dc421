/// `rasp-bench formats`: times `rasp replay --log-format F` on a log converted into another
/// tool's format, against the same events in rasp's own format, and against jq rewriting the
/// converted log into rasp's lines for `rasp replay -`; prints a Markdown report.
///
/// For each format (``BenchLogFormat``; `--formats`, all by default), the log given with `--log`
/// — in rasp's own format, as `rasp-bench generate` writes it — is converted in-process
/// (``LogConversion``) into the scratch directory. Then each command runs once with standard
/// output to a pipe that this process reads to the end, hashing every byte: `rasp replay LOG`
/// gives the reference, and every other command must print exactly its bytes — the same lines,
/// bytes and FNV-1a hash — or the benchmark stops with status 1. Then all the commands run
/// `--runs` times each, alternating, with standard output to `/dev/null`; the best wall time of
/// each counts (``FormatCase``). The targets of issue 18 are that the `--log-format` replay take
/// at most 1.5 times as long as the own format's, and at most 0.2 times as long as the jq
/// pipeline; a missed target is reported, not a failure (``FormatsReport``).
///
/// ```sh
/// rasp-bench formats --log bench-output/events-1m.jsonl --runs 5 --rasp .build/release/rasp
/// ```
enum FormatsBenchmark {
  static let usage = """
    Usage: rasp-bench formats --log <file> [--runs <count>] [--rasp <path>] [--jq <path>]
                              [--programs <dir>] [--scratch <dir>] [--commit <text>]
                              [--formats <name>,...]
      Formats: \(BenchLogFormat.quotedNames(BenchLogFormat.others))
    """

  /// How many lines the checked runs keep at each end, to show where two outputs differ.
  static let sampleLines = 100

  /// What to run: the options every benchmark over a log has, and the formats.
  struct Options: LogBenchmarkCommandOptions {
    var shared = LogBenchmarkOptions()
    var formats = BenchLogFormat.others
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `formats`.
  /// - Returns: 0 when the report was printed, 1 when a command fails or prints other bytes
  ///   than the own format's replay, 2 when the benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    BenchCommandLine.runLogBenchmark(parse(arguments), usage: usage, reportName: "formats.md") {
      try run($0).markdown
    }
  }

  /// Reads the options.
  ///
  /// - Parameter arguments: The arguments after `formats`.
  /// - Returns: The options, or the usage error (empty for `--help`).
  static func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    BenchCommandLine.parseLogBenchmark(arguments, into: Options()) { options, argument, value in
      guard argument == "--formats" else {
        throw UsageErrorMessage("Unknown option '\(argument)'")
      }
      options.formats = try formats(value)
    }
  }

  /// Reads the value of `--formats`: names separated by commas, each once.
  private static func formats(_ value: String) throws(UsageErrorMessage) -> [BenchLogFormat] {
    var formats: [BenchLogFormat] = []
    for name in value.split(separator: ",", omittingEmptySubsequences: false) {
      guard let format = BenchLogFormat(rawValue: String(name)), format != .rasp else {
        throw UsageErrorMessage(
          "'--formats' expects names among \(BenchLogFormat.quotedNames(BenchLogFormat.others))"
            + ", separated by commas, found '\(name)'")
      }
      if !formats.contains(format) { formats.append(format) }
    }
    return formats
  }

  /// Converts the log, checks every command's output, times them, and returns the report.
  ///
  /// - Throws: ``BenchError`` when a file cannot be converted, a command fails, or an output
  ///   differs from the own format's replay.
  static func run(_ options: Options) throws(BenchError) -> FormatsReport {
    let inspected = try options.shared.inspect()
    var cases = try convert(inspected.log, options)
    var own = TimedCommand(
      executable: options.rasp, arguments: ["replay", options.log],
      shown: "rasp replay \(options.log)")
    let reference = try check(&own, &cases, options)
    let loadBefore = Machine.loadAverage()
    try time(&own, &cases, options)
    let loadAfter = Machine.loadAverage()
    var header = inspected.header
    header.loadAverages = (loadBefore, loadAfter)
    return FormatsReport(
      header: header, log: inspected.log, runs: options.runs, reference: reference, own: own,
      cases: cases)
  }

  /// Writes the log in each format into the scratch directory, and makes the cases.
  private static func convert(
    _ log: BenchReport.LogFile, _ options: Options
  ) throws(BenchError) -> [FormatCase] {
    var cases: [FormatCase] = []
    for format in options.formats {
      let path = LogConversion.convertedPath(of: log.path, in: format, directory: options.scratch)
      let converted = try LogConversion.convert(log.path, to: path, format: format)
      guard converted.events == log.events else {
        throw .file("'\(path)' has \(converted.events) lines, '\(log.path)' \(log.events)")
      }
      printProgress("\(format.rawValue): converted into \(converted.summary)")
      cases.append(
        FormatCase(
          format: format, log: converted, rasp: options.rasp, jq: options.jq,
          programs: options.programs))
    }
    return cases
  }

  /// Runs the own format's replay through a hashing pipe, then every other command, whose output
  /// must be the same bytes.
  ///
  /// - Returns: The own format's output, the reference.
  private static func check(
    _ own: inout TimedCommand, _ cases: inout [FormatCase], _ options: Options
  ) throws(BenchError) -> OutputSample {
    let reference = try check(&own, options)
    printProgress(
      "own format, through a pipe: \(BenchFormat.seconds(own.check!.seconds)), "
        + "\(BenchFormat.lines(reference.lineCount)), hash \(BenchFormat.hash(reference.hash))")
    for index in cases.indices {
      for command in [\FormatCase.replay, \FormatCase.pipeline] {
        var timed = cases[index][keyPath: command]
        let output = try check(&timed, options)
        try OutputComparison.checkIdentical(output, to: reference, label: "'\(timed.shown)'")
        printProgress(
          "\(cases[index].format.rawValue), through a pipe: "
            + "\(BenchFormat.seconds(timed.check!.seconds)), output identical: '\(timed.shown)'")
        cases[index][keyPath: command] = timed
      }
    }
    return reference
  }

  /// Runs `command` once through a hashing pipe, keeps the run, and returns its output.
  private static func check(
    _ command: inout TimedCommand, _ options: Options
  ) throws(BenchError) -> OutputSample {
    let result = try ChildProcess.runChecked(
      command.executable, command.arguments,
      output: .pipe(sampleLimit: sampleLines, hashing: true), scratch: options.scratch,
      quiet: command.isPipeline)
    command.check = ToolRuns.Run(result)
    return result.output
  }

  /// Times every command `--runs` times, in turn: the own format's replay, then each format's
  /// `--log-format` replay and jq pipeline.
  private static func time(
    _ own: inout TimedCommand, _ cases: inout [FormatCase], _ options: Options
  ) throws(BenchError) {
    for run in 1...options.runs {
      var figures = ["own format " + BenchFormat.seconds(try time(&own, options))]
      for index in cases.indices {
        let replay = try time(&cases[index].replay, options)
        let pipeline = try time(&cases[index].pipeline, options)
        figures.append(
          "\(cases[index].format.rawValue) \(BenchFormat.seconds(replay)), "
            + "jq pipeline \(BenchFormat.seconds(pipeline))")
      }
      printProgress("run \(run)/\(options.runs): " + figures.joined(separator: "; "))
    }
  }

  /// Runs `command` once with its output to `/dev/null`, and keeps the run.
  ///
  /// - Returns: The run's wall time, in seconds.
  private static func time(
    _ command: inout TimedCommand, _ options: Options
  ) throws(BenchError) -> Double {
    let result = try ChildProcess.runChecked(
      command.executable, command.arguments, output: .null, scratch: options.scratch,
      quiet: command.isPipeline)
    command.runs.runs.append(ToolRuns.Run(result))
    return result.seconds
  }
}
