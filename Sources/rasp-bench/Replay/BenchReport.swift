/// The results of `rasp-bench replay` as Markdown: the table of cases, the issue's targets with
/// ✓ or ✗, the commands, and the details of every run.
///
/// The report is what `docs/benchmarks.md` pastes, so it says everything a reader needs to
/// judge the figures: when, on what, with which log, and how each figure was taken.
struct BenchReport {
  /// A log the cases ran over.
  struct LogFile {
    var path: String
    var events: Int
    var bytes: Int

    var megabytes: Double { Double(bytes) / 1_000_000 }
    var summary: String {
      "`\(path)`, \(BenchFormat.grouped(events)) events, "
        + "\(BenchFormat.decimal(megabytes, digits: 1)) MB"
    }
  }

  /// One rasp run over the long log.
  struct LongRun {
    var name: String
    var command: String
    var run: ToolRuns.Run
  }

  /// When, where and with what the benchmark ran; the load averages are taken around the cases
  /// over the main log.
  var header: ReportHeader
  var raspPath: String
  var log: LogFile
  var runs: Int
  var sampleLines: Int
  var peakMemorySource: String
  var results: [CaseResult]
  var longLog: LogFile?
  var longRuns: [LongRun]
  var core: [CoreBenchmark.Measurement]

  /// The peak memory the issue allows, in kibibytes.
  static let memoryTargetKilobytes = 32 * 1024
  /// The core's target: tens of millions of events per second.
  static let coreTarget = 10_000_000.0

  /// The whole report.
  var markdown: String {
    var lines = header.lines
    lines.append("- Log: \(log.summary)\(longLog.map { "; long log: \($0.summary)" } ?? "").")
    lines.append(
      "- Method: best of \(runs) timed runs, rasp and jq alternating, standard output to "
        + "`/dev/null`; peak memory is the highest of all runs (\(peakMemorySource)). Before them, "
        + "one run of each through a pipe read by rasp-bench: line counts equal, and the first and "
        + "last \(BenchFormat.grouped(sampleLines)) lines equal as parsed JSON.")
    lines.append(header.loadAverageLine(around: "the runs over the main log"))
    lines.append("")
    lines.append(contentsOf: summaryTable)
    lines.append("")
    lines.append(
      "Events/s and MB/s are rasp's: events, and megabytes (10⁶ bytes) of log, over its best "
        + "time. Ratio is jq's best time over rasp's.")
    lines.append("")
    lines.append(contentsOf: targetsTable)
    lines.append("")
    lines.append("<details><summary>Every run</summary>")
    lines.append("")
    lines.append(contentsOf: detailsTable)
    lines.append("")
    lines.append("</details>")
    return lines.joined(separator: "\n") + "\n"
  }

  private var summaryTable: [String] {
    var rows = [
      "| Case | rasp | jq | Ratio | Events/s | MB/s | Peak memory, rasp / jq |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for result in results {
      let best = result.rasp.best
      rows.append(
        "| \(result.benchCase.name): \(shortCommand(result.benchCase)) "
          + "| \(BenchFormat.seconds(best.seconds)) "
          + "| \(BenchFormat.seconds(result.jq.best.seconds)) "
          + "| \(BenchFormat.ratio(result.ratio)) "
          + "| \(BenchFormat.rate(Double(log.events) / best.seconds)) "
          + "| \(BenchFormat.decimal(log.megabytes / best.seconds, digits: 1)) "
          + "| \(BenchFormat.memory(result.raspPeakKilobytes)) "
          + "/ \(BenchFormat.memory(result.jqPeakKilobytes)) |"
      )
    }
    if let longLog {
      for long in longRuns {
        rows.append(
          "| \(long.name), \(BenchFormat.grouped(longLog.events)) events (rasp alone, one run) "
            + "| \(BenchFormat.seconds(long.run.seconds)) | — | — "
            + "| \(BenchFormat.rate(Double(longLog.events) / long.run.seconds)) "
            + "| \(BenchFormat.decimal(longLog.megabytes / long.run.seconds, digits: 1)) "
            + "| \(BenchFormat.memory(long.run.peakKilobytes)) / — |")
      }
    }
    if let pipeline = core.first {
      rows.append(
        "| Core: \(pipeline.path), \(BenchFormat.grouped(pipeline.events)) events in-process "
          + "| \(BenchFormat.seconds(pipeline.seconds)) | — | — "
          + "| \(BenchFormat.rate(pipeline.eventsPerSecond)) | — | — |")
    }
    return rows
  }

  private var targetsTable: [String] {
    var rows = [
      "| Target (issue 7) | Measured | Met |",
      "| --- | ---: | :---: |",
    ]
    for result in results {
      guard let target = result.benchCase.targetRatio else { continue }
      rows.append(
        "| \(result.benchCase.name) ≥ \(BenchFormat.decimal(target, digits: 0))× faster than "
          + "jq `\(programName(result.benchCase))` "
          + "| \(BenchFormat.ratio(result.ratio)) | \(mark(result.ratio >= target)) |")
    }
    let peak = results.map(\.raspPeakKilobytes).max() ?? 0
    rows.append(
      "| Peak memory < 32 MiB, \(BenchFormat.grouped(log.events)) events "
        + "| \(BenchFormat.memory(peak)) | \(mark(peak < Self.memoryTargetKilobytes)) |")
    if let longLog, !longRuns.isEmpty {
      let longPeak = longRuns.map(\.run.peakKilobytes).max() ?? 0
      rows.append(
        "| Peak memory < 32 MiB, \(BenchFormat.grouped(longLog.events)) events "
          + "| \(BenchFormat.memory(longPeak)) | \(mark(longPeak < Self.memoryTargetKilobytes)) |")
    } else {
      rows.append(
        "| Peak memory < 32 MiB, 10× longer log | not run (`make bench BENCH_LONG=1`) | — |")
    }
    if let pipeline = core.first {
      rows.append(
        "| Core: tens of millions of events/s (≥ 10 M) "
          + "| \(BenchFormat.rate(pipeline.eventsPerSecond)) "
          + "| \(mark(pipeline.eventsPerSecond >= Self.coreTarget)) |"
      )
    }
    return rows
  }

  private var detailsTable: [String] {
    var rows = [
      "| Case | Tool | Command | Timed runs (s) | User, system of best | Through a pipe | Output |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for result in results {
      for (tool, runs, check, command) in [
        ("rasp", result.rasp, result.raspCheck, result.benchCase.raspCommand(raspPath)),
        ("jq", result.jq, result.jqCheck, result.benchCase.jqCommand(header.jqPath)),
      ] {
        let best = runs.best
        let timedRuns = runs.runs.map { BenchFormat.decimal($0.seconds, digits: 2) }
        rows.append(
          "| \(result.benchCase.name) | \(tool) | `\(command)` "
            + "| \(timedRuns.joined(separator: ", ")) "
            + "| \(BenchFormat.seconds(best.userSeconds)), "
            + "\(BenchFormat.seconds(best.systemSeconds)) "
            + "| \(BenchFormat.seconds(check.seconds)) "
            + "| \(BenchFormat.lines(check.outputLines)), "
            + "\(BenchFormat.decimal(Double(check.outputBytes) / 1_000_000, digits: 1)) MB |")
      }
    }
    for long in longRuns {
      rows.append(
        "| \(long.name), long log | rasp | `\(long.command)` "
          + "| \(BenchFormat.decimal(long.run.seconds, digits: 2)) "
          + "| \(BenchFormat.seconds(long.run.userSeconds)), "
          + "\(BenchFormat.seconds(long.run.systemSeconds)) "
          + "| — | not compared |")
    }
    for measurement in core {
      rows.append(
        "| Core, in-process | rasp-bench | \(measurement.path) "
          + "| \(BenchFormat.decimal(measurement.seconds, digits: 3)) (best) "
          + "| \(BenchFormat.rate(measurement.eventsPerSecond)) events/s "
          + "| — | checksum \(measurement.checksum) |"
      )
    }
    return rows
  }

  /// `` `rasp replay --final` vs `reduce.jq` ``.
  private func shortCommand(_ benchCase: BenchCase) -> String {
    let options = benchCase.raspArguments.dropFirst().dropLast()
    return "`" + (["rasp replay"] + options).joined(separator: " ") + "` vs `"
      + programName(benchCase) + "`"
  }

  /// The file name of the case's jq program.
  private func programName(_ benchCase: BenchCase) -> String {
    let path = benchCase.jqArguments.dropLast().last ?? "jq"
    return path.split(separator: "/").last.map(String.init) ?? path
  }

  private func mark(_ met: Bool) -> String { met ? "✓" : "✗" }
}
