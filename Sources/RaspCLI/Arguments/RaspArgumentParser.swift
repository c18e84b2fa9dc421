import RaspDomains

/// Parses a command line against a ``RaspCommandSpec``, with errors in swift-argument-parser's
/// shape: `Unknown option '--selct'. Did you mean '--select'?`
///
/// Accepts `--name value`, `--name=value`, short options as getopt reads them (`-j 2`, `-j2`,
/// flags together: `-rj 2`), `--` to end options, and `-` as an argument (standard input). A
/// value may not start with `--`, so that `--select --final` reports the missing value instead
/// of selecting `--final`.
///
/// ```swift
/// let parsed = try RaspArgumentParser.parse(["--select", "geo.heading", "log.jsonl"], spec: spec)
/// parsed.value(.select)   // "geo.heading"
/// parsed.positionals       // ["log.jsonl"]
/// ```
enum RaspArgumentParser {
  /// Whether the arguments ask for help (`-h` or `--help` before any `--`).
  static func asksForHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "--help" || argument == "-h" { return true }
    }
    return false
  }

  /// Parses `arguments` (without the command's name) against `spec`.
  static func parse(_ arguments: [String], spec: RaspCommandSpec) throws(RaspCommandError)
    -> RaspParsedArguments
  {
    var parsed = RaspParsedArguments()
    for option in spec.options { parsed.declared[option.name] = option }
    var index = 0
    var optionsEnded = false
    let fail = spec.usageError
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      // What the argument gives: options by name, each with its value when written in it.
      var given: [(name: String, value: String?)] = []
      if argument.hasPrefix("--") {
        let text = String(argument.dropFirst(2))
        if let equals = text.firstIndex(of: "=") {
          given.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
        } else {
          given.append((text, nil))
        }
      } else {
        // Short options, as getopt reads them: `-j 2`, `-j2`, and flags together, `-rj 2`.
        var letters = argument.dropFirst()
        while let letter = letters.first {
          letters = letters.dropFirst()
          guard let option = spec.options.first(where: { $0.short == letter }) else {
            // `-select` is more likely `--select` mistyped than short options together.
            guard given.isEmpty else {
              throw fail("Unknown option '-\(letter)' in '\(argument)'")
            }
            throw fail("Unknown option '\(argument)'" + suggestion(for: argument, in: spec))
          }
          if option.valueName != nil, !letters.isEmpty {
            given.append((option.name.rawValue, String(letters)))
            letters = ""
          } else {
            given.append((option.name.rawValue, nil))
          }
        }
      }
      for (name, inlineValue) in given {
        guard let option = spec.options.first(where: { $0.name.rawValue == name }) else {
          throw fail("Unknown option '--\(name)'" + suggestion(for: "--" + name, in: spec))
        }
        // A flag given twice means what it means once (`--final --final`); a value given twice
        // leaves which one counts unclear.
        if !option.isRepeatable, option.valueName != nil, parsed.values[option.name] != nil {
          throw fail("Option '--\(option.name.rawValue)' cannot be given more than once")
        }
        guard option.valueName != nil else {
          if inlineValue != nil {
            throw fail("Option '--\(option.name.rawValue)' does not take a value")
          }
          parsed.values[option.name, default: []].append("")
          continue
        }
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count, !arguments[index].hasPrefix("--") {
          value = arguments[index]
          index += 1
        } else {
          throw fail("Missing value for '\(option.display)'")
        }
        if let allowed = option.allowedValues, !allowed.contains(value) {
          // 'a' or 'b'; 'a', 'b' or 'c'.
          let quoted = allowed.map { "'\($0)'" }
          let choices =
            quoted.count > 2
            ? quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
            : quoted.joined(separator: " or ")
          var message = "Invalid value '\(value)' for '\(option.display)': expected \(choices)"
          // A value in the wrong case ('FSA') is the nearest of all.
          let sameLetters = allowed.first { $0.lowercased() == value.lowercased() }
          if let hint = option.valueHints[value.lowercased()] {
            message += "; \(hint)"
          } else if let near = sameLetters ?? RaspSpelling.nearest(to: value, among: allowed) {
            message += ". Did you mean '\(near)'?"
          }
          throw fail(message)
        }
        parsed.values[option.name, default: []].append(value)
      }
    }
    let accepted = spec.arguments
    if accepted.isEmpty, let extra = parsed.positionals.first {
      throw fail("Unexpected argument '\(extra)'")
    }
    if !accepted.contains(where: \.isRepeatable), parsed.positionals.count > accepted.count {
      throw fail("Unexpected argument '\(parsed.positionals[accepted.count])'")
    }
    for (position, argument) in accepted.enumerated() where argument.isRequired {
      if parsed.positionals.count <= position {
        throw fail("Missing expected argument '<\(argument.name)>'")
      }
    }
    return parsed
  }

  private static func suggestion(for option: String, in spec: RaspCommandSpec) -> String {
    let names = spec.options.map { "--" + $0.name.rawValue }
    guard let near = RaspSpelling.nearest(to: option, among: names) else { return "" }
    return ". Did you mean '\(near)'?"
  }
}
