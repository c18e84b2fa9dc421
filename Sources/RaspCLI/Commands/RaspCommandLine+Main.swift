#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspDomains

extension RaspCommandLine {
  /// Runs the command line of this process and exits with its status: everything a `main.swift`
  /// needs.
  ///
  /// Reads the process's arguments, streams and environment variables, and ignores `SIGPIPE`,
  /// so that a reader of the output that goes away (`| head`) ends the command quietly instead
  /// of killing it. `SIGINT`, `SIGTERM` and `SIGHUP` still end the process, after removing the
  /// temporary file of a golden file being written (see `RaspInterruptCleanup`).
  ///
  /// ```swift
  /// // Sources/cart-rasp/main.swift
  /// import RaspCLI
  /// import RaspDomains
  ///
  /// RaspCommandLine.main(domains: RaspBuiltinDomains.all + [CartDomain()])
  /// ```
  ///
  /// - Parameter domains: The domains events may belong to; the built-in ones by default.
  /// - Returns: Never: the process exits with the command's status (see ``RaspExitCode``).
  public static func main(domains: [any RaspDomain] = RaspBuiltinDomains.all) -> Never {
    // A closed pipe must surface as EPIPE from write(2), which rasp treats as a quiet end.
    signal(SIGPIPE, SIG_IGN)
    RaspInterruptCleanup.install()
    exit(
      run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: .process(),
        domains: domains))
  }
}
