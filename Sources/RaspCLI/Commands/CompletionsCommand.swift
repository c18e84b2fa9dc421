import RaspDomains

/// `rasp completions <shell>`: the script that teaches bash, zsh or fish rasp's command line.
///
/// The script is made from the commands' specs (``RaspCompletionModel``), the ones `--help`
/// prints, so it cannot drift from the options rasp accepts. `make install` installs all three
/// where each shell looks for them:
///
/// ```
/// $ source <(rasp completions bash)       # try it in the current bash
/// $ rasp replay --log-format <TAB>
/// cloudevents  fsa  kcat  otel  rasp  segment
/// ```
enum CompletionsCommand {
  /// The shells rasp writes a script for, in the order help names them.
  static let shells = ["bash", "zsh", "fish"]

  static let spec = RaspCommandSpec(
    name: "rasp completions",
    abstract: "Print the bash, zsh or fish script that completes commands and options.",
    discussion: """
      The script is made from the same text as --help, so it completes every subcommand and \
      option of this rasp, the values of options that take only some (--log-format, --emit, \
      --on-error, --color, …), domain names after --domain, and file names. 'make install' \
      installs all three. To use one without installing it: in bash, \
      'source <(rasp completions bash)'; in zsh, after compinit, \
      'source <(rasp completions zsh)'; in fish, 'rasp completions fish | source'. Or save \
      it where the shell looks: bash, ~/.local/share/bash-completion/completions/rasp; zsh, \
      a folder of $fpath, as _rasp; fish, ~/.config/fish/completions/rasp.fish.
      """,
    usage: "rasp completions <shell>",
    arguments: [
      RaspArgumentSpec(
        name: "shell", help: "The shell to complete in: 'bash', 'zsh' or 'fish'.",
        isRequired: true)
    ],
    exitStatuses: [
      ("0", "The script was printed."),
      ("64", "A usage error: no shell, or one rasp has no script for."),
    ])

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let shell = parsed.positionals.first ?? ""
    let model = RaspCompletionModel.make(domains: domains)
    let script: String
    switch shell {
    case "bash": script = BashCompletionScript.make(model)
    case "zsh": script = ZshCompletionScript.make(model)
    case "fish": script = FishCompletionScript.make(model)
    default:
      var message = "Unknown shell '\(shell)'"
      let sameLetters = shells.first { $0 == shell.lowercased() }
      if let near = sameLetters ?? RaspSpelling.nearest(to: shell, among: shells) {
        message += ". Did you mean '\(near)'?"
      } else {
        let names = shells.map { "'\($0)'" }
        message +=
          ": rasp writes completions for \(names.dropLast().joined(separator: ", ")) and "
          + (names.last ?? "")
      }
      throw spec.usageError(message)
    }
    try RaspCommandLine.printOutput(script, environment: environment)
    return .success
  }
}
