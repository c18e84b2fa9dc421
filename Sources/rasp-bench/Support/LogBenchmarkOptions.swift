/// The options that the benchmarks running rasp and jq over a log share, `replay` and
/// `formats`: the log, the tools, the runs, where to write, and the commit measured.
///
/// ```swift
/// var options = LogBenchmarkOptions()
/// try options.set("--runs", to: "5")   // true: the option is one of these
/// options.runs                         // 5
/// ```
struct LogBenchmarkOptions {
  /// The log, in rasp's own format (`--log`, required).
  var log = ""
  /// How many timed runs each command makes (`--runs`).
  var runs = 3
  /// The rasp program (`--rasp`).
  var rasp = ".build/release/rasp"
  /// The jq program (`--jq`).
  var jq = "jq"
  /// The directory of the jq programs (`--programs`).
  var programs = "fixtures/bench"
  /// The directory for converted logs, standard errors and the report (`--scratch`).
  var scratch = "bench-output"
  /// The commit measured, for the report's heading (`--commit`; empty for none).
  var commit: String?

  /// Sets the option `name` to `value`, when it is one of these.
  ///
  /// - Parameters:
  ///   - name: An option, such as `--runs`.
  ///   - value: Its value.
  /// - Returns: Whether `name` is one of these options.
  /// - Throws: ``UsageErrorMessage`` for a value the option does not take.
  mutating func set(_ name: String, to value: String) throws(UsageErrorMessage) -> Bool {
    switch name {
    case "--log": log = value
    case "--rasp": rasp = value
    case "--jq": jq = value
    case "--programs": programs = value
    case "--scratch": scratch = value
    case "--commit": commit = value.isEmpty ? nil : value
    case "--runs": runs = try BenchCommandLine.positiveNumber(value, for: name)
    default: return false
    }
    return true
  }

  /// Measures the log and asks both tools their version, before a benchmark runs; tells of the
  /// log on standard error.
  ///
  /// ```swift
  /// let inspected = try options.shared.inspect()
  /// var header = inspected.header
  /// header.loadAverages = (before, after)
  /// ```
  ///
  /// - Returns: The log's size, and the report's header without the load averages.
  /// - Throws: ``BenchError`` when the log cannot be read or a tool cannot run.
  func inspect() throws(BenchError) -> (log: BenchReport.LogFile, header: ReportHeader) {
    let size = try FileBytes.measure(log)
    let logFile = BenchReport.LogFile(path: log, events: size.lines, bytes: size.bytes)
    printProgress("log \(logFile.summary)")
    let raspVersion = try ChildProcess.firstLine(rasp, ["--version"], scratch: scratch)
    let jqVersion = try ChildProcess.firstLine(jq, ["--version"], scratch: scratch)
    let header = ReportHeader(
      date: Machine.now(), commit: commit, machine: .current(), raspVersion: raspVersion,
      jqVersion: jqVersion, jqPath: jq, loadAverages: (nil, nil))
    return (logFile, header)
  }
}

/// The options of a benchmark over a log: the shared ``LogBenchmarkOptions``, read and written
/// as if they were its own (`options.rasp`), and options of its own.
///
/// ```swift
/// struct Options: LogBenchmarkCommandOptions {
///   var shared = LogBenchmarkOptions()
///   var sampleLines = 1000
/// }
/// ```
@dynamicMemberLookup
protocol LogBenchmarkCommandOptions {
  /// The options every benchmark over a log has.
  var shared: LogBenchmarkOptions { get set }
}

extension LogBenchmarkCommandOptions {
  /// One of the shared options.
  subscript<Value>(dynamicMember keyPath: WritableKeyPath<LogBenchmarkOptions, Value>) -> Value {
    get { shared[keyPath: keyPath] }
    set { shared[keyPath: keyPath] = newValue }
  }
}

extension BenchCommandLine {
  /// Reads the arguments of a benchmark over a log: the shared options, and the others with
  /// `apply`; `--log` is required.
  ///
  /// ```swift
  /// BenchCommandLine.parseLogBenchmark(arguments, into: Options()) { options, name, value in
  ///   guard name == "--sample" else { throw UsageErrorMessage("Unknown option '\(name)'") }
  ///   options.sampleLines = try BenchCommandLine.positiveNumber(value, for: name)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the subcommand.
  ///   - options: The defaults.
  ///   - apply: Sets an option that is not a shared one, or throws the usage error.
  /// - Returns: The options, or the usage error (empty for `--help`).
  static func parseLogBenchmark<Options: LogBenchmarkCommandOptions>(
    _ arguments: [String], into options: Options,
    _ apply: (inout Options, _ name: String, _ value: String) throws -> Void
  ) -> Result<Options, UsageErrorMessage> {
    parse(arguments, into: options) { options, name, value in
      if try options.shared.set(name, to: value) { return }
      try apply(&options, name, value)
    }.flatMap { options in
      options.shared.log.isEmpty
        ? .failure(UsageErrorMessage("Missing '--log <file>'")) : .success(options)
    }
  }

  /// Runs a benchmark over a log whose arguments were parsed: answers `--help` and usage
  /// errors, else makes the report, prints it and saves it in the scratch directory.
  ///
  /// - Parameters:
  ///   - parsed: The options, or the usage error.
  ///   - usage: The subcommand's usage.
  ///   - reportName: The report's file name in the scratch directory.
  ///   - makeReport: Runs the benchmark and returns the report, as Markdown.
  /// - Returns: 0 when the report was printed, 64 for a usage error, else the error's status.
  static func runLogBenchmark<Options: LogBenchmarkCommandOptions>(
    _ parsed: Result<Options, UsageErrorMessage>, usage: String, reportName: String,
    _ makeReport: (Options) throws -> String
  ) -> Int32 {
    main(parsed, usage: usage) { options in
      publishReport(to: options.shared.scratch + "/" + reportName) { try makeReport(options) }
    }
  }
}
