import RaspJSON
import Testing

@testable import RaspCLI

/// `rasp help [<subcommand>]` and `rasp help --man`. The manual page itself is checked by
/// `RaspManualPageTests`.
@Suite struct HelpCommandTests {
  @Test(arguments: RaspCommandLine.commandSpecs.map { String($0.name.dropFirst("rasp ".count)) })
  func helpOfASubcommandIsItsDashDashHelp(subcommand: String) {
    let run = CommandRun.run(["help", subcommand])
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    #expect(run.standardOutput == CommandRun.run([subcommand, "--help"]).standardOutput)
  }

  @Test func helpAloneIsTheHelpOfRasp() {
    let run = CommandRun.run(["help"])
    #expect(run.status == 0)
    #expect(run.standardOutput == CommandRun.run(["--help"]).standardOutput)
  }

  @Test func raspHelpListsCompletionsAndHelp() {
    let help = CommandRun.run(["--help"]).standardOutput
    #expect(help.contains("\n  completions             Print the bash, zsh or fish script"))
    #expect(help.contains("\n  help                    Show the help of a subcommand"))
  }

  @Test func manPrintsThePageDatedBySourceDateEpoch() {
    let run = CommandRun.run(["help", "--man"], variables: ["SOURCE_DATE_EPOCH": "1777593600"])
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let lines = run.standardOutput.split(separator: "\n")
    #expect(lines.dropFirst().first == #".TH RASP 1 2026-05-01 "rasp 0.1.0" "User Commands""#)
    #expect(
      run.standardOutput
        == CommandRun.run(["help", "--man"], variables: ["SOURCE_DATE_EPOCH": "1777593600"])
        .standardOutput)
  }

  @Test(arguments: [("0", "1970-01-01"), ("951782400", "2000-02-29"), ("-86400", "1969-12-31")])
  func manualDateIsTheUTCDateOfTheEpoch(seconds: String, date: String) {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), variables: ["SOURCE_DATE_EPOCH": seconds])
    #expect(HelpCommand.manualDate(environment) == date)
  }

  @Test(arguments: [
    (
      ["help", "--man", "replay"],
      "unexpected argument 'replay': with '--man', the page describes every subcommand",
      "rasp help [<subcommand>]\n       rasp help --man", "rasp help"
    ),
    (
      ["help", "version"],
      "subcommand 'version' has no help of its own: it prints what 'rasp --version' prints",
      "rasp help [<subcommand>]\n       rasp help --man", "rasp help"
    ),
    (
      ["help", "--mna"], "unknown option '--mna'; did you mean '--man'?",
      "rasp help [<subcommand>]\n       rasp help --man", "rasp help"
    ),
    (
      ["help", "replya"], "unknown subcommand 'replya'; did you mean 'replay'?",
      "rasp <subcommand> [<options>]", "rasp"
    ),
  ])
  func mistakesAreUsageErrors(arguments: [String], message: String, usage: String, command: String)
  {
    let run = CommandRun.run(arguments)
    #expect(run.status == 64)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError
        == "rasp: error: \(message)\nUsage: \(usage)\n  See '\(command) --help' for more "
        + "information.\n")
  }
}
