/// The fish completion script, written from a ``RaspCompletionModel``: one `complete` line per
/// subcommand, option and list of values, each with its help's first clause.
///
/// File names are offered only where the spec says a file goes (the logs of `rasp replay`,
/// `--spec <file>`), not after every word as fish does by default.
///
/// ```swift
/// let script = FishCompletionScript.make(RaspCompletionModel.make(domains: domains))
/// ```
enum FishCompletionScript {
  /// The script, ending with a line end.
  static func make(_ model: RaspCompletionModel) -> String {
    let name = model.program
    let function = "__" + BashCompletionScript.identifier(name)
    var lines = [
      "# fish completion for \(name), written by '\(name) completions fish' from the text of",
      "# '\(name) --help'. Install it as share/fish/vendor_completions.d/\(name).fish, or try it:",
      "#   \(name) completions fish | source",
      "",
      "# Whether no subcommand has been typed yet.",
      "function \(function)_needs_command",
      "    for token in (commandline -opc)[2..-1]",
      "        string match -q -- '-*' $token; or return 1",
      "    end",
      "    return 0",
      "end",
      "",
      "# Whether the subcommand typed is $argv[1].",
      "function \(function)_using_command",
      "    for token in (commandline -opc)[2..-1]",
      "        string match -q -- '-*' $token; and continue",
      "        test $token = $argv[1]",
      "        return",
      "    end",
      "    return 1",
      "end",
      "",
      "# The domains offered after --domain: those given as arguments, or, when the line names",
      "# spec files, those that '\(name) domains --names' lists with them.",
      "function \(function)_domain_names",
      "    set -l tokens (commandline -opc)",
      "    set -l specs",
      "    set -l names",
      "    for i in (seq 2 (count $tokens))",
      "        switch $tokens[$i]",
      "            case --spec",
      "                test $i -lt (count $tokens); and set -a specs --spec $tokens[(math $i + 1)]",
      "            case '--spec=*'",
      "                set -a specs --spec (string replace -- --spec= '' $tokens[$i])",
      "        end",
      "    end",
      "    if set -q specs[1]",
      "        set names ($tokens[1] domains --names $specs 2> /dev/null)",
      "    end",
      "    set -q names[1]; or set names $argv",
      "    printf '%s\\n' $names",
      "end",
      "",
      "complete -c \(name) -f",
    ]
    let atStart = "-n \(function)_needs_command"
    lines += model.options.map {
      "complete -c \(name) \(atStart) " + arguments(of: $0, function: function)
    }
    lines += model.commands.map {
      "complete -c \(name) \(atStart) -a \(quoted($0.name)) -d \(quoted($0.summary))"
    }
    for command in model.commands {
      let condition = "-n " + quoted("\(function)_using_command \(command.name)")
      lines.append("")
      lines += command.options.map {
        "complete -c \(name) \(condition) " + arguments(of: $0, function: function)
      }
      switch command.argumentValues {
      case .files?: lines.append("complete -c \(name) \(condition) -F")
      case .words(let words)?:
        lines.append(
          "complete -c \(name) \(condition) -a \(quoted(words.joined(separator: " ")))")
      case .text?, .domainNames?, nil: break
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The arguments of `complete` for one option: its names, its value, its description.
  private static func arguments(of option: RaspCompletionModel.Option, function: String)
    -> String
  {
    var parts: [String] = []
    if let short = option.short { parts.append("-s \(quoted(String(short)))") }
    parts.append("-l \(quoted(option.name))")
    if option.takesValue {
      switch option.values {
      case .text: parts.append("-x")
      case .files: parts.append("-r -F")
      case .words(let words): parts.append("-x -a \(quoted(words.joined(separator: " ")))")
      case .domainNames(let names):
        let arguments = names.map { quoted($0) }.joined(separator: " ")
        parts.append("-x -a \(quoted("(\(function)_domain_names \(arguments))"))")
      }
    }
    parts.append("-d \(quoted(option.summary))")
    return parts.joined(separator: " ")
  }

  /// `text` in single quotes, for fish: a backslash before each quote and backslash.
  private static func quoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }
}
