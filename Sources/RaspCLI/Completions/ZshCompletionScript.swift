/// The zsh completion script, written from a ``RaspCompletionModel`` for zsh's completion
/// system (`compinit`): a `_rasp` function built on `_arguments`, one function per subcommand.
///
/// Installed as `_rasp` in a folder of `$fpath` it is autoloaded; sourced
/// (`source <(rasp completions zsh)`, after `compinit`) it registers itself with `compdef`.
/// Options show their help's first clause; `--name=value` and `--name value` both complete.
///
/// ```swift
/// let script = ZshCompletionScript.make(RaspCompletionModel.make(domains: domains))
/// ```
enum ZshCompletionScript {
  /// The script, ending with a line end.
  static func make(_ model: RaspCompletionModel) -> String {
    let name = model.program
    let function = "_" + BashCompletionScript.identifier(name)
    var lines = [
      "#compdef \(name)",
      "# zsh completion for \(name), written by '\(name) completions zsh' from the text of",
      "# '\(name) --help'. Install it as _\(name) in a folder of $fpath, or try it after compinit:",
      "#   source <(\(name) completions zsh)",
      "",
      "\(function)() {",
      "  local curcontext=$curcontext state state_descr line ret=1",
      "  # The command as typed, which \(function)_domain_names runs.",
      "  local \(function)_program=${(Q)words[1]}",
      "  typeset -A opt_args",
      "  _arguments -C \\",
    ]
    lines += model.options.flatMap { specs(of: $0, exclusive: true, function: function) }.map {
      "    \($0) \\"
    }
    lines += [
      "    '1: :\(function)_commands' \\",
      "    '*:: :->command' && ret=0",
      "  if [[ $state == command ]]; then",
      "    curcontext=${curcontext%:*:*}:\(name)-$words[1]:",
      "    case $words[1] in",
    ]
    for command in model.commands {
      let commandFunction = function + "_" + BashCompletionScript.identifier(command.name)
      lines.append("      \(quoted(command.name))) \(commandFunction) && ret=0 ;;")
    }
    lines += [
      "    esac",
      "  fi",
      "  return ret",
      "}",
      "",
      "\(function)_commands() {",
      "  local -a commands=(",
    ]
    lines += model.commands.map { "    " + quoted(escaped($0.name, ":") + ":" + $0.summary) }
    lines += [
      "  )",
      "  _describe -t commands '\(name) subcommand' commands",
      "}",
    ]
    for command in model.commands {
      lines.append("")
      lines.append("\(function)_\(BashCompletionScript.identifier(command.name))() {")
      var arguments = command.options.flatMap {
        specs(of: $0, exclusive: $0.name == "help", function: function)
      }
      arguments += command.arguments.map { argument in
        let position = argument.isRepeatable ? "*:" : argument.isRequired ? ":" : "::"
        return quoted(
          position + escaped(argument.name, ":") + ":" + action(argument.values, function: function)
        )
      }
      if arguments.isEmpty {
        lines.append("  _message 'no more arguments'")
      } else {
        lines.append("  _arguments -S \\")
        lines += arguments.dropLast().map { "    \($0) \\" }
        lines.append("    \(arguments[arguments.count - 1])")
      }
      lines.append("}")
    }
    lines += [
      "",
      "# Offers the domains: the built-in ones, or, when the line names spec files,",
      "# those that '\(name) domains --names' lists with them.",
      "\(function)_domain_names() {",
      "  local -a specs names expl",
      "  local i",
      "  for (( i = 1; i < CURRENT; i++ )); do",
      "    case $words[i] in",
      "      --spec) (( i + 1 < CURRENT )) && specs+=(--spec ${(Q)words[i+1]}) ;;",
      "      --spec=*) specs+=(--spec ${(Q)${words[i]#--spec=}}) ;;",
      "    esac",
      "  done",
      "  if (( $#specs )); then",
      "    names=(${(f)\"$($\(function)_program domains --names $specs 2> /dev/null)\"})",
      "  fi",
      "  (( $#names )) || names=(\(domainNames(model).map(quoted).joined(separator: " ")))",
      "  _wanted domains expl domain compadd -a names",
      "}",
      "",
      "# Autoloaded from $fpath, the file is the function's body: complete now. Sourced,",
      "# register the function.",
      "if [[ $funcstack[1] == \(function) ]]; then",
      "  \(function) \"$@\"",
      "else",
      "  compdef \(function) \(name)",
      "fi",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The `_arguments` specs of one option: one per spelling, each excluding the others; with
  /// `exclusive`, an option after which nothing else is completed (`--help`, `--version`).
  private static func specs(
    of option: RaspCompletionModel.Option, exclusive: Bool, function: String
  ) -> [String] {
    let spellings = option.spellings
    let exclusions =
      exclusive ? "(- *)" : spellings.count > 1 ? "(\(spellings.joined(separator: " ")))" : ""
    let repetition = option.isRepeatable && !exclusive ? "*" : ""
    return spellings.map { spelling in
      var spec = exclusions + repetition + spelling
      // A long option's value may follow '=' or come as the next word; a short one's, the next.
      if option.takesValue, spelling.hasPrefix("--") { spec += "=" }
      spec += "[" + escaped(option.summary, "[]") + "]"
      if let valueName = option.valueName {
        spec += ":" + escaped(valueName, ":") + ":" + action(option.values, function: function)
      }
      return quoted(spec)
    }
  }

  /// What `_arguments` does for a value.
  private static func action(_ values: RaspCompletionModel.Values, function: String) -> String {
    switch values {
    case .text: return " "
    case .files: return "_files"
    case .words(let words):
      return "(" + words.map { escaped($0, " ()") }.joined(separator: " ") + ")"
    case .domainNames: return "\(function)_domain_names"
    }
  }

  /// `text` with a backslash before each of `characters`, and before each backslash.
  private static func escaped(_ text: String, _ characters: String) -> String {
    var result = ""
    for character in text {
      if character == "\\" || characters.contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// The domains offered after `--domain` when the line names no spec file.
  private static func domainNames(_ model: RaspCompletionModel) -> [String] {
    for option in model.commands.flatMap(\.options) {
      if case .domainNames(let names) = option.values { return names }
    }
    return []
  }

  /// `text` in single quotes, for zsh.
  private static func quoted(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
  }
}
