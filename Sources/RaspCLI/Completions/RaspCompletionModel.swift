import RaspDomains
import RaspReplay

/// What a shell completes after `rasp`, read from the specs that `--help` prints: the
/// subcommands, each one's options (long and short, whether they take a value, and which
/// values), and what its positional arguments are.
///
/// The bash, zsh and fish scripts (``BashCompletionScript``, ``ZshCompletionScript``,
/// ``FishCompletionScript``) are written from this model alone, so a new option or value is
/// completed as soon as its spec has it.
///
/// ```swift
/// let model = RaspCompletionModel.make(domains: RaspBuiltinDomains.all)
/// model.commands.map(\.name)   // ["replay", "check", "diff", …, "version"]
/// ```
struct RaspCompletionModel {
  /// What a shell offers for a value.
  enum Values: Equatable {
    /// Nothing: the value is free text (a path in a snapshot, a number).
    case text
    /// File names.
    case files
    /// These words only.
    case words([String])
    /// Domain names: these, the domains the command line was built with, or, when the line
    /// being completed names spec files (`--spec app.json`), those that `rasp domains --names`
    /// lists with them, the spec files' domains among them.
    case domainNames([String])
  }

  /// One option of a command.
  struct Option {
    /// The long name without dashes: `log-format`.
    let name: String
    /// The one-letter alias, if any.
    let short: Character?
    /// The value's name (`name` for `--log-format <name>`), or `nil` for a flag.
    let valueName: String?
    /// What the value may be; `.text` for a flag.
    let values: Values
    /// Whether the option may be given more than once.
    let isRepeatable: Bool
    /// A short description: the first clause of the option's help.
    let summary: String

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// How the option is written: `-j` and `--jobs`, short first.
    var spellings: [String] { (short.map { ["-\($0)"] } ?? []) + ["--" + name] }
  }

  /// One positional argument of a command.
  struct Argument {
    /// The argument's name in help: `file` for `<file>`.
    let name: String
    /// What it may be.
    let values: Values
    /// Whether several may be given.
    let isRepeatable: Bool
    /// Whether one must be given.
    let isRequired: Bool
  }

  /// One subcommand.
  struct Command {
    /// The name typed after `rasp`: `replay`.
    let name: String
    /// A short description: the abstract.
    let summary: String
    /// The options, `-h`/`--help` last.
    let options: [Option]
    /// The positional arguments, in order.
    let arguments: [Argument]

    /// What the positional arguments may be, or `nil` when the command takes none.
    var argumentValues: Values? { arguments.first?.values }
  }

  /// The command's name: `rasp`.
  let program: String
  /// The options of `rasp` itself (`--version`, `--help`).
  let options: [Option]
  /// The subcommands, in the order `rasp --help` lists them.
  let commands: [Command]

  /// The model of this command line: `rasp`'s subcommands and their specs.
  ///
  /// - Parameter domains: The domains the command line was built with, offered after
  ///   `--domain`.
  /// - Returns: The model of `rasp` and the subcommands `rasp --help` lists.
  static func make(domains: [any RaspDomain]) -> RaspCompletionModel {
    let root = RaspCommandLine.spec
    let specs = RaspCommandLine.commandSpecs
    let domainNames = domains.map(\.name)
    func values(of spec: RaspCommandSpec) -> Values {
      switch spec.name {
      case FormatsCommand.spec.name: return .words(LogFormat.presetNames)
      case CompletionsCommand.spec.name: return .words(CompletionsCommand.shells)
      case HelpCommand.spec.name:
        return .words(specs.map { String($0.name.dropFirst(root.name.count + 1)) })
      default: return .files
      }
    }
    let commands = root.subcommands.map { subcommand in
      guard let spec = specs.first(where: { $0.name == "\(root.name) \(subcommand.name)" })
      else {
        return Command(
          name: subcommand.name, summary: summary(subcommand.abstract), options: [],
          arguments: [])
      }
      let arguments = spec.arguments.map {
        Argument(
          name: $0.name, values: values(of: spec), isRepeatable: $0.isRepeatable,
          isRequired: $0.isRequired)
      }
      return Command(
        name: subcommand.name, summary: summary(spec.abstract),
        options: options(of: spec, domains: domainNames), arguments: arguments)
    }
    return RaspCompletionModel(
      program: root.name, options: options(of: root, domains: domainNames), commands: commands)
  }

  /// A spec's options as the model holds them, with `-h`/`--help`, which every command takes.
  static func options(of spec: RaspCommandSpec, domains: [String]) -> [Option] {
    let help = Option(
      name: "help", short: "h", valueName: nil, values: .text, isRepeatable: false,
      summary: "Show help information")
    return spec.options.map { option in
      let values: Values
      if let allowed = option.allowedValues {
        values = .words(allowed)
      } else if option.valueName == "file" {
        values = .files
      } else if option.name == .domain {
        values = .domainNames(domains)
      } else {
        values = .text
      }
      return Option(
        name: option.name.rawValue, short: option.short, valueName: option.valueName,
        values: values,
        isRepeatable: option.isRepeatable, summary: summary(option.help))
    } + [help]
  }

  /// The first clause of a help text, without its asides in parentheses or its final period:
  /// what a shell shows beside a completion, where a whole paragraph would not fit.
  ///
  /// ```swift
  /// RaspCompletionModel.summary("Indent the output (for people). Or not.")
  /// // "Indent the output"
  /// ```
  static func summary(_ help: String) -> String {
    var text = ""
    var depth = 0
    for character in help {
      if character == "(", depth > 0 || text.last == " " {
        if depth == 0 { text.removeLast() }
        depth += 1
      } else if depth > 0 {
        if character == ")" { depth -= 1 }
      } else {
        text.append(character)
      }
    }
    var clause = Substring(text)
    for separator in [". ", "; ", ": "] {
      if let range = clause.firstRange(of: separator),
        clause.distance(from: clause.startIndex, to: range.lowerBound) >= 20
      {
        clause = clause[..<range.lowerBound]
      }
    }
    while clause.last == "." || clause.last == " " || clause.last == "," {
      clause = clause.dropLast()
    }
    return String(clause)
  }
}
