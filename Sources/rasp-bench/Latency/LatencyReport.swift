/// The result of `rasp-bench latency` as a Markdown table of one row: the lines, the rate, the
/// percentiles and maximum of the latency in milliseconds, and whether the goal is met.
///
/// The table is short so that `docs/benchmarks.md` can paste it beside the replay benchmark's,
/// and the goal is the issue's: lines written to a pipe at 1,000 a second are answered with a
/// p99 of at most 50 ms. A missed goal is reported with ✗, not turned into a failure, because
/// the figures depend on the machine and its load.
///
/// ```swift
/// let report = LatencyReport(lines: 5000, rate: 1000, statistics: statistics)
/// print(report.markdown, terminator: "")
/// // | Lines | Rate (lines/s) | p50 (ms) | p90 (ms) | p99 (ms) | Max (ms) | p99 ≤ 50 ms |
/// // | ---: | ---: | ---: | ---: | ---: | ---: | :---: |
/// // | 5,000 | 1,000 | 0.11 | 0.14 | 0.32 | 4.71 | ✓ |
/// ```
struct LatencyReport {
  /// The issue's goal for the 99th percentile, in nanoseconds: 50 ms.
  static let goalNanoseconds: UInt64 = 50_000_000

  /// How many lines were written and answered.
  var lines: Int
  /// The requested rate, in lines per second.
  var rate: Double
  /// The latencies' figures.
  var statistics: LatencyStatistics

  /// Whether the 99th percentile is within the goal.
  var meetsGoal: Bool { statistics.p99 <= Self.goalNanoseconds }

  /// The table, with a line feed after each row.
  var markdown: String {
    let goal = BenchFormat.decimal(LatencyStatistics.milliseconds(Self.goalNanoseconds), digits: 0)
    let rateText = BenchFormat.decimal(rate, digits: rate == rate.rounded() ? 0 : 2)
    let figures = [statistics.p50, statistics.p90, statistics.p99, statistics.maximum].map {
      BenchFormat.decimal(LatencyStatistics.milliseconds($0), digits: 2)
    }
    let rows = [
      "| Lines | Rate (lines/s) | p50 (ms) | p90 (ms) | p99 (ms) | Max (ms) | p99 ≤ \(goal) ms |",
      "| ---: | ---: | ---: | ---: | ---: | ---: | :---: |",
      "| \(BenchFormat.grouped(lines)) | \(rateText) | "
        + figures.joined(separator: " | ") + " | \(meetsGoal ? "✓" : "✗") |",
    ]
    return rows.joined(separator: "\n") + "\n"
  }
}
