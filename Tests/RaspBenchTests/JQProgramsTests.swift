import Foundation
import RaspCLI
import RaspJSON
import Testing

@testable import rasp_bench

/// The jq programs of `fixtures/bench` print what `rasp replay` prints, on a short generated
/// log, compared line by line as parsed JSON — the check `make bench` makes on a sample of a
/// million events, here on every line of a few thousand.
@Suite(.enabled(if: JQ.path != nil, "jq is not installed"))
struct JQProgramsTests {

  static let log = JQ.log

  @Test(arguments: [
    (["replay"], "foreach.jq"),
    (["replay", "--final"], "reduce.jq"),
    (["replay", "--select", BenchCase.selectedPath], "select.jq"),
  ])
  func jqProgramPrintsWhatRaspPrints(rasp arguments: [String], program: String) async throws {
    let expected = try lines(await jqOutput(program))
    let actual = lines(raspOutput(arguments))
    #expect(actual.count == expected.count)
    for (index, (line, other)) in zip(actual, expected).enumerated() {
      let value = try JSONParser.parse(line)
      let otherValue = try JSONParser.parse(other)
      guard value == otherValue else {
        Issue.record("line \(index + 1):\n  − jq   \(other)\n  + rasp \(line)")
        return
      }
    }
  }

  func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  func raspOutput(_ arguments: [String]) -> String {
    let output = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(Self.log)), standardOutput: output,
      standardError: RaspMemoryOutput())
    #expect(RaspCommandLine.run(arguments: arguments, environment: environment) == 0)
    return output.text
  }

  func jqOutput(_ program: String) async throws -> String {
    let (output, status) = try await JQ.run(program, options: ["-nc"], log: Self.log)
    #expect(status == 0)
    return output
  }
}
