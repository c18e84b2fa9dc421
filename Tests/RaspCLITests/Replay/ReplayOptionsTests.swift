import RaspDomains
import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI

/// How `--jobs` is read: given, or by default from the processors and the other options.
@Suite struct ReplayOptionsTests {
  /// The options of `rasp replay <arguments>` on a machine with `processors` processors.
  private func options(_ arguments: [String], processors: Int = 2) throws -> ReplayOptions {
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput())
    environment.processorCount = processors
    let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
    return try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
  }

  @Test func aKeyedFinalReplayLeavesOneProcessorToRead() throws {
    let keyedFinal = ["--key-by", "device", "--final", "log.jsonl"]
    #expect(try options(keyedFinal, processors: 1).configuration.jobs == 1)
    #expect(try options(keyedFinal, processors: 2).configuration.jobs == 1)
    #expect(try options(keyedFinal, processors: 8).configuration.jobs == 7)
    #expect(try options(keyedFinal, processors: 1_000).configuration.jobs == 256)
    // Every snapshot, or no keys: one thread applies.
    let every = try options(["--key-by", "device", "log.jsonl"], processors: 8)
    #expect(every.configuration.jobs == 1)
    #expect(try options(["--final", "log.jsonl"], processors: 8).configuration.jobs == 1)
  }

  @Test func aNumberGivenIsTaken() throws {
    #expect(try options(["-j", "3", "--key-by", "device", "log.jsonl"]).configuration.jobs == 3)
    let final = try options(
      ["--jobs=1", "--key-by", "device", "--final", "log.jsonl"], processors: 8)
    #expect(final.configuration.jobs == 1)
  }

  @Test(arguments: ["0", "-1", "two", "257", "1.5", ""])
  func aNumberOutOfRangeIsAUsageError(value: String) {
    #expect {
      _ = try options(["--jobs", value, "--key-by", "device", "log.jsonl"])
    } throws: { error in
      guard case .usage(let message, _, _) = error as? RaspCommandError else { return false }
      return message
        == "Invalid value '\(value)' for '--jobs <n>': expected a whole number from 1 to 256"
    }
  }
}
