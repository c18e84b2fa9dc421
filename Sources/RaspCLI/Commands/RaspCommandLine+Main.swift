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
  /// of killing it. `SIGINT`, `SIGTERM` and `SIGHUP` still end the process: a replay stops at
  /// the next line and prints what it replayed and its summary first, and the temporary file
  /// of a golden file being written is removed (see `RaspInterruptCleanup`).
  ///
  /// ```swift
  /// // Sources/cart-rasp/main.swift
  /// import RaspCLI
  /// import RaspDomains
  ///
  /// RaspCommandLine.main(domains: RaspBuiltinDomains.all + [CartDomain()])
  /// ```
  ///
  /// A package that changes a domain registers the new version beside the old one, and
  /// `rasp compare` replays logs through both (see docs/compare.md):
  ///
  /// ```swift
  /// RaspCommandLine.main(
  ///   domains: RaspBuiltinDomains.all + [CartDomain()], comparing: [CartDomainV2()])
  /// ```
  ///
  /// - Parameters:
  ///   - domains: The domains events may belong to; the built-in ones by default.
  ///   - comparing: New versions of some of `domains`, by name, for `compare`; none by
  ///     default.
  /// - Returns: Never: the process exits with the command's status (see ``RaspExitCode``).
  public static func main(
    domains: [any RaspDomain] = RaspBuiltinDomains.all, comparing: [any RaspDomain] = []
  ) -> Never {
    // A closed pipe must surface as EPIPE from write(2), which rasp treats as a quiet end.
    signal(SIGPIPE, SIG_IGN)
    // A replay keeps every input open: `--concat` over many rotated parts needs more than the
    // usual soft limit.
    RaspFileLimit.raiseToHardLimit()
    RaspInterruptCleanup.install()
    var environment = RaspEnvironment.process()
    // A command of the user's own names itself: `cart-rasp`, from the path it was run by.
    if let path = CommandLine.arguments.first,
      let name = path.split(separator: "/").last.map(String.init), !name.isEmpty
    {
      environment.programName = name
    }
    let status = run(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
      domains: domains, comparing: comparing)
    // A replay stopped by a signal has printed what it replayed; the process now dies of the
    // signal, so that a shell running it in a script stops too, as after any Ctrl-C.
    if let number = RaspInterruptCleanup.interruption.signal, status == 128 + number {
      signal(number, SIG_DFL)
      raise(number)
    }
    exit(status)
  }
}
