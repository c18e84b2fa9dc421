import RaspCLI
import RaspJSON
import Testing

@testable import rasp_bench

@Suite struct BenchLogGeneratorTests {
  @Test func sameSeedWritesTheSameBytes() {
    var first = BenchLogGenerator(seed: 42)
    var second = BenchLogGenerator(seed: 42)
    #expect(first.makeLog(events: 5_000) == second.makeLog(events: 5_000))
  }

  @Test func differentSeedsWriteDifferentLogs() {
    var first = BenchLogGenerator(seed: 1)
    var second = BenchLogGenerator(seed: 2)
    #expect(first.makeLog(events: 100) != second.makeLog(events: 100))
  }

  @Test func firstLinesOfSeedSevenAreFixed() {
    // The published figures were measured on this log; a change here changes the benchmark.
    var generator = BenchLogGenerator(seed: 7)
    let lines = String(decoding: generator.makeLog(events: 2), as: UTF8.self)
    #expect(
      lines == """
        {"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.push",\
        "payload":{"screen":"orders"}}
        {"ts":"2026-11-22T09:30:00.114Z","source":"compass","type":"geo.heading",\
        "payload":{"heading":139.9}}

        """)
  }

  @Test func everyEventReplaysWithoutError() {
    var generator = BenchLogGenerator(seed: 7)
    let log = generator.makeLog(events: 20_000)
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(log)), standardOutput: output, standardError: errors)
    let status = RaspCommandLine.run(
      arguments: ["replay", "--final", "--strict", "--stats"], environment: environment)
    #expect(status == 0)
    #expect(errors.text == "rasp: 20000 lines read: 20000 applied, 0 skipped, 0 ignored, 0 blank\n")
  }

  @Test func everyLineIsAnEventWithTimeAndSourceOfAboutAHundredBytes() throws {
    var generator = BenchLogGenerator(seed: 3)
    let log = generator.makeLog(events: 10_000)
    let lines = log.split(separator: 0x0A)
    #expect(lines.count == 10_000)
    #expect((90...130).contains(log.count / lines.count))
    var types: Set<String> = []
    for line in lines {
      let event = try JSONParser.parse(Array(line))
      guard case .string(let type)? = event["type"], case .string? = event["ts"],
        case .string? = event["source"]
      else {
        Issue.record("not an event with ts and source: \(String(decoding: line, as: UTF8.self))")
        return
      }
      types.insert(type)
    }
    #expect(
      types == [
        "geo.heading", "geo.location", "rest.response", "rest.link", "rest.unlink", "nav.push",
        "nav.pop", "nav.replace", "nav.popToRoot", "nav.selectTab", "nav.present", "nav.dismiss",
      ])
  }

  @Test func mixAddsUpToAThousand() {
    #expect(BenchLogGenerator.Kind.allCases.map(\.perMille).reduce(0, +) == 1000)
  }
}
