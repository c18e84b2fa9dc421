/// `rasp-bench shrink`: times `rasp shrink` on a log with a planted culprit, each try resumed
/// from the state saved before its first change against the plain ddmin that replays every
/// try from the first line (`--from-start`); prints a Markdown report.
///
/// The log is ``PlantedLog``'s: `--events` events of `--keys` keys, three of them the
/// culprit. Each shrink runs `--runs` times, in turn, the best wall time counting; each must
/// leave exactly the three planted lines, or the benchmark stops with status 1. The replays are
/// those the summary on standard error counts: the same in both, since the search makes the
/// same decisions; the time is what resuming saves.
///
/// ```sh
/// rasp-bench shrink --rasp .build/release/rasp --spec fixtures/shrink-vault/vault.json \
///   --events 100000 --keys 1000 --scratch bench-output
/// ```
enum ShrinkBenchmark {
  static let usage = """
    Usage: rasp-bench shrink --rasp <path> --spec <file> [--events <n>] [--keys <n>]
                             [--seed <n>] [--runs <count>] [--scratch <dir>] [--commit <text>]
    """

  /// What to run.
  struct Options {
    var rasp = "rasp"
    var spec = "fixtures/shrink-vault/vault.json"
    var events = 100_000
    var keys = 1_000
    var seed: UInt64 = 40
    var runs = 3
    var scratch = "bench-output"
    var commit: String?
  }

  /// One shrink's figures.
  struct Figure {
    var command: String
    var replays: String
    var resumed = Double.infinity
    var fromStart = Double.infinity
  }

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `shrink`.
  /// - Returns: 0 when the report was printed, 1 when a shrink fails or leaves other lines
  ///   than the planted ones, 2 when the benchmark cannot run, 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    let parsed = BenchCommandLine.parse(arguments, into: Options()) { options, name, value in
      switch name {
      case "--rasp": options.rasp = value
      case "--spec": options.spec = value
      case "--events": options.events = try BenchCommandLine.positiveNumber(value, for: name)
      case "--keys": options.keys = try BenchCommandLine.positiveNumber(value, for: name)
      case "--seed":
        options.seed = UInt64(try BenchCommandLine.positiveNumber(value, for: name))
      case "--runs": options.runs = try BenchCommandLine.positiveNumber(value, for: name)
      case "--scratch": options.scratch = value
      case "--commit": options.commit = value
      default: throw UsageErrorMessage("Unknown option '\(name)'")
      }
    }
    return BenchCommandLine.main(parsed, usage: usage) { options in
      BenchCommandLine.publishReport(to: options.scratch + "/shrink.md") {
        try run(options)
      }
    }
  }

  /// Writes the log, runs the shrinks, and returns the report.
  static func run(_ options: Options) throws(BenchError) -> String {
    let log = PlantedLog(events: options.events, keys: options.keys, seed: options.seed)
    let path = options.scratch + "/shrink-events.jsonl"
    let output = options.scratch + "/shrink-min.jsonl"
    try FileBytes.save(log.lines.joined(), to: path)
    let cases: [(String, [String])] = [
      ("--key-by source --fails-with 2", ["--key-by", "source", "--fails-with", "2"]),
      ("--domain vault --fails-with 2 (no keys)", ["--domain", "vault", "--fails-with", "2"]),
    ]
    var figures: [Figure] = []
    let loadBefore = Machine.loadAverage()
    for (shown, extra) in cases {
      var figure = Figure(command: shown, replays: "")
      for run in 1...options.runs {
        for fromStart in [false, true] {
          let arguments =
            ["shrink", path, "--spec", options.spec, "-o", output] + extra
            + (fromStart ? ["--from-start"] : [])
          let result = try ChildProcess.run(
            options.rasp, arguments, output: .null, scratch: options.scratch)
          let written = FileBytes.contents(of: output).map { String(decoding: $0, as: UTF8.self) }
          guard result.status == 0, written == log.culpritLines else {
            throw .mismatch(
              "'rasp \(arguments.joined(separator: " "))' did not leave the three planted "
                + "lines: status \(result.status), \(result.standardError)")
          }
          let replays = replayCount(in: result.standardError)
          if !figure.replays.isEmpty, figure.replays != replays {
            throw .mismatch("the shrinks made \(figure.replays) and \(replays) replays")
          }
          figure.replays = replays
          if fromStart {
            figure.fromStart = min(figure.fromStart, result.seconds)
          } else {
            figure.resumed = min(figure.resumed, result.seconds)
          }
          printProgress(
            "run \(run)/\(options.runs) \(shown)\(fromStart ? " --from-start" : ""): "
              + BenchFormat.seconds(result.seconds))
        }
      }
      figures.append(figure)
    }
    let loadAfter = Machine.loadAverage()
    let commit = options.commit.map { ", commit `\($0)`" } ?? ""
    var lines = [
      "#### \(Machine.now())\(commit)", "",
      "- Machine: \(Machine.current().summary)",
      "- Log: \(options.events) events of \(options.keys) keys, 3 of them planted "
        + "(seed \(options.seed)); best of \(options.runs) runs",
      "- Load average before and after: \(loadBefore.map { "\($0)" } ?? "?"), "
        + "\(loadAfter.map { "\($0)" } ?? "?")",
      "",
      "| `rasp shrink …` | Replays | Resumed from saved states "
        + "| From the start (`--from-start`) |",
      "|---|---:|---:|---:|",
    ]
    for figure in figures {
      lines.append(
        "| `\(figure.command)` | \(figure.replays) | \(BenchFormat.seconds(figure.resumed)) | "
          + "\(BenchFormat.seconds(figure.fromStart)) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The count of replays in a shrink's summary: `… · 164 replays · …`.
  static func replayCount(in summary: String) -> String {
    for part in summary.split(separator: "·") {
      let words = part.split(separator: " ")
      if words.count == 2, words[1].hasPrefix("replay") { return String(words[0]) }
    }
    return "?"
  }
}

/// A log with a planted culprit, as `rasp shrink`'s tests make one: `geo.heading`, `nav.push`
/// and small `vault.deposit` events of many keys, and three deposits of one key, far apart,
/// whose total overflows a double, so that the third is a bad line.
///
/// ```swift
/// let log = PlantedLog(events: 100_000, keys: 1_000, seed: 40)
/// log.culpritLines   // the three lines a shrink must leave
/// ```
struct PlantedLog {
  /// The lines, each with its line end.
  let lines: [String]
  /// The planted lines, in order.
  let culpritLines: String

  init(events: Int, keys: Int, seed: UInt64) {
    var random = BenchRandom(seed: seed)
    var lines: [String] = []
    lines.reserveCapacity(events)
    for _ in 0..<events {
      let key = "user-\(random.below(keys))"
      switch random.below(3) {
      case 0:
        lines.append(
          #"{"type":"geo.heading","source":"\#(key)","payload":{"heading":\#(random.below(361))}}"#
            + "\n")
      case 1:
        let screen = ["home", "cart", "search", "settings"][random.below(4)]
        lines.append(
          #"{"type":"nav.push","source":"\#(key)","payload":{"screen":"\#(screen)"}}"# + "\n")
      default:
        let amount = 1 + random.below(99)
        lines.append(
          #"{"type":"vault.deposit","source":"\#(key)","payload":{"amount":\#(amount)}}"# + "\n")
      }
    }
    var culprits: Set<Int> = []
    while culprits.count < min(3, events) { culprits.insert(random.below(events)) }
    let victim = "user-\(random.below(keys))"
    for (number, position) in culprits.sorted().enumerated() {
      lines[position] =
        #"{"type":"vault.deposit","source":"\#(victim)","payload":{"amount":6e307,"n":\#(number)}}"#
        + "\n"
    }
    self.lines = lines
    culpritLines = culprits.sorted().map { lines[$0] }.joined()
  }
}
