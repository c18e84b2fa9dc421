/// The results of `rasp-bench keyed` as Markdown: the best time of each replay, the ratios
/// issue 20 sets targets for, met or missed, and peak memory; then every run.
struct KeyedReport {
  /// When, where and with what the benchmark ran.
  var header: ReportHeader
  /// The keyed log.
  var log: BenchReport.LogFile
  /// How many timed runs each command made.
  var runs: Int
  /// The path of each event's key.
  var keyPath: String
  /// The commands, with their runs.
  var commands: KeyedBenchmark.Commands
  /// What the keyed replays printed (each number of threads the same).
  var finalOutput: OutputSample?
  var everyOutput: OutputSample?

  /// The most a keyed replay on one thread may take, as a multiple of the unkeyed one's time.
  static let keyedTarget = 1.2
  /// The least a keyed `--final` replay on two threads must gain over one thread.
  static let jobsTarget = 1.7

  /// The whole report.
  var markdown: String {
    var lines = header.lines
    lines.append("- Log: \(log.summary), keyed by `\(keyPath)`.")
    var method =
      "- Method: best of \(runs) timed runs, every command in turn, standard output to "
      + "`/dev/null`; peak memory is the highest of all runs (\(ChildProcess.peakMemorySource))."
    for (name, output) in [("`--final`", finalOutput), ("every snapshot", everyOutput)] {
      guard let output else { continue }
      method +=
        " Before them, the keyed replays (\(name)) ran through a pipe read by rasp-bench, "
        + "which hashed every byte: on every number of threads, "
        + "\(BenchFormat.lines(output.lineCount)), FNV-1a `\(BenchFormat.hash(output.hash))`."
    }
    lines.append(method)
    lines.append(header.loadAverageLine(around: "the timed runs"))
    lines.append("")
    lines.append(
      "The targets (issue 20): a keyed replay on one thread at most "
        + "\(BenchFormat.decimal(Self.keyedTarget, digits: 1))× the time of the unkeyed replay "
        + "of the same events (which skips the lines that make sense only per key); "
        + "`--final` on two threads at least \(BenchFormat.decimal(Self.jobsTarget, digits: 1))"
        + "× faster than on one.")
    lines.append("")
    lines.append("| Command | Best | User, system | Ratio | Target | Met | Peak memory |")
    lines.append("| --- | ---: | ---: | ---: | ---: | :---: | ---: |")
    lines += rows(
      unkeyed: commands.unkeyedFinal, keyed: commands.keyedFinal, jobsTarget: Self.jobsTarget)
    lines += rows(unkeyed: commands.unkeyedEvery, keyed: commands.keyedEvery, jobsTarget: nil)
    lines.append("")
    lines.append("<details><summary>Every run</summary>")
    lines.append("")
    lines.append("| Command | Timed runs (s) |")
    lines.append("| --- | --- |")
    for command in commands.all {
      let timed = command.runs.runs.map { BenchFormat.decimal($0.seconds, digits: 2) }
      lines.append("| `\(command.shown)` | \(timed.joined(separator: ", ")) |")
    }
    lines.append("")
    lines.append("</details>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The rows of an unkeyed replay and the keyed ones: on one thread against the unkeyed, on
  /// more against one thread.
  private func rows(unkeyed: TimedCommand, keyed: [TimedCommand], jobsTarget: Double?)
    -> [String]
  {
    var rows = [row(unkeyed, ratio: nil)]
    guard let one = keyed.first else { return rows }
    rows.append(
      row(
        one, ratio: (one.bestSeconds / unkeyed.bestSeconds, "× unkeyed"),
        target: (Self.keyedTarget, true)))
    for command in keyed.dropFirst() {
      rows.append(
        row(
          command, ratio: (one.bestSeconds / command.bestSeconds, "× faster than -j 1"),
          target: jobsTarget.map { ($0, false) }))
    }
    return rows
  }

  /// One command's row: its best time, a ratio, and whether it meets its target (`atMost`: the
  /// ratio must not exceed it; otherwise it must reach it).
  private func row(
    _ command: TimedCommand, ratio: (Double, String)?, target: (Double, atMost: Bool)? = nil
  ) -> String {
    let best = command.runs.best
    let ratioText = ratio.map { BenchFormat.decimal($0.0, digits: 2) + $0.1 } ?? "—"
    var targetText = "—"
    var met = "—"
    if let target, let ratio {
      targetText = (target.atMost ? "≤ " : "≥ ") + BenchFormat.decimal(target.0, digits: 1) + "×"
      met = (target.atMost ? ratio.0 <= target.0 : ratio.0 >= target.0) ? "met" : "missed"
    }
    return "| `\(command.shown)` | \(BenchFormat.seconds(best.seconds)) "
      + "| \(BenchFormat.seconds(best.userSeconds)), \(BenchFormat.seconds(best.systemSeconds)) "
      + "| \(ratioText) | \(targetText) | \(met) | \(BenchFormat.memory(command.peakKilobytes)) |"
  }
}
