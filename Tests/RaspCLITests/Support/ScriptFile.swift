import Testing

/// The completion script of a shell, as `rasp completions <shell>` prints it, in a file of a
/// temporary directory, removed with it.
final class ScriptFile {
  let directory: TemporaryDirectory
  let path: String
  let text: String

  init(shell: String, name: String? = nil) throws {
    let run = CommandRun.run(["completions", shell])
    #expect(run.status == 0, "\(run.standardError)")
    text = run.standardOutput
    directory = try TemporaryDirectory()
    path = directory.file(name ?? "rasp.\(shell)")
    try directory.write(name ?? "rasp.\(shell)", text)
  }
}
