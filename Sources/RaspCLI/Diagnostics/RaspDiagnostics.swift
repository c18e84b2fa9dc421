/// Writes diagnostics to standard error, in colour only when it is a terminal and `NO_COLOR`
/// is not set.
enum RaspDiagnostics {
  /// Whether diagnostics may use colour in `environment`.
  static func usesColor(_ environment: RaspEnvironment) -> Bool {
    environment.standardError.isTerminal && environment.variables["NO_COLOR"] == nil
  }

  /// Writes an error's message.
  static func report(_ error: RaspCommandError, to environment: RaspEnvironment) {
    write(error.message(colored: usesColor(environment)), to: environment)
  }

  /// Writes a line of text; a failure to write diagnostics is ignored, as there is nowhere
  /// left to report it.
  static func write(_ text: String, to environment: RaspEnvironment) {
    try? environment.standardError.write(text)
  }

  /// Writes a warning line that starts with `rasp: warning:`, colouring the label.
  static func warn(_ text: String, to environment: RaspEnvironment) {
    guard usesColor(environment) else {
      write(text, to: environment)
      return
    }
    let colored = text.replacingFirst("warning:", with: "\u{1B}[1;33mwarning:\u{1B}[0m")
    write(colored, to: environment)
  }
}

extension String {
  /// The string with the first occurrence of `target` replaced.
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    return self[..<range.lowerBound] + replacement + self[range.upperBound...]
  }
}
