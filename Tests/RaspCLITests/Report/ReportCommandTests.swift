import Foundation
import RaspCLI
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp report` in-process: where the page goes, what it refuses, and that the same log gives
/// the same bytes.
@Suite struct ReportCommandTests {
  static let example = Repository.path("fixtures/example/events.jsonl")

  func run(_ arguments: [String], terminal: Bool = false, in directory: String? = nil) -> (
    status: Int32, output: String, errors: String
  ) {
    let output = RaspMemoryOutput(isTerminal: terminal)
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output,
      standardError: errors, variables: [:], workingDirectory: directory)
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    return (status, output.text, errors.text)
  }

  @Test func writesThePageToStandardOutputWhenItIsNotATerminal() {
    let result = run(["report", Self.example])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("<!DOCTYPE html>"))
    #expect(result.output.hasSuffix("</html>\n"))
    #expect(result.errors.isEmpty)
  }

  @Test func refusesToWriteThePageToATerminal() {
    let result = run(["report", Self.example], terminal: true)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.errors.hasPrefix("rasp: error: the report is an HTML page, not for a terminal"))
    #expect(result.errors.contains("Usage: rasp report"))
    #expect(run(["report", "-o", "-", Self.example], terminal: true).status == 0)
  }

  @Test func writesTheFileThatOutputNames() throws {
    let directory = try TemporaryDirectory()
    let result = run(["report", Self.example, "-o", "page.html"], in: directory.path)
    #expect(result.status == 0)
    #expect(result.output.isEmpty)
    let page = String(decoding: directory.bytes("page.html") ?? [], as: UTF8.self)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  @Test func isTheSameByteForByteEachTime() {
    let first = run(["report", Self.example]).output
    let second = run(["report", Self.example]).output
    #expect(first == second)
  }

  @Test func refusesToOverwriteALog() throws {
    let directory = try TemporaryDirectory()
    try "{\"type\":\"nav.pop\"}\n".write(
      toFile: directory.file("a.jsonl"), atomically: true, encoding: .utf8)
    let result = run(["report", "a.jsonl", "-o", "a.jsonl"], in: directory.path)
    #expect(result.status == 64)
    #expect(result.errors.hasPrefix("rasp: error: option '-o a.jsonl' would overwrite the log"))
  }

  @Test func refusesASelectionOfSeveralValues() {
    let result = run(["report", "--select", "nav.stack[]", Self.example])
    #expect(result.status == 64)
    #expect(result.errors.contains("'[]' in '--select nav.stack[]'"))
  }

  @Test func refusesTheOptionsThatShapePrintedLines() {
    for option in ["--final", "--pretty", "--with-event", "--changes-only"] {
      let result = run(["report", option, Self.example])
      #expect(result.status == 64, "\(option)")
      #expect(result.errors.hasPrefix("rasp: error: unknown option '\(option)'"), "\(option)")
    }
  }

  @Test func namesAMissingLogAndWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let result = run(["report", "missing.jsonl", "-o", "page.html"], in: directory.path)
    #expect(result.status == 2)
    #expect(result.errors.contains("missing.jsonl"))
    #expect(directory.bytes("page.html") == nil)
  }

  @Test func reportsBadLinesAndStillWritesThePage() throws {
    let directory = try TemporaryDirectory()
    try "{\"type\":\"lifecycle.launch\"}\n{\"type\":\n{\"type\":\"lifecycle.launch\"}\n".write(
      toFile: directory.file("bad.jsonl"), atomically: true, encoding: .utf8)
    let result = run(["report", "bad.jsonl", "-o", "page.html"], in: directory.path)
    #expect(result.status == 2)
    #expect(result.errors.hasPrefix("bad.jsonl:2:"))
    let page = String(decoding: directory.bytes("page.html") ?? [], as: UTF8.self)
    #expect(page.contains("bad.jsonl:2:"))
  }

  @Test func escapesWhatWouldEndTheScriptElement() {
    let json = Array(#"{"a":"</script><!--&\#u{2028}\#u{2029}"}"#.utf8)
    let safe = String(decoding: ReportDocument.scriptSafe(json), as: UTF8.self)
    #expect(safe == #"{"a":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029"}"#)
    #expect((try? JSONParser.parse(Array(safe.utf8))) == (try? JSONParser.parse(json)))
  }

  @Test func hashesAsSHA256Does() {
    // FIPS 180-2's examples.
    #expect(
      SHA256.base64Digest(of: Array("abc".utf8)) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    #expect(SHA256.base64Digest(of: []) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(SHA256.base64Digest(of: long) == "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=")
  }
}
