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
    func write(_ bytes: UnsafeRawBufferPointer) throws(RaspOutputError) {}
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
}
