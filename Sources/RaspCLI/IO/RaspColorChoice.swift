/// When the command colours what it writes: `--color auto|always|never`, after `NO_COLOR` and
/// `CLICOLOR_FORCE`, the conventions terminal tools share.
///
/// `auto`, the default, colours a stream that is a terminal; `NO_COLOR` (set, to anything but
/// the empty string) turns colour off and `CLICOLOR_FORCE` (set, to anything but `0`) turns it
/// on for a stream that is not a terminal — `NO_COLOR` first. `always` and `never` decide
/// alone.
///
/// ```swift
/// let choice = RaspColorChoice(rawValue: "auto") ?? .auto
/// choice.colors(environment.standardOutput, environment)   // false when piped into a file
/// ```
enum RaspColorChoice: String {
  case auto, always, never

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
