import Testing

@testable import RaspCLI

/// Every error is printed after `rasp: error:`, a usage error too, as a clause: git's and
/// cargo's style.
@Suite struct RaspCommandErrorTests {
  @Test func aUsageErrorReadsLikeEveryOtherError() {
    let error = RaspCommandError.usage(
      "Unknown option '--selct'. Did you mean '--select'?", usage: "rasp replay [<file> ...]",
      command: "rasp replay")
    #expect(
      error.description
        == "rasp: error: unknown option '--selct'; did you mean '--select'?\n"
        + "Usage: rasp replay [<file> ...]\n  See 'rasp replay --help' for more information.\n")
    #expect(error.exitCode == .usage)
  }

  @Test(arguments: [
    ("Option '--final' takes no value", "option '--final' takes no value"),
    // An acronym, a quoted value or a lone capital stays as it is.
    ("JSON lines only", "JSON lines only"),
    ("'events.jsonl' is a file", "'events.jsonl' is a file"),
    ("A spec cannot be read from standard input", "a spec cannot be read from standard input"),
    ("X", "X"),
    ("", ""),
  ])
  func theMessageBecomesAClause(message: String, clause: String) {
    #expect(RaspCommandError.clause(message) == clause)
  }
}
