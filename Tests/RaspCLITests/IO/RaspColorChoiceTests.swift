import RaspJSON
import Testing

@testable import RaspCLI
import RaspTestSupport

/// `--color`, `NO_COLOR` and `CLICOLOR_FORCE` decide whether reports and diagnostics are
/// coloured; reports colour their `-` and `+` lines.
@Suite struct RaspColorChoiceTests {
  /// A stream that says whether it is a terminal.
  private final class Stream: RaspOutputStream {
    let isTerminal: Bool
    init(isTerminal: Bool) { self.isTerminal = isTerminal }
    func write(_ bytes: RawSpan) throws(RaspOutputError) {}
  }

  private func environment(_ variables: [String: String]) -> RaspEnvironment {
    RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), variables: variables)
  }

  @Test(arguments: [
    // (choice, terminal, variables, coloured)
    (RaspColorChoice.auto, true, [String: String](), true),
    (.auto, false, [:], false),
    (.auto, true, ["NO_COLOR": "1"], false),
    (.auto, true, ["NO_COLOR": ""], true),  // set but empty: as if unset
    (.auto, false, ["CLICOLOR_FORCE": "1"], true),
    (.auto, false, ["CLICOLOR_FORCE": "0"], false),
    (.auto, false, ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"], false),  // NO_COLOR first
    (.always, false, ["NO_COLOR": "1"], true),
    (.never, true, ["CLICOLOR_FORCE": "1"], false),
  ])
  func decidesFromTheOptionTheVariablesAndTheTerminal(
    choice: RaspColorChoice, terminal: Bool, variables: [String: String], colored: Bool
  ) {
    #expect(choice.colors(Stream(isTerminal: terminal), environment(variables)) == colored)
  }

  @Test func aReportColoursItsExpectedAndActualLines() {
    let report = "snapshot 1 differs:\n  {\n-   \"a\": 1\n+   \"a\": 2\n  }\n"
    #expect(
      RaspColorChoice.coloringReport(report)
        == "snapshot 1 differs:\n  {\n\u{1B}[31m-   \"a\": 1\u{1B}[0m\n"
        + "\u{1B}[32m+   \"a\": 2\u{1B}[0m\n  }\n")
  }

  @Test func checkAndDiffColourOnlyWhenAsked() throws {
    let folder = Repository.path("fixtures/diff-changed")
    let files = ["../golden-docs/expected.jsonl", "../check-changed/golden.jsonl"]
    let plain = CommandRun.run(["diff"] + files, in: folder)
    let always = CommandRun.run(["diff", "--color", "always"] + files, in: folder)
    #expect(plain.status == 1 && always.status == 1)
    #expect(!plain.standardOutput.contains("\u{1B}["))
    #expect(always.standardOutput == RaspColorChoice.coloringReport(plain.standardOutput))
    #expect(always.standardOutput.contains("\u{1B}[31m-"))
  }

  @Test(arguments: [
    // (arguments, choice)
    ([String](), RaspColorChoice.auto),
    (["a.jsonl", "--color", "never"], .never),
    (["--color=always", "a.jsonl"], .always),
    (["--color", "never", "--color=always"], .always),  // the last counts
    (["--color", "sometimes"], .auto),  // for the parser to report
    (["--color"], .auto),
    (["--", "--color", "never"], .auto),  // a file named '--color'
    (["--max-diffs", "2", "--color", "never"], .never),
  ])
  func aCommandLineChoosesBeforeItIsParsed(arguments: [String], choice: RaspColorChoice) {
    #expect(RaspColorChoice.chosen(in: arguments) == choice)
  }

  @Test func checkAndDiffColourTheirDiagnosticsAsAskedToo() throws {
    let folder = Repository.path("fixtures/diff-changed")
    let label = "\u{1B}[1;31merror:\u{1B}[0m"
    let missing = ["check", "--golden", "absent.jsonl", "../golden-docs/events.jsonl"]
    #expect(CommandRun.run(missing, in: folder).standardError.hasPrefix("rasp: error:"))
    #expect(
      CommandRun.run(missing + ["--color", "always"], in: folder).standardError.hasPrefix(
        "rasp: \(label)"))
    #expect(
      CommandRun.run(missing, in: folder, variables: ["CLICOLOR_FORCE": "1"]).standardError
        .hasPrefix("rasp: \(label)"))
    #expect(
      CommandRun.run(missing + ["--color=never"], in: folder, variables: ["CLICOLOR_FORCE": "1"])
        .standardError.hasPrefix("rasp: error:"))
    // A mistake in the command line itself is reported in the colours it asks for.
    let usage = CommandRun.run(["diff", "--color", "always", "--max-diffs", "-1", "a", "b"])
    #expect(usage.status == 64)
    #expect(usage.standardError.hasPrefix("rasp: \(label) invalid value '-1'"))
    let bad = CommandRun.run(
      ["diff", "--color", "never", "-", "../check-changed/golden.jsonl"], in: folder,
      input: Array("{\n".utf8), variables: ["CLICOLOR_FORCE": "1"])
    #expect(bad.status == 2)
    #expect(bad.standardError.hasPrefix("<stdin>:1:2: error: "))
  }
}
