/// When the command colours what it writes: `--color auto|always|never`, after `NO_COLOR` and
/// `CLICOLOR_FORCE`, the conventions terminal tools share.
///
/// `auto`, the default, colours a stream that is a terminal; `NO_COLOR` (set, to anything but
/// the empty string) turns colour off and `CLICOLOR_FORCE` (set, to anything but `0`) turns it
/// on for a stream that is not a terminal — `NO_COLOR` first. `always` and `never` decide
/// alone. A command's choice covers its report on standard output and its diagnostics on
/// standard error (``RaspEnvironment/colorChoice``), each stream decided on its own.
///
/// ```swift
/// let choice = RaspColorChoice(rawValue: "auto") ?? .auto
/// choice.colors(environment.standardOutput, environment)   // false when piped into a file
/// ```
enum RaspColorChoice: String {
  case auto, always, never

  /// The `--color <when>` option of a command that colours `what`.
  ///
  /// ```swift
  /// RaspColorChoice.optionSpec(coloring: "the 'error:' and 'warning:' labels")
  /// ```
  static func optionSpec(coloring what: String) -> RaspOptionSpec {
    RaspOptionSpec(
      name: .color, valueName: "when", allowedValues: ["auto", "always", "never"],
      help:
        "Colour \(what): 'auto' (the default) on a terminal, unless NO_COLOR is set (or when "
        + "CLICOLOR_FORCE is), 'always' or 'never'.")
  }

  /// The choice a command line makes before it is parsed, so that a mistake in it is
  /// reported in the colours it asks for: the last `--color <when>` or `--color=<when>`
  /// before `--`; `auto` without one, or for a value that is not a choice (which the parser
  /// then reports).
  ///
  /// A value never starts with `--` (see ``RaspArgumentParser``), so `--color` is always the
  /// option, never another option's value.
  ///
  /// ```swift
  /// RaspColorChoice.chosen(in: ["--color", "never", "a.jsonl"])   // .never
  /// ```
  static func chosen(in arguments: [String]) -> RaspColorChoice {
    var choice = RaspColorChoice.auto
    var index = arguments.startIndex
    while index < arguments.endIndex, arguments[index] != "--" {
      let argument = arguments[index]
      index += 1
      if argument.hasPrefix("--color=") {
        choice = RaspColorChoice(rawValue: String(argument.dropFirst("--color=".count))) ?? .auto
      } else if argument == "--color", index < arguments.endIndex {
        choice = RaspColorChoice(rawValue: arguments[index]) ?? .auto
        index += 1
      }
    }
    return choice
  }

  /// Whether to colour what is written to `stream`.
  func colors(_ stream: any RaspOutputStream, _ environment: RaspEnvironment) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      if let noColor = environment.variables["NO_COLOR"], !noColor.isEmpty { return false }
      if let force = environment.variables["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
        return true
      }
      return stream.isTerminal
    }
  }

  /// A report's lines coloured by their first character: `-` (expected) red, `+` (actual)
  /// green; the rest as it is.
  static func coloringReport(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      switch line.first {
      case "-": return "\u{1B}[31m" + line + "\u{1B}[0m"
      case "+": return "\u{1B}[32m" + line + "\u{1B}[0m"
      default: return String(line)
      }
    }.joined(separator: "\n")
  }
}
