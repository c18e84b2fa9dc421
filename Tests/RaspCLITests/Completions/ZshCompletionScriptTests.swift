import Foundation
import Testing

/// The zsh script, checked by zsh itself: its syntax (`zsh -n`), and what it completes in an
/// interactive zsh on a pseudo-terminal (`zsh/zpty`) that types a line and a TAB, both
/// sourced after `compinit` and autoloaded from `$fpath` as `_rasp`.
///
/// zsh is a Debian package that the machine may lack (`.ci/run` installs it); without it
/// these tests are skipped, and the test report says why.
@Suite(.enabled(if: ExternalTool.exists("zsh"), "zsh is not installed: apt-get install zsh"))
struct ZshCompletionScriptTests {
  /// Starts an interactive zsh on a terminal, loads the script, types a line and a TAB, and
  /// prints each match the completion system is given (its `compadd` is wrapped for that).
  /// Arguments: `source <script>` or `fpath <folder>`, then the line.
  static let harness = #"""
    zmodload zsh/zpty || exit 3
    mode=$1 target=$2 line=$3
    zpty rasp_pty zsh -f -i
    # Reads until the output matches; the typed commands never echo the markers whole.
    wait_for() { zpty -r rasp_pty out "*$1*" }
    if [[ $mode == fpath ]]; then
      zpty -w rasp_pty "fpath=(${(q)target} \$fpath)"
    fi
    zpty -w rasp_pty "PROMPT='RA%{%}SP>' RPROMPT= PS2=; autoload -U compinit && compinit -u -D"
    if [[ $mode == source ]]; then
      zpty -w rasp_pty "source ${(q)target}"
    fi
    zpty -w rasp_pty 'compadd() {
      if (( ${argv[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi
      local -a hits; builtin compadd -A hits "$@"
      local hit; for hit in $hits; do print -r -- "MATCH:$hit"; done
      builtin compadd "$@"
    }'
    zpty -w rasp_pty "bindkey '^I' complete-word; print -r -- RE''ADY"
    # Keys typed before the prompt shows would reach the terminal, not the line editor.
    wait_for 'READY*RASP>' || exit 4
    zpty -w -n rasp_pty "$line"$'\t'
    zpty -w -n rasp_pty $'\C-u'
    zpty -w rasp_pty "print -r -- DO''NE"
    wait_for DONE || exit 5
    print -rl -- ${${(M)${(f)out//$'\r'/}:#*MATCH:*}##*MATCH:}
    zpty -d rasp_pty
    """#

  let script: ScriptFile

  init() throws { script = try ScriptFile(shell: "zsh", name: "_rasp") }

  /// The matches zsh offers for `line` followed by a TAB, in the repository's root.
  private func completions(_ line: String, autoloaded: Bool = false) async throws -> [String] {
    try script.directory.write("harness.zsh", Self.harness)
    let arguments =
      autoloaded ? ["fpath", script.directory.path] : ["source", script.path]
    let result = try await ExternalTool.run(
      "timeout", ["60", "zsh", "-f", script.directory.file("harness.zsh")] + arguments + [line])
    #expect(result.status == 0, "zsh: \(result.standardError)")
    return result.text.split(separator: "\n").map(String.init)
  }

  @Test func scriptIsValidZsh() async throws {
    let result = try await ExternalTool.run("zsh", ["-n", script.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
  }

  @Test func startsWithTheCompdefLineThatAutoloadingReads() {
    #expect(script.text.hasPrefix("#compdef rasp\n"))
  }

  /// The line typed, then the matches: `rasp rep<TAB>` offers `replay`.
  @Test(arguments: [
    ("rasp repl", ["replay"]),
    ("rasp rep", ["replay", "report"]),
    ("rasp -", ["--help", "--version", "-h", "-V"]),
    ("rasp replay --sel", ["--select"]),
    (
      "rasp replay --log-format ",
      ["rasp", "fsa", "devtools", "cloudevents", "segment", "otel", "kcat", "gpsd", "owntracks"]
    ),
    ("rasp replay --log-format=c", ["cloudevents"]),
    ("rasp replay --emit ", ["snapshot", "diff", "devtools"]),
    ("rasp replay --domain g", ["geo"]),
    // With a spec file (todos and filters), its domains too, as 'rasp domains' lists them.
    (
      "rasp replay --spec fixtures/redux-todos/app.json --domain ",
      ["data", "filters", "geo", "lifecycle", "motion", "nav", "rest", "todos"]
    ),
    ("rasp check --spec=fixtures/redux-todos/app.json --domain=t", ["todos"]),
    ("rasp replay --spec no-such-spec.json --domain l", ["lifecycle"]),
    ("rasp replay -j 2 --fin", ["--final"]),
    ("rasp replay fixtures/exa", ["example"]),
    ("rasp check --record m", ["missing"]),
    ("rasp diff --color ", ["auto", "always", "never"]),
    ("rasp completions ", ["bash", "zsh", "fish"]),
  ])
  func offers(_ line: String, _ expected: [String]) async throws {
    #expect(try await completions(line) == expected, "\(line)|")
  }

  @Test func completesWhenAutoloadedFromFpath() async throws {
    #expect(try await completions("rasp replay --on-error ", autoloaded: true) == ["fail", "skip"])
    #expect(
      try await completions(
        "rasp report --spec fixtures/redux-todos/app.json --domain f", autoloaded: true)
        == ["filters"])
  }
}
