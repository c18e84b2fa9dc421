// The `rasp` executable: wires the process's streams to RaspCLI and exits with its status.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspCLI

// A closed pipe must surface as EPIPE from write(2), which rasp treats as a quiet end.
signal(SIGPIPE, SIG_IGN)
exit(RaspCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: .process()))
