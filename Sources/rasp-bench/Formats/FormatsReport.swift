/// The results of `rasp-bench formats` as Markdown: for each format, a table of the three
/// commands' best times, the ratios the issue sets targets for, met or missed, and peak memory;
/// then the details of every run.
///
/// Like ``BenchReport``, it is what `docs/benchmarks.md` pastes, so it says when, on what, with
/// which logs, and how each figure was taken.
struct FormatsReport {
  /// When, where and with what the benchmark ran; the load averages are taken around the timed
  /// runs.
  var header: ReportHeader
  /// The log in rasp's own format.
  var log: BenchReport.LogFile
  /// How many timed runs each command made.
  var runs: Int
  /// The output of the own format's replay, which every other command printed too.
  var reference: OutputSample
  /// `rasp replay <log>`.
  var own: TimedCommand
  /// The formats compared with it.
  var cases: [FormatCase]

  /// The whole report.
  var markdown: String {
    var lines = header.lines
    let converted = cases.map { "`\($0.log.path)`, \(megabytes($0.log.bytes))" }
    lines.append(
      "- Log: \(log.summary), in rasp's own format; converted in-process by "
        + "`rasp-bench formats` (as `rasp-bench generate --format` writes it) into "
        + converted.joined(separator: "; ") + ".")
    lines.append(
      "- Method: best of \(runs) timed runs, every command in turn, standard output to "
        + "`/dev/null`; peak memory is the highest of all runs (\(ChildProcess.peakMemorySource); "
        + "for a jq pipeline, that of its largest process). Before them, one run of each through "
        + "a pipe read by rasp-bench, which hashed every byte: each printed exactly what "
        + "`rasp replay` of the own-format log printed, \(BenchFormat.lines(reference.lineCount))"
        + ", \(megabytes(reference.byteCount)), FNV-1a `\(BenchFormat.hash(reference.hash))`.")
    lines.append(header.loadAverageLine(around: "the timed runs"))
    lines.append("")
    lines.append(
      "Ratio is the best time of `rasp replay --log-format <format>` over that of the command "
        + "on the row. The targets (issue 18): at most \(target(FormatCase.ownFormatTarget)) the "
        + "time of the same events in rasp's own format, and at most "
        + "\(target(FormatCase.pipelineTarget)) the time of jq rewriting the lines into rasp's "
        + "for `rasp replay -`.")
    for formatCase in cases {
      lines.append("")
      lines.append(contentsOf: table(formatCase))
    }
    lines.append("")
    lines.append("<details><summary>Every run</summary>")
    lines.append("")
    lines.append(contentsOf: detailsTable)
    lines.append("")
    lines.append(
      "A pipeline runs under `sh -c`; its user and system times are jq's and rasp's together.")
    lines.append("")
    lines.append("</details>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The table of one format.
  private func table(_ formatCase: FormatCase) -> [String] {
    let replay = formatCase.replay
    var rows = [
      "##### \(formatCase.format.rawValue): \(formatCase.format.title)",
      "",
      "| Command | Best | Ratio | Target | Met | Peak memory |",
      "| --- | ---: | ---: | ---: | :---: | ---: |",
      "| `\(replay.shown)` | \(BenchFormat.seconds(replay.bestSeconds)) | — | — | — "
        + "| \(BenchFormat.memory(replay.peakKilobytes)) |",
    ]
    for (other, note, limit) in [
      (own, " (rasp's own format)", FormatCase.ownFormatTarget),
      (formatCase.pipeline, "", FormatCase.pipelineTarget),
    ] {
      let ratio = formatCase.ratio(to: other)
      let met = ratio <= limit ? "met" : "missed"
      rows.append(
        "| `\(cell(other.shown))`\(note) | \(BenchFormat.seconds(other.bestSeconds)) "
          + "| \(BenchFormat.ratio(ratio)) | ≤ \(target(limit)) | \(met) "
          + "| \(BenchFormat.memory(other.peakKilobytes)) |")
    }
    return rows
  }

  private var detailsTable: [String] {
    var rows = [
      "| Format | Command | Timed runs (s) | User, system of best | Through a pipe, hashed |",
      "| --- | --- | --- | --- | --- |",
    ]
    var commands = [("rasp", own)]
    for formatCase in cases {
      commands.append((formatCase.format.rawValue, formatCase.replay))
      commands.append((formatCase.format.rawValue, formatCase.pipeline))
    }
    for (format, command) in commands {
      let best = command.runs.best
      let timedRuns = command.runs.runs.map { BenchFormat.decimal($0.seconds, digits: 2) }
      let outcome = format == "rasp" ? "the reference" : "identical"
      let check = command.check.map { BenchFormat.seconds($0.seconds) + ", " + outcome } ?? "—"
      let typed = command.isPipeline ? command.arguments.last ?? "" : command.typed
      rows.append(
        "| \(format) | `\(cell(typed))` | \(timedRuns.joined(separator: ", ")) "
          + "| \(BenchFormat.seconds(best.userSeconds)), "
          + "\(BenchFormat.seconds(best.systemSeconds)) | \(check) |")
    }
    return rows
  }

  /// `1.5×`: a target, as few digits as it needs.
  private func target(_ value: Double) -> String {
    BenchFormat.decimal(value, digits: 1) + "×"
  }

  /// Bytes in megabytes: `109.2 MB`.
  private func megabytes(_ bytes: Int) -> String {
    BenchFormat.decimal(Double(bytes) / 1_000_000, digits: 1) + " MB"
  }

  /// `text` for a table cell, its pipes escaped.
  private func cell(_ text: String) -> String {
    text.replacing("|", with: #"\|"#)
  }
}
