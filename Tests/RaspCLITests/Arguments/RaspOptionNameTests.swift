import Testing

@testable import RaspCLI

/// The names options are declared and read by: every name is an option of some command, and
/// reads give what the command line gave.
@Suite struct RaspOptionNameTests {
  @Test func everyNameIsAnOptionOfSomeCommand() {
    let declared = Set(
      ([RaspCommandLine.spec] + RaspCommandLine.commandSpecs).flatMap(\.options).map(\.name))
    let unused = RaspOptionName.allCases.filter { !declared.contains($0) }.map(\.rawValue)
    #expect(unused.isEmpty, "names no command declares: \(unused)")
  }

  @Test func namesAreInAlphabeticalOrderOnce() {
    let names = RaspOptionName.allCases.map(\.rawValue)
    #expect(names == names.sorted())
    #expect(Set(names).count == names.count)
  }

  @Test func eachCommandDeclaresAnOptionOnce() {
    for spec in [RaspCommandLine.spec] + RaspCommandLine.commandSpecs {
      let names = spec.options.map(\.name)
      #expect(Set(names).count == names.count, "\(spec.name) declares an option twice")
    }
  }

  @Test func readsFlagsValuesAndRepeatedValuesByName() throws {
    let parsed = try RaspArgumentParser.parse(
      ["--final", "--select", "geo.heading", "--drop", "nav.*", "--drop=geo.heading", "a.jsonl"],
      spec: ReplayCommand.spec)
    #expect(parsed.flag(.final))
    #expect(!parsed.flag(.withEvent))
    #expect(parsed.value(.select) == "geo.heading")
    #expect(parsed.value(.keyBy) == nil)
    #expect(parsed.all(.drop) == ["nav.*", "geo.heading"])
    #expect(parsed.all(.hide) == [])
    #expect(parsed.isGiven(.select) && parsed.isGiven(.drop) && !parsed.isGiven(.since))
    #expect(parsed.positionals == ["a.jsonl"])
  }

  /// One reader of options serves commands that declare only some of them: `rasp report` has
  /// no `--follow`, which reads as not given.
  @Test func anOptionTheCommandDoesNotDeclareReadsAsNotGiven() throws {
    let parsed = try RaspArgumentParser.parse(["a.jsonl"], spec: ReportCommand.spec)
    #expect(!ReportCommand.spec.options.contains { $0.name == .follow })
    #expect(!parsed.flag(.follow))
    #expect(parsed.value(.saveState) == nil)
  }
}

/// The table of subcommands: what `rasp --help` lists, and what each runs.
@Suite struct RaspSubcommandTests {
  @Test func helpListsEverySubcommandOfTheTableThenVersion() {
    let listed = RaspCommandLine.spec.subcommands.map(\.name)
    #expect(listed == RaspCommandLine.subcommands.map(\.name) + ["version"])
    #expect(
      listed == [
        "replay", "check", "compare", "find", "blame", "report", "shrink", "redact", "diff",
        "domains",
        "formats",
        "spec",
        "completions",
        "help",
        "version",
      ])
  }

  @Test func namesAreTheLastWordOfTheSpecsNames() {
    for subcommand in RaspCommandLine.subcommands {
      #expect(subcommand.spec.name == "rasp " + subcommand.name)
      let listing = RaspCommandLine.spec.subcommands.first { $0.name == subcommand.name }
      #expect(listing?.abstract == subcommand.spec.abstract)
    }
  }

  /// A command that declares `--color` reports its own usage error in the colours asked for.
  @Test(arguments: RaspCommandLine.subcommands.map(\.name))
  func aUsageErrorIsColouredWhenTheCommandTakesColor(_ name: String) throws {
    let subcommand = try #require(RaspCommandLine.subcommands.first { $0.name == name })
    let run = CommandRun.run([name, "--color", "always", "--no-such-option"])
    #expect(run.status == 64)
    let coloured = run.standardError.contains("\u{1B}[1;31merror:")
    #expect(coloured == subcommand.colorsItsErrors, "\(run.standardError)")
  }
}
