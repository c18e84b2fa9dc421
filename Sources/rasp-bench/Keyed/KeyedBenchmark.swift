/// `rasp-bench keyed`: times a keyed replay (`rasp replay --key-by`) of a log of many keys, on
/// one thread and on several (`--jobs`), against the unkeyed replay of the same events; prints
/// a Markdown report with peak memory.
///
/// The log is one `rasp-bench generate --keys N` wrote. Every command runs once through a pipe
/// that this process reads to the end, hashing every byte: each keyed replay on several
/// threads must print exactly what the one on one thread prints, or the benchmark stops with
/// status 1. Then all of them run `--runs` times, in turn, with standard output to
/// `/dev/null`; the best wall time of each counts. The unkeyed replays skip the lines that
/// make sense only per key (a pop of another device's screen), reported on standard error,
/// which is left out. The targets of issue 20 (``KeyedReport``) are reported met or missed.
///
/// ```sh
/// rasp-bench generate --events 1000000 --keys 100000 > bench-output/events-keyed.jsonl
/// rasp-bench keyed --log bench-output/events-keyed.jsonl --key-by device --runs 3
/// ```
enum KeyedBenchmark {
  static let usage = """
    Usage: rasp-bench keyed --log <file> [--key-by <path>] [--jobs <n>,...] [--runs <count>]
                            [--rasp <path>] [--scratch <dir>] [--commit <text>]
    """

  /// What to run.
  struct Options: LogBenchmarkCommandOptions {
    var shared = LogBenchmarkOptions()
    /// The path of each event's key.
    var keyPath = "device"
    /// The numbers of threads to time the keyed replays on, besides one.
    var jobs = [2]
  }

  /// The commands, in the order they run and the report shows them.
  struct Commands {
    var unkeyedFinal: TimedCommand
    var keyedFinal: [TimedCommand]
    var unkeyedEvery: TimedCommand
    var keyedEvery: [TimedCommand]

    var all: [TimedCommand] { [unkeyedFinal] + keyedFinal + [unkeyedEvery] + keyedEvery }
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `keyed`.
  /// - Returns: 0 when the report was printed, 1 when a command fails or prints other bytes
  ///   on several threads than on one, 2 when the benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    BenchCommandLine.runLogBenchmark(parse(arguments), usage: usage, reportName: "keyed.md") {
      try run($0).markdown
    }
  }

  /// Reads the options.
  static func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    BenchCommandLine.parseLogBenchmark(arguments, into: Options()) { options, argument, value in
      switch argument {
      case "--key-by":
        options.keyPath = value
      case "--jobs":
        var jobs: [Int] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
          let number = try BenchCommandLine.positiveNumber(String(part), for: argument)
          if number > 1, !jobs.contains(number) { jobs.append(number) }
        }
        options.jobs = jobs
      default:
        throw UsageErrorMessage("Unknown option '\(argument)'")
      }
    }
  }

  /// Checks every keyed replay's output, times them all, and returns the report.
  static func run(_ options: Options) throws(BenchError) -> KeyedReport {
    let inspected = try options.shared.inspect()
    var commands = makeCommands(options)
    var outputs: [String: OutputSample] = [:]
    for index in commands.keyedFinal.indices {
      outputs[commands.keyedFinal[index].shown] = try check(&commands.keyedFinal[index], options)
    }
    for index in commands.keyedEvery.indices {
      outputs[commands.keyedEvery[index].shown] = try check(&commands.keyedEvery[index], options)
    }
    for group in [commands.keyedFinal, commands.keyedEvery] {
      guard let reference = group.first.flatMap({ outputs[$0.shown] }) else { continue }
      for other in group.dropFirst() {
        guard let output = outputs[other.shown] else { continue }
        try OutputComparison.checkIdentical(output, to: reference, label: "'\(other.shown)'")
        printProgress("output identical to one thread's: '\(other.shown)'")
      }
    }
    let loadBefore = Machine.loadAverage()
    for run in 1...options.runs {
      var figures: [String] = []
      for path in commandPaths(commands) {
        var command = commands[keyPath: path]
        let result = try ChildProcess.runChecked(
          command.executable, command.arguments, output: .null, scratch: options.scratch,
          quiet: command.isPipeline)
        command.runs.runs.append(ToolRuns.Run(result))
        figures.append(BenchFormat.seconds(result.seconds))
        commands[keyPath: path] = command
      }
      printProgress("run \(run)/\(options.runs): " + figures.joined(separator: ", "))
    }
    var header = inspected.header
    header.loadAverages = (loadBefore, Machine.loadAverage())
    return KeyedReport(
      header: header, log: inspected.log, runs: options.runs, keyPath: options.keyPath,
      commands: commands,
      finalOutput: commands.keyedFinal.first.flatMap { outputs[$0.shown] },
      everyOutput: commands.keyedEvery.first.flatMap { outputs[$0.shown] })
  }

  /// The commands to time.
  private static func makeCommands(_ options: Options) -> Commands {
    let log = options.log
    func keyed(_ extra: [String], jobs: Int) -> TimedCommand {
      let arguments = ["replay", "--key-by", options.keyPath] + extra + ["-j", "\(jobs)", log]
      return TimedCommand(
        executable: options.rasp, arguments: arguments,
        shown: (["rasp"] + arguments).joined(separator: " "))
    }
    func unkeyed(_ extra: [String]) -> TimedCommand {
      // The bad lines' reports go to /dev/null: they are many, and not what is timed; their
      // status, 2, is the one expected.
      let arguments = ["replay", "--on-error", "skip"] + extra + [log]
      let script = ([options.rasp] + arguments).map(shellQuoted).joined(separator: " ")
      return TimedCommand(
        executable: "sh", arguments: ["-c", script + " 2>/dev/null; [ $? -eq 2 ]"],
        shown: (["rasp"] + arguments).joined(separator: " ") + " 2>/dev/null", isPipeline: true)
    }
    let jobs = [1] + options.jobs
    return Commands(
      unkeyedFinal: unkeyed(["--final"]),
      keyedFinal: jobs.map { keyed(["--final"], jobs: $0) },
      unkeyedEvery: unkeyed([]),
      keyedEvery: jobs.map { keyed([], jobs: $0) })
  }

  /// The key paths of every command, in order.
  private static func commandPaths(
    _ commands: Commands
  ) -> [WritableKeyPath<Commands, TimedCommand>] {
    [\Commands.unkeyedFinal] + commands.keyedFinal.indices.map { \Commands.keyedFinal[$0] }
      + [\Commands.unkeyedEvery] + commands.keyedEvery.indices.map { \Commands.keyedEvery[$0] }
  }

  /// Runs `command` once through a hashing pipe, keeps the run, and returns its output.
  private static func check(_ command: inout TimedCommand, _ options: Options)
    throws(BenchError) -> OutputSample
  {
    let result = try ChildProcess.runChecked(
      command.executable, command.arguments,
      output: .pipe(sampleLimit: FormatsBenchmark.sampleLines, hashing: true),
      scratch: options.scratch)
    command.check = ToolRuns.Run(result)
    printProgress(
      "\(command.shown): \(BenchFormat.seconds(result.seconds)) through a pipe, "
        + "\(BenchFormat.lines(result.output.lineCount)), "
        + "hash \(BenchFormat.hash(result.output.hash))")
    return result.output
  }
}
