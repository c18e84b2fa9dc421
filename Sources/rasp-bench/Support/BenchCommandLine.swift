/// What the benchmark subcommands share on the command line: reading `--option value` pairs,
/// answering `--help` and usage errors, and printing and saving a report.
///
/// ```swift
/// static func main(arguments: [String]) -> Int32 {
///   BenchCommandLine.main(parse(arguments), usage: usage) { options in
///     BenchCommandLine.publishReport(to: options.scratch + "/results.md") {
///       try run(options).markdown
///     }
///   }
/// }
/// ```
enum BenchCommandLine {
  /// Reads `arguments` as pairs of an option and its value, handing each pair to `apply`.
  ///
  /// ```swift
  /// let parsed = BenchCommandLine.parse(["--runs", "5"], into: Options()) {
  ///   options, name, value in
  ///   switch name {
  ///   case "--runs": options.runs = try BenchCommandLine.positiveNumber(value, for: name)
  ///   default: throw UsageErrorMessage("Unknown option '\(name)'")
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the subcommand.
  ///   - options: The options before any argument is read: the defaults.
  ///   - apply: Sets the option `name` to `value`, or throws the usage error
  ///     (``UsageErrorMessage``).
  /// - Returns: The options, or the usage error: empty for `--help` or `-h`, which may stand
  ///   anywhere; `Missing value for '--name'` for an option at the end.
  static func parse<Options>(
    _ arguments: [String], into options: Options,
    _ apply: (inout Options, _ name: String, _ value: String) throws -> Void
  ) -> Result<Options, UsageErrorMessage> {
    var options = options
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--help" || argument == "-h" { return .failure(UsageErrorMessage("")) }
      guard let value = remaining.popFirst() else {
        return .failure(UsageErrorMessage("Missing value for '\(argument)'"))
      }
      do { try apply(&options, argument, value) } catch {
        return .failure(error as? UsageErrorMessage ?? UsageErrorMessage("\(error)"))
      }
    }
    return .success(options)
  }

  /// Reads a positive whole number.
  ///
  /// - Parameters:
  ///   - value: The option's value.
  ///   - name: The option, for the message.
  /// - Returns: The number.
  /// - Throws: `'--runs' expects a positive whole number, found 'x'`.
  static func positiveNumber(_ value: String, for name: String) throws(UsageErrorMessage) -> Int {
    guard let number = Int(value), number > 0 else {
      throw UsageErrorMessage("'\(name)' expects a positive whole number, found '\(value)'")
    }
    return number
  }

  /// Runs a subcommand whose arguments were parsed: prints the usage on standard output for
  /// `--help`, or the usage error and the usage on standard error; otherwise runs `body`.
  ///
  /// - Parameters:
  ///   - parsed: The options, or the usage error (empty for `--help`).
  ///   - usage: The subcommand's usage.
  ///   - body: Runs the subcommand with the options.
  /// - Returns: 0 after `--help`, 64 after a usage error, else what `body` returns.
  static func main<Options>(
    _ parsed: Result<Options, UsageErrorMessage>, usage: String, _ body: (Options) -> Int32
  ) -> Int32 {
    switch parsed {
    case .success(let options):
      return body(options)
    case .failure(let error) where error.message.isEmpty:
      print(usage)
      return 0
    case .failure(let error):
      printError("Error: \(error.message)\n\(usage)")
      return 64
    }
  }

  /// Makes a report, prints it on standard output and saves it to `path`; tells of an error on
  /// standard error instead.
  ///
  /// - Parameters:
  ///   - path: Where to save the report.
  ///   - makeReport: Runs the benchmark and returns its report, as Markdown.
  /// - Returns: 0, or the error's ``BenchError/exitStatus`` (2 for another error).
  static func publishReport(to path: String, _ makeReport: () throws -> String) -> Int32 {
    do {
      let text = try makeReport()
      print(text, terminator: "")
      try FileBytes.save(text, to: path)
      printProgress("report written to \(path)")
      return 0
    } catch {
      printError("rasp-bench: error: \(error)")
      return (error as? BenchError)?.exitStatus ?? 2
    }
  }
}

/// A usage error's message; empty when the user asked for help.
struct UsageErrorMessage: Error {
  /// The message, without the usage; empty for `--help`.
  let message: String

  /// Creates a usage error.
  ///
  /// - Parameter message: What is wrong, with the user's value in single quotes.
  init(_ message: String) { self.message = message }
}
