import Foundation
import Testing

/// The fish script, checked by fish itself: its syntax (`fish --no-execute`), and what
/// `complete --do-complete` offers for a line once the script is sourced.
///
/// fish is a Debian package that the machine may lack (`.ci/run` installs it); without it
/// these tests are skipped, and the test report says why.
@Suite(.enabled(if: ExternalTool.exists("fish"), "fish is not installed: apt-get install fish"))
struct FishCompletionScriptTests {
  let script: ScriptFile

  init() throws { script = try ScriptFile(shell: "fish") }

  /// The completions fish offers for `line`, without their descriptions, in the repository's
  /// root.
  private func completions(_ line: String) async throws -> [String] {
    let result = try await ExternalTool.run(
      "fish",
      [
        "--no-config", "-c", "source $argv[1]; and complete --do-complete $argv[2]",
        script.path, line,
      ])
    #expect(result.status == 0, "fish: \(result.standardError)")
    #expect(result.standardError.isEmpty, "fish: \(result.standardError)")
    return result.text.split(separator: "\n").map {
      String($0.split(separator: "\t", maxSplits: 1).first ?? "")
    }
  }

  @Test func scriptIsValidFish() async throws {
    let result = try await ExternalTool.run("fish", ["--no-execute", script.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
  }

  /// The line typed, then the completions, which fish sorts: `rasp rep` offers `replay`.
  @Test(arguments: [
    ("rasp repl", ["replay"]),
    ("rasp rep", ["replay", "report"]),
    ("rasp -", ["-h", "-V", "--help", "--version"]),
    ("rasp replay --sel", ["--select"]),
    (
      "rasp replay --log-format ",
      ["cloudevents", "devtools", "fsa", "gpsd", "kcat", "otel", "owntracks", "rasp", "segment"]
    ),
    ("rasp replay --log-format=f", ["--log-format=fsa"]),
    ("rasp replay --on-error ", ["fail", "skip"]),
    ("rasp replay --domain g", ["geo"]),
    // With a spec file (todos and filters), its domains too, as 'rasp domains' lists them.
    (
      "rasp replay --spec fixtures/redux-todos/app.json --domain ",
      ["data", "filters", "geo", "lifecycle", "motion", "nav", "rest", "todos"]
    ),
    ("rasp check --spec=fixtures/redux-todos/app.json --domain t", ["todos"]),
    ("rasp replay --spec no-such-spec.json --domain l", ["lifecycle"]),
    ("rasp replay --select ", []),
    ("rasp replay fixtures/exa", ["fixtures/example/"]),
    ("rasp check --record m", ["missing"]),
    ("rasp diff --color ", ["always", "auto", "never"]),
    ("rasp formats k", ["kcat"]),
    ("rasp completions ", ["bash", "fish", "zsh"]),
    ("rasp help --m", ["--man"]),
  ])
  func offers(_ line: String, _ expected: [String]) async throws {
    #expect(try await completions(line) == expected, "\(line)|")
  }

  @Test func describesEachSubcommandWithItsAbstract() async throws {
    let result = try await ExternalTool.run(
      "fish",
      [
        "--no-config", "-c", "source $argv[1]; and complete --do-complete 'rasp repl'",
        script.path,
      ])
    #expect(
      result.text
        == "replay\tReplay JSON-lines event logs and print the state snapshot after every event\n")
  }
}
