import RaspDomains
import RaspReplay

/// The `rasp` command line: parses arguments, runs a command, and returns its exit status.
///
/// The `rasp` executable is one call to ``main(domains:)``. A Swift package that defines its own
/// domains (types conforming to ``RaspDomains/RaspDomain``) gets the same command line — every
/// command and option, spec files included — as an executable of its own, whose `main.swift` is:
///
/// ```swift
/// import RaspCLI
/// import RaspDomains
///
/// RaspCommandLine.main(domains: RaspBuiltinDomains.all + [CartDomain()])
/// ```
///
/// Tests call ``run(arguments:environment:domains:)`` with memory streams instead.
public enum RaspCommandLine {
  /// The version `rasp --version` prints.
  public static let version = "0.1.0"

  /// What `rasp --version` prints: the version, the commit it was built from (`+changes` when
  /// the sources differed from it; `unknown` outside a git checkout), and the Swift that
  /// compiled it.
  ///
  /// ```swift
  /// print(RaspCommandLine.versionLine)   // rasp 0.1.0 (commit 90be9c4a1b2c, Swift 6.3)
  /// ```
  public static var versionLine: String {
    "rasp \(version) (commit \(raspBuildCommit), Swift \(swiftVersion))"
  }

  /// The version of the Swift compiler this was built with, to the minor version.
  static var swiftVersion: String {
    #if compiler(>=7.0)
      return "7 or later"
    #elseif compiler(>=6.5)
      return "6.5"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #elseif compiler(>=6.1)
      return "6.1"
    #else
      return "6.0"
    #endif
  }

  static let spec = RaspCommandSpec(
    name: "rasp",
    abstract: "Replay recorded events into state snapshots, and check them against golden files.",
    usage: "rasp <subcommand> [<options>]",
    options: [
      RaspOptionSpec(
        name: .version, short: "V",
        help: "Show the version, the commit it was built from and the Swift that built it.")
    ],
    subcommands: subcommands.map { ($0.name, $0.spec.abstract) } + [
      ("version", "Show the version, as --version does.")
    ],
    exitStatuses: [
      ("0", "Success; also when the reader of the output went away ('| head')."),
      ("1", "Differences found (check, compare, diff)."),
      ("2", "Bad input or a runtime error: a bad line, a file that cannot be read."),
      ("64", "A usage error: an unknown option or subcommand, a bad value."),
      (
        "129, 130, 143",
        "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM, after printing what was replayed."
      ),
    ])

  /// The subcommands, in the order `rasp --help` lists them.
  static let subcommands: [RaspSubcommand] = [
    RaspSubcommand(spec: ReplayCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try ReplayCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: CheckCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try CheckCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: CompareCommand.spec) {
      arguments, environment, domains, newVersions throws(RaspCommandError) in
      try CompareCommand.run(
        arguments, environment: environment, domains: domains, newVersions: newVersions)
    },
    RaspSubcommand(spec: FindCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try FindCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: BlameCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try BlameCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: ReportCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try ReportCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: ShrinkCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try ShrinkCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: RedactCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try RedactCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: DiffCommand.spec) {
      arguments, environment, _ throws(RaspCommandError) in
      try DiffCommand.run(arguments, environment: environment)
    },
    RaspSubcommand(spec: DomainsCommand.spec) {
      arguments, environment, domains throws(RaspCommandError) in
      try DomainsCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: FormatsCommand.spec) {
      arguments, environment, _ throws(RaspCommandError) in
      try FormatsCommand.run(arguments, environment: environment)
    },
    RaspSubcommand(spec: SpecCommand.spec, usesDomains: true) {
      arguments, environment, domains throws(RaspCommandError) in
      try SpecCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: CompletionsCommand.spec) {
      arguments, environment, domains throws(RaspCommandError) in
      try CompletionsCommand.run(arguments, environment: environment, domains: domains)
    },
    RaspSubcommand(spec: HelpCommand.spec) {
      arguments, environment, _ throws(RaspCommandError) in
      try HelpCommand.run(arguments, environment: environment)
    },
  ]

  /// The specs of the subcommands that have options of their own, in the order `rasp --help`
  /// lists them: what `--help`, the completions and the manual page are made from.
  static var commandSpecs: [RaspCommandSpec] { subcommands.map(\.spec) }

  /// Runs the command line and returns the exit status.
  ///
  /// Data goes to `environment.standardOutput`, diagnostics to `environment.standardError`.
  ///
  /// ```swift
  /// let status = RaspCommandLine.run(
  ///   arguments: ["replay", "events.jsonl"], environment: .process())
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the program's name.
  ///   - environment: The streams, variables and working directory to use.
  ///   - domains: The domains events may belong to; the built-in ones by default. Pass
  ///     `RaspBuiltinDomains.all + [yours]` to keep the built-in ones beside yours. Names must be
  ///     unique; spec files given with `--spec` add more.
  ///   - comparing: New versions of some of `domains`, each named as the domain it replaces
  ///     (or a new name): `rasp compare` replays logs through `domains` as the old version
  ///     and through `domains` with these in place as the new one. None by default.
  /// - Returns: The exit status (see ``RaspExitCode``).
  public static func run(
    arguments: [String], environment: RaspEnvironment,
    domains: [any RaspDomain] = RaspBuiltinDomains.all, comparing: [any RaspDomain] = []
  ) -> Int32 {
    do {
      return try dispatch(
        arguments, environment: environment, domains: domains, comparing: comparing
      ).rawValue
    } catch {
      RaspDiagnostics.report(error, to: environment)
      return error.exitCode.rawValue
    }
  }

  private static func dispatch(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain],
    comparing: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    guard let first = arguments.first else {
      return try printHelp(spec, environment: environment)
    }
    let rest = Array(arguments.dropFirst())
    if let subcommand = subcommands.first(where: { $0.name == first }) {
      if RaspArgumentParser.asksForHelp(rest) {
        return try printHelp(subcommand.spec, environment: environment)
      }
      if subcommand.usesDomains { try checkNames(of: domains) }
      let run: RaspSubcommand.Run
      if let runComparing = subcommand.runComparing {
        try checkNames(of: comparing)
        run = { arguments, environment, domains throws(RaspCommandError) in
          try runComparing(arguments, environment, domains, comparing)
        }
      } else {
        run = subcommand.run
      }
      guard subcommand.colorsItsErrors else {
        return try run(rest, environment, domains)
      }
      return colored(rest, environment) { environment throws(RaspCommandError) in
        try run(rest, environment, domains)
      }
    }
    switch first {
    case "--help", "-h":
      return try printHelp(spec, environment: environment)
    case "--version", "-V", "version":
      try printOutput(versionLine + "\n", environment: environment)
      return .success
    default:
      if first.hasPrefix("-") {
        _ = try RaspArgumentParser.parse([first], spec: spec)
      }
      throw unknownSubcommand(first)
    }
  }

  /// Rejects two domains of one name, which a program that passes its own domains could give.
  private static func checkNames(of domains: [any RaspDomain]) throws(RaspCommandError) {
    var seen = Set<String>()
    for domain in domains where !seen.insert(domain.name).inserted {
      throw .failure("two domains are named '\(domain.name)': each domain needs a name of its own")
    }
    // A domain of the user's own must write its state as JSON before anything is printed.
    for domain in domains {
      if let problem = domain.initialStateProblem { throw .failure(problem) }
    }
  }

  /// Runs a command whose errors and warnings are coloured as its `--color` says, reporting
  /// its errors itself.
  private static func colored(
    _ arguments: [String], _ environment: RaspEnvironment,
    _ body: (RaspEnvironment) throws(RaspCommandError) -> RaspExitCode
  ) -> RaspExitCode {
    RaspDiagnostics.reportingErrors(arguments, environment: environment, body)
  }

  static func unknownSubcommand(_ name: String) -> RaspCommandError {
    let names = spec.subcommands.map(\.name)
    var message = "Unknown subcommand '\(name)'"
    if let near = RaspSpelling.nearest(to: name, among: names) {
      message += ". Did you mean '\(near)'?"
    }
    return spec.usageError(message)
  }

  static func printHelp(_ spec: RaspCommandSpec, environment: RaspEnvironment)
    throws(RaspCommandError) -> RaspExitCode
  {
    try printOutput(
      environment.naming(RaspHelpFormatter.help(for: spec)), environment: environment)
    return .success
  }

  static func printOutput(_ text: String, environment: RaspEnvironment) throws(RaspCommandError) {
    try printOutput(Array(text.utf8), environment: environment)
  }

  /// Writes to standard output; a reader that went away ends the command quietly.
  static func printOutput(_ bytes: [UInt8], environment: RaspEnvironment) throws(RaspCommandError) {
    do {
      try environment.standardOutput.write(bytes)
    } catch {
      switch error {
      case .brokenPipe: return
      case .failed(let message): throw .output(message)
      }
    }
  }
}
