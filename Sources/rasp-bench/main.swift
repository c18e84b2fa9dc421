// rasp-bench — benchmarks for the rasp package, one subcommand per layer.
//
//   rasp-bench core [--events N] [--repeat N]   the core's synchronous paths, in events/second
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = "Usage: rasp-bench <subcommand> [<options>]\n  Subcommands: core"
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "core":
  status = CoreBenchmark.main(arguments: Array(arguments.dropFirst()))
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
