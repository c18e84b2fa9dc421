/// The manual page `rasp(1)`, in roff with the man(7) macros, written from the same specs as
/// `--help`: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS (each with its usage, arguments,
/// options and exit statuses), EXIT STATUS, ENVIRONMENT and SEE ALSO.
///
/// `rasp help --man` prints it, and `make install` installs it as `share/man/man1/rasp.1`.
///
/// ```swift
/// let page = RaspManualPage.make(
///   root: RaspCommandLine.spec, commands: RaspCommandLine.commandSpecs, version: "0.1.0",
///   date: "2026-05-01")
/// ```
enum RaspManualPage {
  /// The environment variables rasp reads, and what each does.
  static let environment: [(name: String, meaning: String)] = [
    (
      "NO_COLOR",
      "When set to anything but the empty string, rasp does not colour what it writes, "
        + "unless --color always is given."
    ),
    (
      "CLICOLOR_FORCE",
      "When set to anything but the empty string or 0, rasp colours what it writes even "
        + "where it is not a terminal, unless NO_COLOR is set or --color never is given."
    ),
    (
      "CI",
      "When set to anything but the empty string, 0 or false, 'rasp check' refuses to record "
        + "a golden file (--update, --record), so that CI never rewrites its own expectations."
    ),
    ("RASP_ALLOW_RECORD", "When 1 or true, 'rasp check' records under CI all the same."),
    (
      "SOURCE_DATE_EPOCH",
      "The date of the manual page that 'rasp help --man' prints, in seconds since "
        + "1970-01-01 UTC; today's date when unset."
    ),
  ]

  /// The page, ending with a line end.
  ///
  /// - Parameters:
  ///   - root: The spec of `rasp` itself: its abstract, options, subcommands and exit statuses.
  ///   - commands: The specs of the subcommands, in the order the page describes them;
  ///     subcommands of `root` without one are described by their abstract alone.
  ///   - version: The version, for the page's footer.
  ///   - date: The page's date, `YYYY-MM-DD`, for its footer.
  /// - Returns: The page in roff.
  static func make(
    root: RaspCommandSpec, commands: [RaspCommandSpec], version: String, date: String
  ) -> String {
    let name = root.name
    var page = [
      #".\" The manual page of \#(name), written by '\#(name) help --man'; do not edit."#,
      ".TH \(name.uppercased()) 1 \(date) \"\(name) \(version)\" \"User Commands\"",
      // Lines left-aligned and words never hyphenated: options and paths stay whole.
      ".ad l",
      ".nh",
      ".SH NAME",
      "\(name) \\- " + text(sentenceFragment(root.abstract)),
      ".SH SYNOPSIS",
    ]
    var synopsis = usage(root.usage, program: name)
    for subcommand in root.subcommands {
      guard let spec = commands.first(where: { $0.name == "\(name) \(subcommand.name)" }) else {
        continue
      }
      synopsis += usage(spec.usage, program: name)
    }
    page += lines(separatedBy: ".br", synopsis)
    page += [".SH DESCRIPTION"]
    page += paragraphs(root.abstract + "\n" + root.discussion).dropFirst()
    page += [
      ".PP",
      text(
        "Each subcommand has options of its own, described under COMMANDS below; "
          + "'\(name) <subcommand> --help' prints the same text."),
      ".SH OPTIONS",
    ]
    page += options(root.options)
    page.append(".SH COMMANDS")
    for subcommand in root.subcommands {
      page.append(".SS \(quotedArgument("\(name) \(subcommand.name)"))")
      guard let spec = commands.first(where: { $0.name == "\(name) \(subcommand.name)" }) else {
        page += paragraphs(subcommand.abstract).dropFirst()
        continue
      }
      page += command(spec, program: name)
    }
    if !root.exitStatuses.isEmpty {
      page.append(".SH EXIT STATUS")
      page += entries(root.exitStatuses.map { (bold($0.status), $0.meaning) })
    }
    page.append(".SH ENVIRONMENT")
    page += entries(environment.map { (bold($0.name), $0.meaning) })
    page += [
      ".SH SEE ALSO",
      ".BR jq (1),",
      ".BR diff (1),",
      ".BR tail (1)",
      ".PP",
      text(
        "The docs folder of rasp's repository has a page for each command and concept: "
          + "docs/replay.md, docs/golden-tests.md, docs/formats.md, docs/spec.md and more."),
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// One subcommand's part of COMMANDS.
  private static func command(_ spec: RaspCommandSpec, program: String) -> [String] {
    var lines = Self.lines(separatedBy: ".br", usage(spec.usage, program: program))
    lines += paragraphs(spec.abstract + "\n" + spec.discussion)
    if !spec.arguments.isEmpty {
      lines += [".PP", "Arguments:"]
      lines += entries(
        spec.arguments.map { argument in
          (italic(argument.name) + (argument.isRepeatable ? " ..." : ""), argument.help)
        })
    }
    lines += [".PP", "Options:"]
    lines += options(spec.options)
    if !spec.exitStatuses.isEmpty {
      lines += [".PP", "Exit status:"]
      lines += entries(spec.exitStatuses.map { (bold($0.status), $0.meaning) })
    }
    return lines
  }

  /// A list of options as tagged paragraphs, `-h`/`--help` last.
  private static func options(_ options: [RaspOptionSpec]) -> [String] {
    var list = options.map { option in
      var tag = option.short.map { bold("-\($0)") + ", " } ?? ""
      tag += bold("--" + option.name.rawValue)
      if let valueName = option.valueName { tag += " " + italic(valueName) }
      return (tag, option.help)
    }
    list.append((bold("-h") + ", " + bold("--help"), "Show help information."))
    return entries(list)
  }

  /// Tagged paragraphs: the tag is roff already, the description plain text.
  private static func entries(_ list: [(tag: String, description: String)]) -> [String] {
    list.flatMap { [".TP", $0.tag] + lines(text($0.description)) }
  }

  /// `lines` with `separator` between each two.
  private static func lines(separatedBy separator: String, _ lines: [String]) -> [String] {
    Array(lines.map { [$0] }.joined(separator: [separator]))
  }

  /// A usage string (`rasp formats [--json] [<name>]`, maybe several lines) as roff lines: the
  /// command in bold, each `<placeholder>` in italics.
  private static func usage(_ usage: String, program: String) -> [String] {
    usage.split(separator: "\n").map { line in
      var words = line.split(separator: " ").map(String.init)
      // The command's words: the program and the subcommand, up to the first option.
      var rendered: [String] = []
      while let word = words.first, word == program || rendered.count == 1,
        !word.hasPrefix("-"), !word.hasPrefix("["), !word.hasPrefix("<")
      {
        rendered.append(bold(word))
        words.removeFirst()
      }
      rendered += words.map(placeholders)
      return rendered.joined(separator: " ")
    }
  }

  /// A word of a usage line with each `<placeholder>` in italics.
  private static func placeholders(_ word: String) -> String {
    var result = ""
    var placeholder: String?
    for character in word {
      switch character {
      case "<": placeholder = ""
      case ">":
        result += italic(placeholder ?? "")
        placeholder = nil
      default:
        if placeholder != nil {
          placeholder?.append(character)
        } else {
          result += text(String(character))
        }
      }
    }
    return result
  }

  /// Text as paragraphs: one per line of `text`, blank lines skipped.
  private static func paragraphs(_ text: String) -> [String] {
    text.split(separator: "\n").flatMap { [".PP"] + lines(Self.text(String($0))) }
  }

  /// Roff text split into lines, one sentence a line, as roff wants: it ends sentences at line
  /// ends. No line starts with a dot or a quote, which roff would read as a request.
  private static func lines(_ roff: String) -> [String] {
    roff.replacing(". ", with: ".\n").split(separator: "\n").map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }
  }

  /// The characters outside ASCII that help texts use, as roff's names for them, which
  /// every output device can show (an ASCII terminal as `--`, `-`, `->`, `...`).
  static let specialCharacters: [Unicode.Scalar: String] = [
    "\u{2014}": "\\(em", "\u{2013}": "\\(en", "\u{2192}": "\\(->", "\u{2026}": "...",
  ]

  /// Plain text as roff: backslashes and hyphens escaped, the characters outside ASCII of
  /// ``specialCharacters`` by name and any other as `\[uXXXX]`, which roff reads whatever its
  /// input encoding.
  static func text(_ plain: String) -> String {
    var result = ""
    for scalar in plain.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
      case _ where specialCharacters[scalar] != nil: result += specialCharacters[scalar] ?? ""
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      }
    }
    return result
  }

  private static func bold(_ plain: String) -> String { "\\fB" + text(plain) + "\\fR" }

  private static func italic(_ plain: String) -> String { "\\fI" + text(plain) + "\\fR" }

  /// A macro's argument in double quotes.
  private static func quotedArgument(_ plain: String) -> String {
    "\"" + text(plain).replacing("\"", with: "\\(dq") + "\""
  }

  /// A sentence as a fragment after NAME's dash: no capital, no final period.
  private static func sentenceFragment(_ sentence: String) -> String {
    var fragment = sentence
    if fragment.hasSuffix(".") { fragment.removeLast() }
    guard let first = fragment.first else { return fragment }
    return first.lowercased() + fragment.dropFirst()
  }
}
