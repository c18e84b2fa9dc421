/// A command the formats benchmark runs: how to start it, how the report shows it, its checked
/// run through a pipe and its timed runs.
///
/// ```swift
/// var own = TimedCommand(
///   executable: ".build/release/rasp", arguments: ["replay", "events.jsonl"],
///   shown: "rasp replay events.jsonl")
/// ```
struct TimedCommand {
  /// A path, or a name looked up in `PATH`.
  var executable: String
  /// The arguments, without the program's name.
  var arguments: [String]
  /// The command as the report's tables show it, with `rasp` for the program.
  var shown: String
  /// Whether the command fails when it writes on standard error: a pipeline, whose first
  /// command's exit status `sh` loses.
  var isPipeline = false
  /// The run through a pipe whose output was compared, when it was made.
  var check: ToolRuns.Run?
  /// The timed runs, output to `/dev/null`.
  var runs = ToolRuns()

  /// The command as typed, the program's path included.
  var typed: String { ([executable] + arguments).joined(separator: " ") }
  /// The best time, in seconds.
  var bestSeconds: Double { runs.best.seconds }
  /// The highest peak memory of any run, checked or timed, in kibibytes.
  var peakKilobytes: Int { max(runs.peakKilobytes, check?.peakKilobytes ?? 0) }
}

/// One format of the formats benchmark: the log converted into it, the two commands that
/// replay that log — rasp with `--log-format`, and jq's rewrite into rasp's own lines piped to
/// `rasp replay -` — and their measurements.
///
/// ```swift
/// let fsa = FormatCase(
///   format: .fsa, log: converted, rasp: ".build/release/rasp", jq: "jq",
///   programs: "fixtures/bench")
/// fsa.replay.shown     // rasp replay --log-format fsa bench-output/events-fsa.jsonl
/// fsa.pipeline.shown   // jq -c -f fixtures/bench/fsa-to-rasp.jq bench-output/events-fsa.jsonl
///                      //   | rasp replay -
/// ```
struct FormatCase {
  /// The format.
  var format: BenchLogFormat
  /// The log converted into the format.
  var log: BenchReport.LogFile
  /// `rasp replay --log-format <format> <log>`.
  var replay: TimedCommand
  /// `sh -c 'jq -c -f <program> <log> | rasp replay -'`.
  var pipeline: TimedCommand

  /// The most the `--log-format` replay may take, as a multiple of the own format's (issue 18).
  static let ownFormatTarget = 1.5
  /// The most the `--log-format` replay may take, as a multiple of the jq pipeline's.
  static let pipelineTarget = 0.2

  /// Creates the case and its two commands.
  ///
  /// - Parameters:
  ///   - format: A format other than rasp's own.
  ///   - log: The log converted into it.
  ///   - rasp: The rasp program.
  ///   - jq: The jq program.
  ///   - programs: The directory of the rewrite programs (``BenchLogFormat/rewriteProgram``).
  init(format: BenchLogFormat, log: BenchReport.LogFile, rasp: String, jq: String, programs: String)
  {
    self.format = format
    self.log = log
    let arguments = ["replay", "--log-format", format.rawValue, log.path]
    replay = TimedCommand(
      executable: rasp, arguments: arguments,
      shown: (["rasp"] + arguments).joined(separator: " "))
    let rewrite = [jq, "-c", "-f", programs + "/" + format.rewriteProgram, log.path]
    let script =
      rewrite.map(shellQuoted).joined(separator: " ") + " | "
      + [rasp, "replay", "-"].map(shellQuoted).joined(separator: " ")
    pipeline = TimedCommand(
      executable: "sh", arguments: ["-c", script],
      shown: (["jq"] + rewrite.dropFirst()).joined(separator: " ") + " | rasp replay -",
      isPipeline: true)
  }

  /// The `--log-format` replay's best time over `other`'s.
  ///
  /// - Parameter other: The own format's replay, or the jq pipeline.
  /// - Returns: The ratio; below 1 when the `--log-format` replay is faster.
  func ratio(to other: TimedCommand) -> Double { replay.bestSeconds / other.bestSeconds }
}
