#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rasp-bench latency`: how soon `rasp replay -` answers a line that arrives on a pipe — the
/// time from writing an event to reading its snapshot back, as a Markdown table of percentiles.
///
/// The benchmark generates `--lines` events with ``BenchLogGenerator`` (the same seed gives the
/// same bytes), starts `rasp replay -` with a pipe on its standard input and one on its
/// standard output (``LiveReplayProcess``), and then does two things at once: a
/// ``PacedLineWriter`` thread writes one line at a time at `--rate` lines per second, taking
/// the time just before each write(2), while this thread reads the replies unbuffered
/// (``LineArrivals``), taking the time each snapshot line is read. Without `--select`, every
/// event gives exactly one snapshot line, so line `i` of the output answers event `i`, and its
/// latency is the difference of the two times (``LatencyStatistics``). A replay that fails or
/// prints another number of lines ends the benchmark with status 1 (``LatencyError``); a
/// missed goal is only marked ✗ (``LatencyReport``).
///
/// ```sh
/// rasp-bench latency --rasp .build/release/rasp --lines 5000 --rate 1000 --seed 7
/// ```
enum LatencyBenchmark {
  static let usage = """
    Usage: rasp-bench latency --rasp <path> [--lines <count>] [--rate <lines per second>]
                              [--seed <number>]
    """

  /// What to run.
  struct Options {
    var rasp = ""
    var lines = 5000
    var rate = 1000.0
    var seed: UInt64 = 7
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `latency`.
  /// - Returns: 0 when the table was printed, 1 when the replay failed or printed another
  ///   number of lines, 2 when the benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    BenchCommandLine.main(parse(arguments), usage: usage) { options in
      do throws(LatencyError) {
        let report = try run(options)
        print(report.markdown, terminator: "")
        return 0
      } catch {
        printError("rasp-bench: error: \(error)")
        return error.exitStatus
      }
    }
  }

  /// Reads the options.
  ///
  /// - Parameter arguments: The arguments after `latency`.
  /// - Returns: The options, or the usage error (empty for `--help`).
  static func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    BenchCommandLine.parse(arguments, into: Options()) { options, argument, value in
      switch argument {
      case "--rasp":
        options.rasp = value
      case "--lines":
        options.lines = try BenchCommandLine.positiveNumber(value, for: argument)
      case "--rate":
        guard let rate = Double(value), rate.isFinite, rate > 0 else {
          throw UsageErrorMessage("'--rate' expects a positive number, found '\(value)'")
        }
        options.rate = rate
      case "--seed":
        guard let seed = UInt64(value) else {
          throw UsageErrorMessage("'--seed' expects a whole number, found '\(value)'")
        }
        options.seed = seed
      default:
        throw UsageErrorMessage("Unknown option '\(argument)'")
      }
    }.flatMap { options in
      options.rasp.isEmpty
        ? .failure(UsageErrorMessage("Missing '--rasp <path>'")) : .success(options)
    }
  }

  /// Generates the log, replays it live, checks the replies and computes the figures.
  ///
  /// - Throws: ``LatencyError`` when the benchmark cannot run or the replay misbehaves.
  static func run(_ options: Options) throws(LatencyError) -> LatencyReport {
    var generator = BenchLogGenerator(seed: options.seed)
    let log = generator.makeLog(events: options.lines)
    let lineEnds = log.indices.filter { log[$0] == 0x0A }.map { $0 + 1 }
    precondition(lineEnds.count == options.lines, "the generator writes one line per event")

    // A replay that stops reading must fail a write with EPIPE, not end the benchmark.
    signal(SIGPIPE, SIG_IGN)
    let process: LiveReplayProcess
    do { process = try LiveReplayProcess(rasp: options.rasp) } catch {
      throw .cannotRun(error)
    }
    let rate = BenchFormat.decimal(options.rate, digits: options.rate < 10 ? 2 : 0)
    progress(
      "\(BenchFormat.lines(options.lines)) (seed \(options.seed)) at \(rate) lines/s into "
        + "'\(process.command)', about "
        + BenchFormat.seconds(Double(options.lines) / options.rate))

    let writer = PacedLineWriter(
      log: log, lineEnds: lineEnds, rate: options.rate, descriptor: process.input)
    var failure: BenchError?
    do { try writer.start() } catch {
      close(process.input)
      failure = error
    }
    // Reading to the end also ends a failed start: the replay sees its input closed and exits.
    var arrivals = LineArrivals(times: [], lineCount: 0, hasUnfinishedLine: false)
    do { arrivals = try LineArrivals.record(from: process.output, expected: options.lines) } catch {
      failure = failure ?? error
    }
    let written = writer.join()
    let exit: (status: Int32, standardError: String)
    do { exit = try process.wait() } catch { throw .cannotRun(error) }
    if let failure { throw .cannotRun(failure) }

    try check(written, arrivals, exit, options, command: process.command)
    if !exit.standardError.isEmpty {
      progress("warning: '\(process.command)' wrote on standard error: \(exit.standardError)")
    }
    report(written, arrivals, lines: options.lines)

    let latencies = zip(written.writeTimes, arrivals.times).map { write, read in
      read > write ? read - write : 0
    }
    guard let statistics = LatencyStatistics(nanoseconds: latencies) else {
      preconditionFailure("there is at least one line")
    }
    return LatencyReport(lines: options.lines, rate: options.rate, statistics: statistics)
  }

  /// Throws unless the replay exited with 0, read every line and printed one line for each.
  private static func check(
    _ written: PacedLineWriter.Result, _ arrivals: LineArrivals,
    _ exit: (status: Int32, standardError: String), _ options: Options, command: String
  ) throws(LatencyError) {
    guard exit.status == 0 else {
      throw .replayFailed(command: command, status: exit.status, standardError: exit.standardError)
    }
    if let code = written.writeError {
      throw .inputRefused(
        command: command, linesWritten: written.writeTimes.count, lines: options.lines,
        code: code, standardError: exit.standardError)
    }
    guard arrivals.lineCount == options.lines, !arrivals.hasUnfinishedLine else {
      throw .wrongLineCount(
        command: command, expected: options.lines, actual: arrivals.lineCount,
        hasUnfinishedLine: arrivals.hasUnfinishedLine, standardError: exit.standardError)
    }
  }

  /// Tells on standard error how closely the writer kept to its schedule, and how long the
  /// first snapshot took, which includes the replay's start-up.
  private static func report(
    _ written: PacedLineWriter.Result, _ arrivals: LineArrivals, lines: Int
  ) {
    guard let first = written.writeTimes.first, let last = written.writeTimes.last,
      let firstArrival = arrivals.times.first
    else { return }
    let seconds = Double(last - first) / 1e9
    let achieved =
      lines > 1 && seconds > 0
      ? " (\(BenchFormat.decimal(Double(lines - 1) / seconds, digits: 0)) lines/s)" : ""
    progress(
      "wrote \(BenchFormat.lines(lines)) in \(BenchFormat.seconds(seconds))\(achieved), each at "
        + "most \(milliseconds(written.maximumLateness)) behind its schedule; "
        + "read \(BenchFormat.lines(arrivals.lineCount)) back")
    progress(
      "the first snapshot, which includes the replay's start-up, took "
        + milliseconds(firstArrival > first ? firstArrival - first : 0))
  }

  private static func milliseconds(_ nanoseconds: UInt64) -> String {
    BenchFormat.decimal(LatencyStatistics.milliseconds(nanoseconds), digits: 2) + " ms"
  }

  private static func progress(_ message: String) {
    printError("rasp-bench: latency: " + message)
  }
}
