import RaspDomains
import RaspReplay
import Testing

@testable import RaspCLI

/// The model the three scripts are written from: read from the specs, so that it holds every
/// subcommand and option `--help` shows, with what each value may be.
@Suite struct RaspCompletionModelTests {
  let model = RaspCompletionModel.make(domains: RaspBuiltinDomains.all)

  @Test func holdsTheSubcommandsOfRaspHelpInOrder() {
    #expect(model.program == "rasp")
    #expect(model.commands.map(\.name) == RaspCommandLine.spec.subcommands.map(\.name))
    #expect(model.options.flatMap(\.spellings) == ["-V", "--version", "-h", "--help"])
  }

  @Test(arguments: RaspCommandLine.commandSpecs.map(\.name))
  func holdsEveryOptionOfTheSpecThenHelp(command: String) throws {
    let spec = try #require(RaspCommandLine.commandSpecs.first { $0.name == command })
    let modelled = try #require(model.commands.first { "rasp \($0.name)" == command })
    #expect(modelled.options.map(\.name) == spec.options.map(\.name.rawValue) + ["help"])
    #expect(modelled.options.map(\.short) == spec.options.map(\.short) + ["h"])
    #expect(modelled.options.map(\.valueName) == spec.options.map(\.valueName) + [nil])
    #expect(modelled.arguments.map(\.name) == spec.arguments.map(\.name))
  }

  @Test func valuesComeFromTheSpecsAndTheDomains() throws {
    let replay = try #require(model.commands.first { $0.name == "replay" })
    func values(_ name: String) -> RaspCompletionModel.Values? {
      replay.options.first { $0.name == name }?.values
    }
    #expect(values("log-format") == .words(LogFormat.presets.map(\.name)))
    #expect(values("emit") == .words(["snapshot", "diff", "devtools"]))
    #expect(values("on-error") == .words(["fail", "skip"]))
    #expect(values("domain") == .domainNames(RaspBuiltinDomains.all.map(\.name)))
    #expect(values("spec") == .files)
    #expect(values("map") == .files)
    #expect(values("select") == .text)
    #expect(replay.argumentValues == .files)
  }

  @Test(arguments: [
    ("formats", RaspCompletionModel.Values.words(LogFormat.presets.map(\.name))),
    ("completions", .words(["bash", "zsh", "fish"])),
    (
      "help",
      .words([
        "replay", "check", "compare", "find", "blame", "report", "shrink", "redact", "diff",
        "domains",
        "formats",
        "spec",
        "completions",
        "help",
      ])
    ),
    ("diff", .files),
    ("spec", .files),
  ])
  func positionalArgumentsAreFilesUnlessTheyAreNames(
    command: String, values: RaspCompletionModel.Values
  ) throws {
    let modelled = try #require(model.commands.first { $0.name == command })
    #expect(modelled.argumentValues == values)
  }

  @Test func versionTakesNothing() throws {
    let version = try #require(model.commands.first { $0.name == "version" })
    #expect(version.options.isEmpty)
    #expect(version.argumentValues == nil)
  }

  @Test(arguments: [
    ("Indent the output for people.", "Indent the output for people"),
    (
      "Print only the value at <path> (such as geo.heading), and only when it changes; more.",
      "Print only the value at <path>, and only when it changes"
    ),
    (
      "The golden file: the expected snapshots (required).",
      "The golden file: the expected snapshots"
    ),
    ("Show the manual page rasp(1). Then stop.", "Show the manual page rasp(1)"),
    ("A list (with (nested) asides) ends here.", "A list ends here"),
  ])
  func summaryIsTheFirstClauseWithoutAsides(help: String, summary: String) {
    #expect(RaspCompletionModel.summary(help) == summary)
  }
}
