// rasp-bench — benchmarks for the rasp package, one subcommand per layer.
//
//   rasp-bench core [--events N] [--repeat N]      the core's synchronous paths, in events/second
//   rasp-bench generate --events N [--seed S]      a deterministic event log on standard output,
//                       [--format F]               in rasp's own format or another tool's
//   rasp-bench replay --log FILE [<options>]       `rasp replay` against jq, with a results table
//   rasp-bench formats --log FILE [<options>]      `rasp replay --log-format` against rasp's own
//                                                  format and a jq rewrite, with a results table
//   rasp-bench keyed --log FILE [<options>]        `rasp replay --key-by` on one thread and
//                                                  several, against the unkeyed replay
//   rasp-bench stages --log FILE                   nanoseconds per line of each stage of a replay
//   rasp-bench latency --rasp PATH [<options>]     write-to-snapshot latency of `rasp replay -`
//   rasp-bench shrink --rasp PATH [<options>]      `rasp shrink` of a planted culprit, resumed
//                                                  from saved states and from the start
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  Usage: rasp-bench <subcommand> [<options>]
    Subcommands: core, generate, replay, formats, keyed, stages, latency, shrink
  """
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "core":
  status = CoreBenchmark.main(arguments: Array(arguments.dropFirst()))
case "generate":
  status = GenerateCommand.main(arguments: Array(arguments.dropFirst()))
case "replay":
  status = ReplayBenchmark.main(arguments: Array(arguments.dropFirst()))
case "formats":
  status = FormatsBenchmark.main(arguments: Array(arguments.dropFirst()))
case "keyed":
  status = KeyedBenchmark.main(arguments: Array(arguments.dropFirst()))
case "stages":
  status = StagesBenchmark.main(arguments: Array(arguments.dropFirst()))
case "latency":
  status = LatencyBenchmark.main(arguments: Array(arguments.dropFirst()))
case "shrink":
  status = ShrinkBenchmark.main(arguments: Array(arguments.dropFirst()))
case "--help", "-h":
  print(usage)
  status = 0
case let other?:
  printError("Error: Unknown subcommand '\(other)'\n\(usage)")
  status = 64
case nil:
  printError(usage)
  status = 64
}
exit(status)
