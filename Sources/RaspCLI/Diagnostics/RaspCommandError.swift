/// Everything that can make a command fail, turned into a message and an exit status in one place.
///
/// ```swift
/// let error = RaspCommandError.input(file: "events.jsonl", line: 12, column: 7,
///                                    reason: "expected ',' or '}' after an object member")
/// print(error)          // events.jsonl:12:7: error: expected ',' or '}' after an object member
/// error.exitCode        // .failure
///
/// let spec = RaspCommandError.invalidFile(
///   "app.json", line: 9, column: 17, path: "domains[0].events[1].ops[0].op",
///   reason: "unknown operation 'apend'. Did you mean 'append'?")
/// print(spec)
/// // app.json:9:17: error: at domains[0].events[1].ops[0].op: unknown operation 'apend'. Did
/// // you mean 'append'?
/// ```
public enum RaspCommandError: Error, CustomStringConvertible {
  /// The command line is wrong; `usage` is the command's usage line, `command` its name.
  /// Printed as every other error, after `rasp: error:`, then the usage and where help is:
  ///
  /// ```
  /// rasp: error: unknown option '--selct'; did you mean '--select'?
  /// Usage: rasp replay [--select <path>] [--final] [--domain <name> ...] [<options>] [<file> ...]
  ///   See 'rasp replay --help' for more information.
  /// ```
  case usage(String, usage: String, command: String)
  /// A file could not be opened or read.
  case cannotOpen(String, reason: String)
  /// A file could not be written (a golden file being recorded).
  case cannotWrite(String, reason: String)
  /// A line of an input file is bad.
  case input(file: String, line: Int, column: Int?, reason: String)
  /// An input file read as a whole (a spec, a golden file) is bad: at a line and column, if
  /// known, and at a JSON path within the document, if the problem has one.
  case invalidFile(String, line: Int?, column: Int?, path: String?, reason: String)
  /// Output could not be written.
  case output(String)
  /// Anything else that stops the command, with a message.
  case failure(String)
  /// Several errors found together (every mistake of a spec file), reported in order.
  case multiple([RaspCommandError])

  /// The exit status for the error.
  ///
  /// ```swift
  /// RaspCommandError.output("disk full").exitCode   // .failure
  /// ```
  public var exitCode: RaspExitCode {
    switch self {
    case .usage: return .usage
    case .multiple(let errors): return errors.first?.exitCode ?? .failure
    default: return .failure
    }
  }

  /// The message, as printed on standard error (without colour), ending with a line end.
  ///
  /// ```swift
  /// print(
  ///   RaspCommandError.cannotOpen("x.jsonl", reason: "No such file or directory"), terminator: "")
  /// // rasp: error: cannot open 'x.jsonl': No such file or directory
  /// ```
  public var description: String { message(colored: false) }

  /// A usage error's message as a clause after `error:`, the way git and cargo write theirs:
  /// its first word in lower case (an acronym stays as it is) and a suggestion after a
  /// semicolon — `unknown option '--selct'; did you mean '--select'?`.
  ///
  /// - Parameter message: The message as a sentence.
  /// - Returns: The message as a clause.
  static func clause(_ message: String) -> String {
    let text = message.replacing(". Did you mean '", with: "; did you mean '")
    let word = text.prefix { $0.isLetter }
    guard let first = word.first, first.isUppercase,
      word.dropFirst().allSatisfy(\.isLowercase), word.count > 1 || word == "A"
    else { return text }
    return first.lowercased() + text.dropFirst()
  }

  /// The message, optionally with terminal colours, ending with a line end.
  ///
  /// ```swift
  /// let text = error.message(colored: standardError.isTerminal)
  /// ```
  ///
  /// - Parameter colored: Whether to colour the `error:` label.
  /// - Returns: The message.
  public func message(colored: Bool) -> String {
    let label = colored ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
    switch self {
    case .usage(let message, let usage, let command):
      return
        "rasp: \(label) \(Self.clause(message).escapingControlCharacters)\nUsage: \(usage)\n"
        + "  See '\(command) --help' for more information.\n"
    case .cannotOpen(let file, let reason):
      return "rasp: \(label) cannot open '\(file.escapingControlCharacters)': \(reason)\n"
    case .cannotWrite(let file, let reason):
      return "rasp: \(label) cannot write '\(file.escapingControlCharacters)': \(reason)\n"
    case .input(let file, let line, let column, let reason):
      let place = column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
      return "\(place.escapingControlCharacters): \(label) \(reason.escapingControlCharacters)\n"
    case .invalidFile(let file, let line, let column, let path, let reason):
      var place = file
      if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
      let at = path.map { "at \($0): " } ?? ""
      return
        "\(place.escapingControlCharacters): \(label) \((at + reason).escapingControlCharacters)\n"
    case .output(let reason):
      return "rasp: \(label) cannot write the output: \(reason)\n"
    case .failure(let reason):
      return "rasp: \(label) \(reason.escapingControlCharacters)\n"
    case .multiple(let errors):
      return errors.map { $0.message(colored: colored) }.joined()
    }
  }
}
