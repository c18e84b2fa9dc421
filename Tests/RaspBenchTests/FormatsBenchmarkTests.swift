import Testing

@testable import rasp_bench

@Suite struct FormatsBenchmarkTests {
  func usageError(_ arguments: [String]) -> String? {
    guard case .failure(let error) = FormatsBenchmark.parse(arguments) else { return nil }
    return error.message
  }

  @Test func readsEveryOption() throws {
    let options = try FormatsBenchmark.parse([
      "--log", "events.jsonl", "--runs", "5", "--rasp", "rasp", "--jq", "/usr/bin/jq",
      "--programs", "programs", "--scratch", "scratch", "--formats", "cloudevents",
      "--commit", "abc",
    ]).get()
    #expect(options.log == "events.jsonl")
    #expect(options.runs == 5)
    #expect(options.rasp == "rasp")
    #expect(options.jq == "/usr/bin/jq")
    #expect(options.programs == "programs")
    #expect(options.scratch == "scratch")
    #expect(options.formats == [.cloudevents])
    #expect(options.commit == "abc")
  }

  @Test func comparesEveryOtherFormatByDefault() throws {
    let options = try FormatsBenchmark.parse(["--log", "events.jsonl"]).get()
    #expect(options.formats == [.fsa, .cloudevents, .kcat])
    #expect(options.runs == 3)
    #expect(options.scratch == "bench-output")
  }

  @Test func readsAFormatNamedTwiceOnce() throws {
    let options = try FormatsBenchmark.parse([
      "--log", "l", "--formats", "kcat,fsa,cloudevents,fsa,kcat",
    ]).get()
    #expect(options.formats == [.kcat, .fsa, .cloudevents])
  }

  @Test(arguments: [
    ([], "Missing '--log <file>'"),
    (["--runs", "2"], "Missing '--log <file>'"),
    (["--log"], "Missing value for '--log'"),
    (["--log", "l", "--runs", "0"], "'--runs' expects a positive whole number, found '0'"),
    (["--log", "l", "--runs", "many"], "'--runs' expects a positive whole number, found 'many'"),
    (["--log", "l", "--sample", "9"], "Unknown option '--sample'"),
    (
      ["--log", "l", "--formats", "fsa,xml"],
      "'--formats' expects names among 'fsa', 'cloudevents', 'kcat', separated by commas, "
        + "found 'xml'"
    ),
    (
      ["--log", "l", "--formats", "rasp"],
      "'--formats' expects names among 'fsa', 'cloudevents', 'kcat', separated by commas, "
        + "found 'rasp'"
    ),
    (
      ["--log", "l", "--formats", ""],
      "'--formats' expects names among 'fsa', 'cloudevents', 'kcat', separated by commas, "
        + "found ''"
    ),
  ])
  func refusesWrongArguments(arguments: [String], message: String) {
    #expect(usageError(arguments) == message)
  }

  @Test func answersHelpWherever() {
    #expect(usageError(["--help"]) == "")
    #expect(usageError(["--log", "l", "-h"]) == "")
    #expect(FormatsBenchmark.main(arguments: ["--log", "l", "--help"]) == 0)
  }

  @Test func endsAUsageErrorWithStatus64() {
    #expect(FormatsBenchmark.main(arguments: ["--runs", "3"]) == 64)
    #expect(FormatsBenchmark.main(arguments: ["--log", "l", "--formats", "otel"]) == 64)
  }

  @Test func namesTheConvertedLogAfterTheLog() {
    #expect(
      LogConversion.convertedPath(of: "bench-output/events-1m.jsonl", in: .fsa, directory: "out")
        == "out/events-1m-fsa.jsonl")
    #expect(
      LogConversion.convertedPath(of: "log", in: .cloudevents, directory: "/tmp")
        == "/tmp/log-cloudevents.jsonl")
    #expect(
      LogConversion.convertedPath(of: "out/events.jsonl", in: .kcat, directory: "out")
        == "out/events-kcat.jsonl")
  }
}
