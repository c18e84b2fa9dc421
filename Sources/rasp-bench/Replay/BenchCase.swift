/// One comparison of the benchmark: a `rasp` command and the jq program that prints the same
/// values from the same log.
///
/// ```swift
/// let cases = BenchCase.all(log: "bench-output/events-1m.jsonl", programs: "fixtures/bench")
/// cases[0].raspArguments   // ["replay", "bench-output/events-1m.jsonl"]
/// ```
struct BenchCase {
  /// A short name for the table.
  var name: String
  /// The `rasp` command line, without the program.
  var raspArguments: [String]
  /// The jq command line, without the program.
  var jqArguments: [String]
  /// How many lines both print, when it is known in advance.
  var expectedLines: Int?
  /// How many times faster than jq rasp should be, when the issue sets a target.
  var targetRatio: Double?

  /// The path `--select` follows; `select.jq` follows the same one.
  static let selectedPath = "nav.tab"

  /// The three comparisons over `log`, whose events number `events`.
  ///
  /// - Parameters:
  ///   - log: The event log.
  ///   - events: Its number of events.
  ///   - programs: The directory of the jq programs.
  /// - Returns: Every snapshot, the final snapshot, a selected value.
  static func all(log: String, events: Int, programs: String) -> [BenchCase] {
    [
      BenchCase(
        name: "Every snapshot", raspArguments: ["replay", log],
        jqArguments: ["-nc", "-f", programs + "/foreach.jq", log], expectedLines: events,
        targetRatio: 25),
      BenchCase(
        name: "Final snapshot", raspArguments: ["replay", "--final", log],
        jqArguments: ["-nc", "-f", programs + "/reduce.jq", log], expectedLines: 1,
        targetRatio: 25),
      BenchCase(
        name: "Selected value", raspArguments: ["replay", "--select", selectedPath, log],
        jqArguments: ["-nc", "-f", programs + "/select.jq", log], expectedLines: nil,
        targetRatio: nil),
    ]
  }

  /// The rasp command as a user would type it.
  func raspCommand(_ rasp: String) -> String { ([rasp] + raspArguments).joined(separator: " ") }
  /// The jq command as a user would type it.
  func jqCommand(_ jq: String) -> String { ([jq] + jqArguments).joined(separator: " ") }
}

/// The measurements of one tool's runs on one case.
struct ToolRuns {
  /// One run.
  struct Run {
    var seconds: Double
    var userSeconds: Double
    var systemSeconds: Double
    var peakKilobytes: Int
    /// The output's lines and bytes; 0 when it went to `/dev/null`.
    var outputLines: Int
    var outputBytes: Int

    init(_ result: ChildProcess.Result) {
      seconds = result.seconds
      userSeconds = result.userSeconds
      systemSeconds = result.systemSeconds
      peakKilobytes = result.peakKilobytes
      outputLines = result.output.lineCount
      outputBytes = result.output.byteCount
    }
  }

  var runs: [Run] = []

  /// The fastest run.
  var best: Run { runs.min { $0.seconds < $1.seconds }! }
  /// The highest peak memory of any run, in kibibytes.
  var peakKilobytes: Int { runs.map(\.peakKilobytes).max() ?? 0 }
}

/// The outcome of one case: both tools' checked runs and timed runs.
struct CaseResult {
  var benchCase: BenchCase
  /// rasp's run through a pipe, whose output was compared with jq's.
  var raspCheck: ToolRuns.Run
  /// jq's run through a pipe.
  var jqCheck: ToolRuns.Run
  /// rasp's timed runs, output to `/dev/null`.
  var rasp = ToolRuns()
  /// jq's timed runs.
  var jq = ToolRuns()

  /// rasp's highest peak memory in any run, in kibibytes.
  var raspPeakKilobytes: Int { max(rasp.peakKilobytes, raspCheck.peakKilobytes) }
  /// jq's highest peak memory in any run, in kibibytes.
  var jqPeakKilobytes: Int { max(jq.peakKilobytes, jqCheck.peakKilobytes) }

  /// How many times faster rasp's best run was than jq's.
  var ratio: Double { jq.best.seconds / rasp.best.seconds }
}
