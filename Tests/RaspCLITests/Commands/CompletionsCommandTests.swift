import RaspDomains
import RaspJSON
import Testing

@testable import RaspCLI

/// `rasp completions <shell>`: which script it prints, and its usage errors. What each script
/// completes is checked in a real shell by the tests of `Completions/`.
@Suite struct CompletionsCommandTests {
  @Test(arguments: [
    ("bash", "# bash completion for rasp,"),
    ("zsh", "#compdef rasp\n"),
    ("fish", "# fish completion for rasp,"),
  ])
  func printsTheScriptOfTheShell(shell: String, opening: String) {
    let run = CommandRun.run(["completions", shell])
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    #expect(run.standardOutput.hasPrefix(opening))
    #expect(run.standardOutput.hasSuffix("\n"))
    #expect(CommandRun.run(["completions", shell]).standardOutput == run.standardOutput)
  }

  @Test(arguments: [
    (["completions", "zhs"], "unknown shell 'zhs'; did you mean 'zsh'?"),
    (["completions", "Fish"], "unknown shell 'Fish'; did you mean 'fish'?"),
    (
      ["completions", "powershell"],
      "unknown shell 'powershell': rasp writes completions for 'bash', 'zsh' and 'fish'"
    ),
    (["completions"], "missing expected argument '<shell>'"),
    (["completions", "bash", "zsh"], "unexpected argument 'zsh'"),
    (["completions", "--shell", "bash"], "unknown option '--shell'"),
  ])
  func aWrongShellIsAUsageError(arguments: [String], message: String) {
    let run = CommandRun.run(arguments)
    #expect(run.status == 64)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError == """
        rasp: error: \(message)
        Usage: rasp completions <shell>
          See 'rasp completions --help' for more information.

        """)
  }

  @Test func completesTheDomainsTheCommandLineWasBuiltWith() {
    let output = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output,
      standardError: RaspMemoryOutput())
    let geo = RaspBuiltinDomains.all.filter { $0.name == "geo" }
    let status = RaspCommandLine.run(
      arguments: ["completions", "bash"], environment: environment, domains: geo)
    #expect(status == 0)
    #expect(output.text.contains("--domain)\n            _rasp_domain_names 'geo'\n"))
  }

  @Test func helpNamesTheShells() {
    let run = CommandRun.run(["completions", "--help"])
    #expect(run.status == 0)
    #expect(run.standardOutput.contains("USAGE: rasp completions <shell>"))
    #expect(run.standardOutput.contains("'bash', 'zsh' or 'fish'"))
  }
}
