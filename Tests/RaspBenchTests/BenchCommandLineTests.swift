import Testing

@testable import rasp_bench

@Suite struct BenchCommandLineTests {
  struct Options {
    var name = "default"
    var count = 1
  }

  func parse(_ arguments: [String]) -> Result<Options, UsageErrorMessage> {
    BenchCommandLine.parse(arguments, into: Options()) { options, argument, value in
      switch argument {
      case "--name": options.name = value
      case "--count": options.count = try BenchCommandLine.positiveNumber(value, for: argument)
      default: throw UsageErrorMessage("Unknown option '\(argument)'")
      }
    }
  }

  func message(_ arguments: [String]) -> String? {
    guard case .failure(let error) = parse(arguments) else { return nil }
    return error.message
  }

  @Test func readsPairsOverTheDefaults() throws {
    let options = try parse(["--count", "3"]).get()
    #expect(options.name == "default")
    #expect(options.count == 3)
    #expect(try parse(["--name", "a", "--name", "b"]).get().name == "b")
  }

  @Test(arguments: [
    (["--name"], "Missing value for '--name'"),
    (["--count", "-2"], "'--count' expects a positive whole number, found '-2'"),
    (["--colour", "red"], "Unknown option '--colour'"),
    (["--name", "a", "--help"], ""),
    (["-h", "--colour"], ""),
  ])
  func refusesWithAMessageOrAnswersHelp(arguments: [String], expected: String) {
    #expect(message(arguments) == expected)
  }

  @Test func endsWithTheStatusOfHelpUsageErrorsAndTheBody() {
    #expect(BenchCommandLine.main(parse(["--help"]), usage: "Usage: x") { _ in 9 } == 0)
    #expect(BenchCommandLine.main(parse(["--count", "x"]), usage: "Usage: x") { _ in 9 } == 64)
    #expect(
      BenchCommandLine.main(parse(["--count", "2"]), usage: "Usage: x") { Int32($0.count) } == 2)
  }
}
