import Foundation
import Testing

@testable import RaspCLI

/// A spec file of two domains, `todos` and `filters`, and the domains `rasp domains --spec`
/// lists with it, in name order: the built-in ones and those two.
fileprivate let todosSpec = "fixtures/redux-todos/app.json"
fileprivate let todosDomains = [
  "data", "filters", "geo", "lifecycle", "motion", "nav", "rest", "todos",
]

/// The formats `--log-format` reads, in the order bash offers them.
fileprivate let presets = [
  "rasp", "fsa", "devtools", "cloudevents", "segment", "otel", "kcat", "gpsd", "owntracks",
]

/// The bash script, sourced into a real bash: `_rasp` is called the way bash calls it on a
/// TAB, with `COMP_WORDS` and `COMP_CWORD`, and what it puts in `COMPREPLY` is checked.
@Suite struct BashCompletionScriptTests {
  /// The script `rasp completions bash` prints, in a file of its own.
  let script: ScriptFile

  init() throws { script = try ScriptFile(shell: "bash") }

  /// The words bash offers when the line is `words` with the cursor at the end of the last
  /// one, in the repository's root.
  private func completions(_ words: [String]) async throws -> [String] {
    let program = """
      source "$1" || exit 3
      shift
      COMP_WORDS=("$@")
      COMP_CWORD=$(( $# - 1 ))
      _rasp
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try await ExternalTool.run("bash", ["-c", program, "bash", script.path] + words)
    #expect(result.status == 0, "bash: \(result.standardError)")
    #expect(result.standardError.isEmpty, "bash: \(result.standardError)")
    return result.text.split(separator: "\n").map(String.init)
  }

  @Test func scriptIsValidBash() async throws {
    let result = try await ExternalTool.run("bash", ["-n", script.path])
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func registersTheFunctionForRasp() async throws {
    let result = try await ExternalTool.run(
      "bash", ["-c", "source \"$1\" && complete -p rasp", "bash", script.path])
    #expect(result.text == "complete -F _rasp rasp\n", "\(result.standardError)")
  }

  /// The line typed, then the words offered: `rasp rep|` offers `replay`.
  @Test(arguments: [
    (["rasp", "repl"], ["replay"]),
    (["rasp", "rep"], ["replay", "report"]),
    (["rasp", "c"], ["check", "compare", "completions"]),
    (["rasp", "-"], ["-V", "--version", "-h", "--help"]),
    (["rasp", "replay", "--sel"], ["--select"]),
    (["rasp", "replay", "--log-format", ""], presets),
    (["rasp", "replay", "--log-format", "=", ""], presets),
    (["rasp", "replay", "--log-format", "=", "c"], ["cloudevents"]),
    (["rasp", "replay", "--emit", "d"], ["diff", "devtools"]),
    (["rasp", "replay", "--on-error", ""], ["fail", "skip"]),
    (["rasp", "replay", "--domain", "l"], ["lifecycle"]),
    // With a spec file, its domains too (todos and filters), as 'rasp domains' lists them.
    (["rasp", "replay", "--spec", todosSpec, "--domain", ""], todosDomains),
    (["rasp", "check", "--spec", "=", todosSpec, "-j", "2", "--domain", "t"], ["todos"]),
    (["rasp", "report", "--spec", todosSpec, "--domain", "=", "f"], ["filters"]),
    // A spec file rasp cannot read: the built-in domains.
    (["rasp", "replay", "--spec", "no-such-spec.json", "--domain", "l"], ["lifecycle"]),
    (["rasp", "replay", "--select", ""], []),
    (["rasp", "replay", "-j", "2", "--fi"], ["--final"]),
    (["rasp", "replay", "--final", "fixtures/exam"], ["fixtures/example"]),
    (["rasp", "replay", "--", "--fi"], []),
    (["rasp", "check", "--record", "m"], ["missing"]),
    (["rasp", "check", "--golden", "fixtures/golden-do"], ["fixtures/golden-docs"]),
    (["rasp", "diff", "--color", ""], ["auto", "always", "never"]),
    (["rasp", "diff", "--format", "j"], ["json"]),
    (["rasp", "formats", "k"], ["kcat"]),
    (["rasp", "completions", ""], ["bash", "zsh", "fish"]),
    (["rasp", "help", "rep"], ["replay", "report"]),
    (["rasp", "help", "--m"], ["--man"]),
    (["rasp", "domains", "--j"], ["--json"]),
    (["rasp", "version", ""], []),
  ])
  func offers(_ line: [String], _ expected: [String]) async throws {
    #expect(try await completions(line) == expected, "\(line.joined(separator: " "))|")
  }

  /// Every option of every command's spec is offered after `-`, and every value of those
  /// that take only some after the option: the script cannot drift from the specs.
  @Test(arguments: RaspCommandLine.commandSpecs.map(\.name))
  func offersEveryOptionAndValueOfTheSpec(command: String) async throws {
    let spec = try #require(RaspCommandLine.commandSpecs.first { $0.name == command })
    let words = command.split(separator: " ").map(String.init)
    let offered = Set(try await completions(words + ["-"]))
    for option in spec.options {
      #expect(offered.contains("--" + option.name.rawValue), "\(command): --\(option.name)")
      if let short = option.short {
        #expect(offered.contains("-\(short)"), "\(command): -\(short)")
      }
      if let allowed = option.allowedValues {
        await #expect(
          try completions(words + ["--" + option.name.rawValue, ""]) == allowed,
          "\(command) --\(option.name)")
      }
    }
    #expect(offered.isSuperset(of: ["-h", "--help"]))
  }
}
