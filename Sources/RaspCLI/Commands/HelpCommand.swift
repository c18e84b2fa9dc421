#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspDomains

/// `rasp help`: the help of a subcommand, or the whole manual page, `rasp(1)`.
///
/// `rasp help replay` prints what `rasp replay --help` prints; `rasp help --man` prints the
/// manual page in roff (``RaspManualPage``), made from the same specs as `--help`, which
/// `make install` installs as `share/man/man1/rasp.1`. The page's date is that of
/// `SOURCE_DATE_EPOCH` when it is set (as for reproducible builds; `make install` sets it to
/// the commit's), otherwise today's:
///
/// ```
/// $ rasp help --man | man -l -
/// ```
enum HelpCommand {
  static let spec = RaspCommandSpec(
    name: "rasp help",
    abstract: "Show the help of a subcommand, or with --man the manual page rasp(1).",
    discussion: """
      'rasp help <subcommand>' prints what 'rasp <subcommand> --help' prints. With --man it \
      prints the manual page of rasp and all its subcommands, in roff, made from the same \
      text as --help; 'make install' installs it, and 'rasp help --man | man -l -' shows it \
      without installing.
      """,
    usage: "rasp help [<subcommand>]\n       rasp help --man",
    arguments: [
      RaspArgumentSpec(
        name: "subcommand", help: "The subcommand to show the help of; by default, rasp itself.")
    ],
    options: [
      RaspOptionSpec(
        name: .man, help: "Print the manual page rasp(1), in roff, instead of the help text.")
    ])

  static func run(_ arguments: [String], environment: RaspEnvironment)
    throws(RaspCommandError) -> RaspExitCode
  {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    if parsed.flag(.man) {
      if let subcommand = parsed.positionals.first {
        throw spec.usageError(
          "Unexpected argument '\(subcommand)': with '--man', the page describes every "
            + "subcommand")
      }
      let page = RaspManualPage.make(
        root: RaspCommandLine.spec, commands: RaspCommandLine.commandSpecs,
        version: RaspCommandLine.version, date: manualDate(environment))
      try RaspCommandLine.printOutput(page, environment: environment)
      return .success
    }
    guard let name = parsed.positionals.first else {
      return try RaspCommandLine.printHelp(RaspCommandLine.spec, environment: environment)
    }
    guard let command = RaspCommandLine.commandSpecs.first(where: { $0.name == "rasp " + name })
    else {
      if name == "version" {
        throw spec.usageError(
          "Subcommand 'version' has no help of its own: it prints what 'rasp --version' prints")
      }
      throw RaspCommandLine.unknownSubcommand(name)
    }
    return try RaspCommandLine.printHelp(command, environment: environment)
  }

  /// The manual page's date, `YYYY-MM-DD` in UTC: of `SOURCE_DATE_EPOCH` (seconds since
  /// 1970) when it holds a number, otherwise of now.
  static func manualDate(_ environment: RaspEnvironment) -> String {
    let seconds =
      environment.variables["SOURCE_DATE_EPOCH"].flatMap { Int64($0) } ?? Int64(time(nil))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let (year, month, day) = RaspTimestamp.civil(fromDays: days)
    func padded(_ number: Int64, _ width: Int) -> String {
      let digits = String(number)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
  }
}
