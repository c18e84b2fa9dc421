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
///   options: [RaspOptionSpec(name: .final, help: "Print only the last snapshot.")])
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

  /// A usage error of this command: `message`, then the usage line and where help is.
  ///
  /// ```swift
  /// throw spec.usageError("Option '--check' needs map files to check")
  /// ```
  func usageError(_ message: String) -> RaspCommandError {
    .usage(message, usage: usage, command: name)
  }
}

/// One option: a flag (`--final`) or an option with a value (`--select <path>`).
struct RaspOptionSpec {
  /// The long name, typed: `.select` for `--select`.
  let name: RaspOptionName
  /// A one-letter alias, if any: `h` for `-h`.
  var short: Character? = nil
  /// The value's name in help (`path` for `--select <path>`), or `nil` for a flag.
  var valueName: String? = nil
  /// Whether the option may be given several times.
  var isRepeatable = false
  /// The values accepted, if only some are.
  var allowedValues: [String]? = nil
  /// What to say about a value that is not accepted but names one that is by another name,
  /// by the value in lower case: `redux` for `--log-format` is `fsa`.
  var valueHints: [String: String] = [:]
  /// One sentence for help.
  let help: String

  /// An option named `name`: a flag without a `valueName`, an option with a value with one.
  init(
    name: RaspOptionName, short: Character? = nil, valueName: String? = nil,
    isRepeatable: Bool = false, allowedValues: [String]? = nil,
    valueHints: [String: String] = [:], help: String
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.isRepeatable = isRepeatable
    self.allowedValues = allowedValues
    self.valueHints = valueHints
    self.help = help
  }

  /// The option as help and errors show it: `--select <path>`.
  var display: String {
    valueName.map { "--\(name.rawValue) <\($0)>" } ?? "--\(name.rawValue)"
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
///
/// Options are read by their ``RaspOptionName``: ``flag(_:)`` for a flag, ``value(_:)`` for an
/// option given at most once, ``all(_:)`` for a repeatable one, and ``isGiven(_:)`` for any.
/// An option the command does not declare reads as not given, so that one reader of options
/// (``ReplayOptions``) serves commands that declare some of them only.
///
/// ```swift
/// if parsed.flag(.final) { … }
/// let path = parsed.value(.select)
/// ```
struct RaspParsedArguments {
  /// The values given for each option, by its name, in order; flags have one empty value per
  /// use.
  var values: [RaspOptionName: [String]] = [:]
  /// The positional arguments, in order.
  var positionals: [String] = []
  /// The options of the command, by name: what each read is checked against.
  var declared: [RaspOptionName: RaspOptionSpec] = [:]

  /// Whether an option, a flag or one with a value, was given.
  func isGiven(_ option: RaspOptionName) -> Bool { values[option] != nil }

  /// Whether a flag was given.
  func flag(_ option: RaspOptionName) -> Bool {
    assert(
      declared[option].map { $0.valueName == nil } ?? true,
      "'--\(option.rawValue)' takes a value: read it with value(_:) or isGiven(_:)")
    return isGiven(option)
  }

  /// The names given with `--domain`, each value a name or a comma-separated list of them
  /// (`--domain geo,nav --domain rest`), in order; each checked against `names`.
  ///
  /// - Throws: A usage error naming the first unknown name, with the nearest known one.
  func domainNames(among names: [String], spec: RaspCommandSpec) throws(RaspCommandError)
    -> [String]
  {
    let chosen = all(.domain).flatMap {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    for name in chosen where !names.contains(name) {
      var message = "Unknown domain '\(name)' for '--domain <name>'"
      if let near = RaspSpelling.nearest(to: name, among: names) {
        message += ". Did you mean '\(near)'?"
      }
      throw spec.usageError(message)
    }
    return chosen
  }

  /// The value of an option given at most once.
  func value(_ option: RaspOptionName) -> String? {
    assert(
      declared[option].map { $0.valueName != nil && !$0.isRepeatable } ?? true,
      "'--\(option.rawValue)' is a flag or repeatable: read it with flag(_:) or all(_:)")
    return values[option]?.last
  }

  /// The one event log of a command that takes exactly one (`rasp shrink`, `rasp redact`).
  ///
  /// - Parameters:
  ///   - description: What the log is, for the error when it is missing (`the event log that
  ///     fails`).
  ///   - spec: The command's spec, for the usage error.
  /// - Returns: The log's path.
  /// - Throws: A usage error when there is no log, or more than one.
  func onlyLog(describedAs description: String, spec: RaspCommandSpec) throws(RaspCommandError)
    -> String
  {
    guard positionals.count == 1, let file = positionals.first else {
      throw spec.usageError(
        positionals.isEmpty
          ? "Missing expected argument '<file>': \(description)"
          : "'\(spec.name)' takes one event log, not \(positionals.count)")
    }
    return file
  }

  /// Every value of a repeatable option.
  func all(_ option: RaspOptionName) -> [String] {
    assert(
      declared[option].map { $0.valueName != nil && $0.isRepeatable } ?? true,
      "'--\(option.rawValue)' is not repeatable: read it with flag(_:) or value(_:)")
    return values[option] ?? []
  }
}
