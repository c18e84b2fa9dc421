/// Writes a command's `--help` text from its spec: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, and
/// EXIT STATUS when the spec lists them.
///
/// The layout follows swift-argument-parser: names in a column two spaces in, descriptions
/// aligned at column 27 and wrapped at 80 columns.
///
/// ```swift
/// print(RaspHelpFormatter.help(for: spec))
/// ```
enum RaspHelpFormatter {
  static let width = 80
  static let column = 26

  /// The full help text, ending with a line end.
  static func help(for spec: RaspCommandSpec) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n"
    if !spec.discussion.isEmpty {
      text += "\n"
      for paragraph in spec.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
        text += wrap(String(paragraph), width: width).joined(separator: "\n") + "\n"
      }
    }
    text += "\nUSAGE: \(spec.usage)\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments {
        let name = "<\(argument.name)>" + (argument.isRepeatable ? " ..." : "")
        text += entry(name, argument.help)
      }
    }
    text += "\nOPTIONS:\n"
    for option in spec.options {
      let name = (option.short.map { "-\($0), " } ?? "") + option.display
      text += entry(name, option.help)
    }
    text += entry("-h, --help", "Show help information.")
    if !spec.subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      for subcommand in spec.subcommands {
        text += entry(subcommand.name, subcommand.abstract)
      }
      text += "\n  See '\(spec.name) help <subcommand>' for detailed help.\n"
    }
    if !spec.exitStatuses.isEmpty {
      text += "\nEXIT STATUS:\n"
      for (status, meaning) in spec.exitStatuses { text += entry(status, meaning) }
    }
    return text
  }

  /// One name and its description, the description wrapped and aligned.
  static func entry(_ name: String, _ description: String) -> String {
    var text = "  " + name
    let lines = wrap(description, width: width - column)
    if text.count + 2 > column {
      text += "\n" + String(repeating: " ", count: column)
    } else {
      text += String(repeating: " ", count: column - text.count)
    }
    text += lines.joined(separator: "\n" + String(repeating: " ", count: column)) + "\n"
    return text
  }

  /// Splits text into lines of at most `width` characters, at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
