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

  /// What to run.
  struct Options {
    var log = ""
    var longLog: String?
    var runs = 3
    var rasp = ".build/release/rasp"
    var jq = "jq"
    var programs = "fixtures/bench"
    var scratch = "bench-output"
    var sampleLines = 1000
    var coreEvents = 10_000_000
    var commit: String?
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `replay`.
  /// - Returns: 0 when the report was printed, 1 when the tools disagree or fail, 2 when the
  ///   benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    let options: Options
    switch parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error):
      let message = error.message
      if message.isEmpty {
        print(usage)
        return 0
      }
      printError("Error: \(message)\n\(usage)")
      return 64
    }
    do {
      let report = try run(options)
      let text = report.markdown
      print(text, terminator: "")
      let path = options.scratch + "/results.md"
      try FileBytes.save(text, to: path)
      printError("rasp-bench: report written to \(path)")
      return 0
    } catch {
      printError("rasp-bench: error: \(error)")
      switch error {
      case .mismatch, .toolFailed: return 1
      case .system, .file: return 2
      }
    }
  }

  /// Reads the options.
  ///
  /// - Parameter arguments: The arguments after `replay`.
  /// - Returns: The options, or the usage error (empty for `--help`).
  static func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--help" || argument == "-h" { return .failure(UsageErrorMessage("")) }
      guard let value = remaining.popFirst() else {
        return .failure(UsageErrorMessage("Missing value for '\(argument)'"))
      }
      switch argument {
      case "--log": options.log = value
      case "--long-log": options.longLog = value.isEmpty ? nil : value
      case "--rasp": options.rasp = value
      case "--jq": options.jq = value
      case "--programs": options.programs = value
      case "--scratch": options.scratch = value
      case "--commit": options.commit = value.isEmpty ? nil : value
      case "--runs", "--sample", "--core-events":
        guard let number = Int(value), number > 0 else {
          return .failure(
            UsageErrorMessage("'\(argument)' expects a positive whole number, found '\(value)'"))
        }
        switch argument {
        case "--runs": options.runs = number
        case "--sample": options.sampleLines = number
        default: options.coreEvents = number
        }
      default:
        return .failure(UsageErrorMessage("Unknown option '\(argument)'"))
      }
    }
    guard !options.log.isEmpty else { return .failure(UsageErrorMessage("Missing '--log <file>'")) }
    return .success(options)
  }

  /// Runs every case and returns the report.
  ///
  /// - Throws: ``BenchError`` when a tool fails or the outputs differ.
  static func run(_ options: Options) throws(BenchError) -> BenchReport {
    let size = try FileBytes.measure(options.log)
    let log = BenchReport.LogFile(path: options.log, events: size.lines, bytes: size.bytes)
    progress("log \(log.summary)")
    let raspVersion = try firstLine(options.rasp, ["--version"], options)
    let jqVersion = try firstLine(options.jq, ["--version"], options)

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

    progress(
      "core: \(BenchFormat.grouped(options.coreEvents)) events in-process, best of \(options.runs)")
    let core = CoreBenchmark.run(events: options.coreEvents, repetitions: options.runs)

    return BenchReport(
      date: Machine.now(), commit: options.commit, machine: .current(), raspVersion: raspVersion,
      jqVersion: jqVersion, raspPath: options.rasp, jqPath: options.jq, log: log,
      runs: options.runs, sampleLines: options.sampleLines, loadAverages: (loadBefore, loadAfter),
      peakMemorySource: ChildProcess.hasTimeTool
        ? "`/usr/bin/time -f %M`" : "`wait4` ru_maxrss, an upper bound: /usr/bin/time is missing",
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
    progress(
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
      progress(
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
    progress("long log \(log.summary)")
    var runs: [BenchReport.LongRun] = []
    for (name, arguments) in [
      ("Every snapshot", ["replay", path]), ("Final snapshot", ["replay", "--final", path]),
    ] {
      let rasp = try measure(options.rasp, arguments, .null, options)
      runs.append(
        BenchReport.LongRun(
          name: name, command: ([options.rasp] + arguments).joined(separator: " "),
          run: ToolRuns.Run(rasp)))
      progress(
        "\(name.lowercased()), long log: rasp \(BenchFormat.seconds(rasp.seconds)), "
          + "peak \(BenchFormat.memory(rasp.peakKilobytes))")
    }
    return (log, runs)
  }

  /// Runs a tool and throws unless it succeeded.
  private static func measure(
    _ tool: String, _ arguments: [String], _ output: ChildProcess.Output, _ options: Options
  ) throws(BenchError) -> ChildProcess.Result {
    let result = try ChildProcess.run(tool, arguments, output: output, scratch: options.scratch)
    guard result.status == 0 else {
      throw .toolFailed(
        command: ([tool] + arguments).joined(separator: " "), status: result.status,
        standardError: result.standardError)
    }
    if !result.standardError.isEmpty {
      progress("warning: '\(tool)' wrote on standard error: \(result.standardError)")
    }
    return result
  }

  private static func firstLine(
    _ tool: String, _ arguments: [String], _ options: Options
  ) throws(BenchError) -> String {
    let result = try measure(tool, arguments, .pipe(sampleLimit: 1), options)
    return String(decoding: result.output.head.first ?? [], as: UTF8.self)
  }

  private static func progress(_ message: String) {
    printError("rasp-bench: " + message)
  }
}

/// A usage error's message; empty when the user asked for help.
struct UsageErrorMessage: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
