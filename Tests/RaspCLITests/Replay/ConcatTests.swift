import RaspDomains
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `--concat`: the parts of one log, read one after another.
@Suite struct ConcatTests {
  private func options(_ arguments: [String]) throws -> (ReplayOptions, RaspEnvironment) {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), workingDirectory: Repository.root)
    let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
    let options = try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
    return (options, environment)
  }

  @Test func followsOnlyTheLastPart() throws {
    let parts = ["fixtures/replay-concat/session.jsonl", "fixtures/replay-concat/session.1.jsonl"]
    let (concatenated, environment) = try options(["--concat", "--follow"] + parts)
    #expect(concatenated.configuration.concatenatesInputs)
    let inputs = try ReplayRun.openInputs(concatenated, environment: environment)
    #expect(inputs.map(\.isFollowed) == [false, true])
    // Without --concat, every file is followed, and the logs are merged.
    let (merged, _) = try options(["--follow"] + parts)
    #expect(!merged.configuration.concatenatesInputs)
    #expect(
      try ReplayRun.openInputs(merged, environment: environment).map(\.isFollowed) == [true, true])
  }

  @Test func readsThePartsInTheOrderGivenAndNamesEachLinesFile() {
    let run = CommandRun.run(
      [
        "replay", "--concat", "--with-event", "--select", "geo.heading",
        "fixtures/replay-concat/session.1.jsonl", "fixtures/replay-concat/session.jsonl",
      ], in: Repository.root)
    #expect(run.status == 0)
    let places = run.standardOutput.split(separator: "\n").map { line in
      line.split(separator: ",").filter { $0.hasPrefix(#""file""#) || $0.hasPrefix(#""line""#) }
        .joined(separator: ",")
    }
    #expect(
      places == [
        #""file":"fixtures/replay-concat/session.1.jsonl","line":1"#,
        #""file":"fixtures/replay-concat/session.1.jsonl","line":2"#,
        #""file":"fixtures/replay-concat/session.jsonl","line":1"#,
        #""file":"fixtures/replay-concat/session.jsonl","line":2"#,
      ])
  }
}
