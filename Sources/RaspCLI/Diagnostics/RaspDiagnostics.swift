/// Writes diagnostics to standard error, in colour as the environment's
/// ``RaspEnvironment/colorChoice`` says: by default (``RaspColorChoice/auto``) when it is a
/// terminal and `NO_COLOR` is not set, or when `CLICOLOR_FORCE` is.
enum RaspDiagnostics {
  /// Whether diagnostics may use colour in `environment`.
  static func usesColor(_ environment: RaspEnvironment) -> Bool {
    environment.colorChoice.colors(environment.standardError, environment)
  }

  /// Runs a command that takes `--color`, with its diagnostics, errors included, in the
  /// colours that the arguments ask for.
  ///
  /// ``RaspCommandLine`` runs every subcommand that declares `--color` in this, so that its
  /// error is reported here instead of by ``RaspCommandLine/run(arguments:environment:domains:)``,
  /// whose environment does not know the choice.
  ///
  /// ```swift
  /// return RaspDiagnostics.reportingErrors(arguments, environment: environment) {
  ///   environment throws(RaspCommandError) in
  ///   try subcommand.run(arguments, environment, domains)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The command's arguments, for ``RaspColorChoice/chosen(in:)``.
  ///   - environment: The environment to run in.
  ///   - body: The command, given the environment with the choice made.
  /// - Returns: The command's status, or its error's after reporting it.
  static func reportingErrors(
    _ arguments: [String], environment: RaspEnvironment,
    _ body: (RaspEnvironment) throws(RaspCommandError) -> RaspExitCode
  ) -> RaspExitCode {
    var environment = environment
    environment.colorChoice = RaspColorChoice.chosen(in: arguments)
    do {
      return try body(environment)
    } catch {
      report(error, to: environment)
      return error.exitCode
    }
  }

  /// Writes an error's message (whose parts from the input are already escaped).
  static func report(_ error: RaspCommandError, to environment: RaspEnvironment) {
    writeAsIs(error.message(colored: usesColor(environment)), to: environment)
  }

  /// Writes lines of text, with control characters other than the line ends escaped, so that
  /// a value from the input (an event type, a file name) can never send escape sequences to
  /// the terminal.
  static func write(_ text: String, to environment: RaspEnvironment) {
    writeAsIs(text.escapingControlCharacters(keepingNewlines: true), to: environment)
  }

  /// Writes a warning line that starts with `rasp: warning:`, colouring the label.
  static func warn(_ text: String, to environment: RaspEnvironment) {
    let text = text.escapingControlCharacters(keepingNewlines: true)
    guard usesColor(environment) else {
      writeAsIs(text, to: environment)
      return
    }
    let colored = text.replacingFirst("warning:", with: "\u{1B}[1;33mwarning:\u{1B}[0m")
    writeAsIs(colored, to: environment)
  }

  /// Writes text as it is; a failure to write diagnostics is ignored, as there is nowhere left
  /// to report it.
  private static func writeAsIs(_ text: String, to environment: RaspEnvironment) {
    try? environment.standardError.write(environment.naming(text))
  }
}

extension String {
  /// The string with its control characters written as `\u001B` escapes, as in JSON.
  ///
  /// Diagnostics quote values from the input; escaping C0 and C1 controls and DEL keeps a log
  /// from moving the cursor, colouring the terminal or splitting one message over two lines.
  ///
  /// ```swift
  /// "\u{1B}[31mx.y".escapingControlCharacters   // "\\u001B[31mx.y"
  /// ```
  var escapingControlCharacters: String { escapingControlCharacters(keepingNewlines: false) }

  /// The string with its control characters escaped, line feeds kept when `keepingNewlines`.
  func escapingControlCharacters(keepingNewlines: Bool) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      if keepingNewlines, scalar == "\n" { return false }
      return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard unicodeScalars.contains(where: isControl) else { return self }
    var result = ""
    for scalar in unicodeScalars {
      if isControl(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension String {
  /// The string with the first occurrence of `target` replaced.
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    return self[..<range.lowerBound] + replacement + self[range.upperBound...]
  }
}
