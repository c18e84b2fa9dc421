import Testing

@testable import rasp_bench

@Suite struct FormatCaseTests {
  static let log = BenchReport.LogFile(path: "out/events-fsa.jsonl", events: 10, bytes: 1_000)

  @Test func replaysTheConvertedLogWithItsFormat() {
    let fsa = FormatCase(
      format: .fsa, log: Self.log, rasp: ".build/release/rasp", jq: "jq", programs: "fixtures/bench"
    )
    #expect(fsa.replay.executable == ".build/release/rasp")
    #expect(fsa.replay.arguments == ["replay", "--log-format", "fsa", "out/events-fsa.jsonl"])
    #expect(fsa.replay.shown == "rasp replay --log-format fsa out/events-fsa.jsonl")
    #expect(!fsa.replay.isPipeline)
  }

  @Test func pipesTheRewriteIntoRaspThroughTheShell() {
    let fsa = FormatCase(
      format: .fsa, log: Self.log, rasp: "/opt/my rasp", jq: "jq", programs: "fixtures/bench")
    #expect(fsa.pipeline.executable == "sh")
    #expect(
      fsa.pipeline.arguments == [
        "-c",
        "jq -c -f fixtures/bench/fsa-to-rasp.jq out/events-fsa.jsonl | '/opt/my rasp' replay -",
      ])
    #expect(
      fsa.pipeline.shown
        == "jq -c -f fixtures/bench/fsa-to-rasp.jq out/events-fsa.jsonl | rasp replay -")
    #expect(fsa.pipeline.isPipeline)
  }

  @Test func ratioIsTheFormatsBestTimeOverTheOther() {
    var fsa = FormatCase(format: .fsa, log: Self.log, rasp: "rasp", jq: "jq", programs: "p")
    fsa.replay.runs.runs = [run(0.6), run(0.5), run(0.7)]
    fsa.pipeline.runs.runs = [run(5), run(4)]
    #expect(fsa.ratio(to: fsa.pipeline) == 0.125)
  }

  func run(_ seconds: Double) -> ToolRuns.Run {
    ToolRuns.Run(
      ChildProcess.Result(
        status: 0, seconds: seconds, userSeconds: 0, systemSeconds: 0, peakKilobytes: 0,
        output: OutputSample(limit: 0), standardError: ""))
  }
}
