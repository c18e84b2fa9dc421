import RaspReplay

/// The hint after a log's first line fails to read as an event in a way that says the file is
/// no JSON Lines at all: a JSON array of events (`[{…},{…}]`, or `[` alone on its line), or
/// one pretty-printed JSON document (`{` alone on its line). rasp reads one event per line; jq
/// turns either into that.
///
/// ```swift
/// OneEventPerLineHint.hint(for: diagnostic, file: "events.json")
/// // rasp: hint: rasp reads one JSON event per line (JSON Lines); 'events.json' looks like a
/// // JSON array of events: replay one per line with jq -c '.[]' 'events.json' | rasp replay -
/// ```
enum OneEventPerLineHint {
  /// The hint for `diagnostic`, about `file` as the user named it (`-` for standard input), or
  /// `nil` when the bad line says nothing of the file's shape.
  ///
  /// - Parameters:
  ///   - diagnostic: A bad line.
  ///   - file: Its input as the user named it.
  ///   - command: The command, such as `rasp replay`, to pipe jq's lines into.
  /// - Returns: The hint, with its line end, or `nil`.
  static func hint(
    for diagnostic: ReplayDiagnostic, file: String, command: String
  ) -> String? {
    guard diagnostic.line == 1 else { return nil }
    let reason = diagnostic.reason
    let isArray =
      reason.hasPrefix("an event must be a JSON object, found an array")
      || reason.hasPrefix("unexpected end of input in an unterminated array")
    let isPretty = reason.hasPrefix("unexpected end of input in an unterminated object")
    guard isArray || isPretty else { return nil }
    let shape = isArray ? "a JSON array of events" : "one JSON document written over several lines"
    let filter = isArray ? "'.[]'" : "."
    let source = file == "-" ? "standard input" : "'\(file)'"
    let jq =
      file == "-" ? "jq -c \(filter) | \(command) -" : "jq -c \(filter) '\(file)' | \(command) -"
    return "rasp: hint: rasp reads one JSON event per line (JSON Lines), and \(source) looks "
      + "like \(shape); replay it one event per line with: \(jq)\n"
  }
}
