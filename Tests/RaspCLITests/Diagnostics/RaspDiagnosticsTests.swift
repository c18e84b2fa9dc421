import RaspCLI
import Testing

@Suite struct RaspDiagnosticsTests {
  @Test(arguments: [
    ("geo.heading", "geo.heading"),
    ("\u{1B}[31mx.y", "\\u001B[31mx.y"),
    ("a\nb\tc\r", "a\\u000Ab\\u0009c\\u000D"),
    ("nul\u{0}del\u{7F}csi\u{9B}", "nul\\u0000del\\u007Fcsi\\u009B"),
    ("café 🚀", "café 🚀"),
  ])
  func errorMessagesEscapeControlCharactersFromTheInput(value: String, shown: String) {
    let error = RaspCommandError.input(
      file: "events.jsonl", line: 3, column: 9, reason: "unknown event type '\(value)'")
    #expect(
      error.message(colored: false) == "events.jsonl:3:9: error: unknown event type '\(shown)'\n")
    let failure = RaspCommandError.failure("two domains are named '\(value)'")
    #expect(failure.message(colored: false) == "rasp: error: two domains are named '\(shown)'\n")
  }

  @Test func colouredMessagesKeepTheirOwnEscapeSequences() {
    let error = RaspCommandError.cannotOpen("\u{1B}x", reason: "No such file or directory")
    #expect(
      error.message(colored: true)
        == "rasp: \u{1B}[1;31merror:\u{1B}[0m cannot open '\\u001Bx': No such file or directory\n")
  }

  @Test func warningsAndSummariesKeepTheirLinesButEscapeTheRest() {
    let run = CommandRun.run(
      ["replay", "-"], input: Array(#"{"type":"x\u001B]0;pwned\u0007.y"}"#.utf8 + [0x0A]))
    #expect(run.status == 0)
    #expect(
      run.standardError
        == "rasp: warning: 1 event of unknown type ignored, "
        + "the first 'x\\u001B]0;pwned\\u0007.y' at <stdin>:1; use --strict to reject them\n")
  }
}
