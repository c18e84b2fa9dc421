/// What every benchmark report that compares rasp with jq opens with: when and at which commit
/// it ran, on what machine, with which tools, and how busy the machine was.
///
/// ```swift
/// let header = ReportHeader(
///   date: Machine.now(), commit: "e495be0", machine: .current(), raspVersion: "rasp 0.1.0",
///   jqVersion: "jq-1.6", jqPath: "jq", loadAverages: (0.4, 1.1))
/// header.lines   // ["#### 2026-11-25 14:51 UTC, commit `e495be0`", "", "- Machine: …", …]
/// ```
struct ReportHeader {
  /// When the benchmark ran, as `Machine.now()` writes it.
  var date: String
  /// The commit measured, when known.
  var commit: String?
  /// The machine.
  var machine: Machine
  /// The first line of `rasp --version`.
  var raspVersion: String
  /// The first line of `jq --version`.
  var jqVersion: String
  /// The jq program run.
  var jqPath: String
  /// The one-minute load average before and after the timed runs.
  var loadAverages: (before: Double?, after: Double?)

  /// The heading, a blank line, and the items for the machine and the tools.
  var lines: [String] {
    let commitText = commit.map { ", commit `\($0)`" } ?? ""
    return [
      "#### \(date)\(commitText)",
      "",
      "- Machine: \(machine.summary).",
      "- Tools: \(raspVersion) (release build), \(jqVersion) (`\(jqPath)`).",
    ]
  }

  /// The item for the load averages.
  ///
  /// - Parameter runs: Which runs they were taken around: `the runs over the main log`.
  /// - Returns: `- Load average (1 min) before and after <runs>: 1.50 and 1.13.`
  func loadAverageLine(around runs: String) -> String {
    let load = [loadAverages.before, loadAverages.after].map {
      $0.map { BenchFormat.decimal($0, digits: 2) } ?? "?"
    }
    return "- Load average (1 min) before and after \(runs): \(load[0]) and \(load[1])."
  }
}
