import RaspDomains

/// What a command accepts: its options and arguments, and the words of its help.
///
/// Commands declare a spec; ``RaspArgumentParser`` parses a command line against it, and
/// ``RaspHelpFormatter`` writes its `--help` from it, so that help and parsing never disagree.
///
/// ```swift
/// let spec = RaspCommandSpec(
///   name: "rasp replay", abstract: "Replay event logs.",
///   usage: "rasp replay [--final] [<file> ...]",
///   arguments: [RaspArgumentSpec(name: "file", help: "An event log.", isRepeatable: true)],
///   options: [RaspOptionSpec(name: "final", help: "Print only the last snapshot.")])
/// ```
struct RaspCommandSpec {
  /// The command's full name, as typed: `rasp replay`.
  let name: String
  /// One sentence: what the command does.
  let abstract: String
  /// More explanation, printed after the abstract; may be empty.
  var discussion: String = ""
  /// The usage line, without `Usage: `.
  let usage: String
  /// The positional arguments.
  var arguments: [RaspArgumentSpec] = []
  /// The options, in the order help lists them.
  var options: [RaspOptionSpec] = []
  /// Subcommands, listed in help (for `rasp` itself).
  var subcommands: [(name: String, abstract: String)] = []
  /// The exit statuses the command ends with, and what each means, for help's EXIT STATUS.
  var exitStatuses: [(status: String, meaning: String)] = []
}

/// One option: a flag (`--final`) or an option with a value (`--select <path>`).
struct RaspOptionSpec {
  /// The long name without dashes: `select`.
  let name: String
  /// A one-letter alias, if any: `h` for `-h`.
  var short: Character? = nil
  /// The value's name in help (`path` for `--select <path>`), or `nil` for a flag.
  var valueName: String? = nil
  /// Whether the option may be given several times.
  var isRepeatable = false
  /// The values accepted, if only some are.
  var allowedValues: [String]? = nil
  /// One sentence for help.
  let help: String

  /// The option as help and errors show it: `--select <path>`.
  var display: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }
}

/// One positional argument.
struct RaspArgumentSpec {
  /// The argument's name in help: `file` for `<file>`.
  let name: String
  /// One sentence for help.
  let help: String
  /// Whether several may be given.
  var isRepeatable = false
  /// Whether at least one must be given.
  var isRequired = false
}

/// The result of parsing a command line: option values and positional arguments.
struct RaspParsedArguments {
  /// The values given for each option, in order; flags have one empty value per use.
  var values: [String: [String]] = [:]
  /// The positional arguments, in order.
  var positionals: [String] = []

  /// Whether a flag was given.
  func flag(_ name: String) -> Bool { values[name] != nil }

  /// The names given with `--domain`, each value a name or a comma-separated list of them
  /// (`--domain geo,nav --domain rest`), in order; each checked against `names`.
  ///
  /// - Throws: A usage error naming the first unknown name, with the nearest known one.
  func domainNames(among names: [String], spec: RaspCommandSpec) throws(RaspCommandError)
    -> [String]
  {
    let chosen = all("domain").flatMap {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    for name in chosen where !names.contains(name) {
      var message = "Unknown domain '\(name)' for '--domain <name>'"
      if let near = RaspSpelling.nearest(to: name, among: names) {
        message += ". Did you mean '\(near)'?"
      }
      throw .usage(message, usage: spec.usage, command: spec.name)
    }
    return chosen
  }

  /// The value of an option given at most once.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option.
  func all(_ name: String) -> [String] { values[name] ?? [] }
}
