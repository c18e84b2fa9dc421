/// The bash completion script, written from a ``RaspCompletionModel``: one function,
/// `_rasp`, registered with `complete -F`, that needs nothing but bash itself (not the
/// bash-completion package, though it is where that package looks for it).
///
/// It completes subcommands, options (`rasp replay --sel` → `--select`), the values of options
/// that take only some (`--log-format ` → the presets), also after `=` (`--emit=d`), domain
/// names (with those of the spec files the line names with `--spec`, which it asks
/// `rasp domains --names` for) and file names; after `--`, only file names.
///
/// ```swift
/// let script = BashCompletionScript.make(RaspCompletionModel.make(domains: domains))
/// ```
enum BashCompletionScript {
  /// The script, ending with a line end.
  static func make(_ model: RaspCompletionModel) -> String {
    let name = model.program
    let function = "_" + identifier(name)
    var lines = [
      "# bash completion for \(name), written by '\(name) completions bash' from the text of",
      "# '\(name) --help'. Install it as share/bash-completion/completions/\(name), or try it:",
      "#   source <(\(name) completions bash)",
      "",
      "\(function)() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev= command= ended= word i",
      "  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  # bash splits '--name=value' into '--name', '=' and 'value'.",
      "  if [[ $cur == = ]]; then",
      "    prev=${COMP_WORDS[COMP_CWORD-1]} cur=",
      "  elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then",
      "    prev=${COMP_WORDS[COMP_CWORD-2]}",
      "  fi",
      "  for (( i = 1; i < COMP_CWORD; i++ )); do",
      "    word=${COMP_WORDS[i]}",
      "    if [[ -z $command ]]; then",
      "      [[ $word == -* ]] || command=$word",
      "    elif [[ $word == -- ]]; then",
      "      ended=1",
      "    fi",
      "  done",
      "  COMPREPLY=()",
      "  case $command in",
      "    '')",
      "      if [[ $cur == -* ]]; then",
      "        \(function)_words \(quoted(words(model.options)))",
      "      else",
      "        \(function)_words \(quoted(model.commands.map(\.name).joined(separator: " ")))",
      "      fi",
      "      ;;",
    ]
    for command in model.commands {
      lines.append("    \(quoted(command.name)))")
      lines += body(of: command, function: function).map { "      " + $0 }
      lines.append("      ;;")
    }
    lines += [
      "  esac",
      "}",
      "",
      "# Offers the words of $1 that start with the word being completed.",
      "\(function)_words() {",
      "  local IFS=$' \\t\\n'",
      "  COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))",
      "}",
      "",
      "# Offers the domains whose names start with the word being completed: those of $1,",
      "# or, when the line names spec files, those that '\(name) domains --names' lists with",
      "# them.",
      "\(function)_domain_names() {",
      "  local specs=() names i",
      "  for (( i = 1; i < COMP_CWORD - 1; i++ )); do",
      "    [[ ${COMP_WORDS[i]} == --spec ]] || continue",
      "    [[ ${COMP_WORDS[i+1]} == = ]] && (( i++ ))",
      "    (( i + 1 < COMP_CWORD )) && specs+=(--spec \"${COMP_WORDS[i+1]}\")",
      "  done",
      "  if (( ${#specs[@]} )) &&",
      "    names=$(\"${COMP_WORDS[0]}\" domains --names \"${specs[@]}\" 2> /dev/null) &&",
      "    [[ -n $names ]]; then",
      "    \(function)_words \"$names\"",
      "  else",
      "    \(function)_words \"$1\"",
      "  fi",
      "}",
      "",
      "# Offers the files and folders whose names start with the word being completed.",
      "\(function)_files() {",
      "  compopt -o filenames 2> /dev/null",
      "  local IFS=$'\\n'",
      "  COMPREPLY=($(compgen -f -- \"$cur\"))",
      "}",
      "",
      "complete -F \(function) \(name)",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lines that complete after `rasp <command>`.
  private static func body(of command: RaspCompletionModel.Command, function: String)
    -> [String]
  {
    guard !command.options.isEmpty else {
      return completion(of: command.argumentValues, function: function)
    }
    var lines = ["if [[ -z $ended ]]; then"]
    let valued = command.options.filter(\.takesValue)
    if !valued.isEmpty {
      lines.append("  case $prev in")
      // Options whose values complete alike share a branch.
      var groups: [(values: RaspCompletionModel.Values, spellings: [String])] = []
      for option in valued {
        if let index = groups.firstIndex(where: { $0.values == option.values }) {
          groups[index].spellings += option.spellings
        } else {
          groups.append((option.values, option.spellings))
        }
      }
      for group in groups {
        let action = completion(of: group.values, function: function)
        lines.append("    \(group.spellings.joined(separator: "|")))")
        lines += action.map { "      " + $0 }
        lines.append("      return")
        lines.append("      ;;")
      }
      lines.append("  esac")
    }
    lines += [
      "  if [[ $cur == -* ]]; then",
      "    \(function)_words \(quoted(words(command.options)))",
      "    return",
      "  fi",
      "fi",
    ]
    return lines + completion(of: command.argumentValues, function: function)
  }

  /// The lines that offer `values`: none for free text, or where no argument goes.
  private static func completion(of values: RaspCompletionModel.Values?, function: String)
    -> [String]
  {
    switch values {
    case .files: return ["\(function)_files"]
    case .words(let words): return ["\(function)_words \(quoted(words.joined(separator: " ")))"]
    case .domainNames(let names):
      return ["\(function)_domain_names \(quoted(names.joined(separator: " ")))"]
    case .text, nil: return []
    }
  }

  /// Every spelling of the options, as one space-separated list.
  private static func words(_ options: [RaspCompletionModel.Option]) -> String {
    options.flatMap(\.spellings).joined(separator: " ")
  }

  /// `text` in single quotes, for bash.
  static func quoted(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
  }

  /// `name` with every character that a shell function's name cannot hold replaced by `_`.
  static func identifier(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
  }
}
