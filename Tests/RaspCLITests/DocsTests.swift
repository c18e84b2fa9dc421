import Foundation
import Testing
import RaspTestSupport

/// Runs every command shown in the docs and the README and checks its output, so that the docs
/// cannot drift from the tool.
///
/// In a ```` ```console ```` block, a line starting with `$ ` is a command, run from the
/// repository's root; the lines after it, up to the next command or the end of the block, are
/// its output — standard output and standard error together, as a terminal shows them.
/// `$ echo $?` shows the previous command's exit status. Commands that start with `rasp ` and
/// use no shell syntax run in-process; others run in `/bin/sh` with the built `rasp` on the PATH.
@Suite struct DocsTests {
  struct Example: CustomTestStringConvertible, Sendable {
    let file: String
    let line: Int
    let command: String
    let expected: String
    let statusCheck: Int32?
    var testDescription: String { "\(file):\(line): $ \(command)" }
  }

  static let examples: [Example] = {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("docs"))) ?? []
    let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return files.flatMap { examples(in: $0) }
  }()

  static func examples(in file: String) -> [Example] {
    guard let text = try? String(contentsOfFile: Repository.path(file), encoding: .utf8) else {
      return []
    }
    var examples: [Example] = []
    var inConsole = false
    var command: (text: String, line: Int)?
    var output: [String] = []
    func close() {
      guard let current = command else { return }
      command = nil
      if current.text == "echo $?", let previous = examples.popLast() {
        let status = Int32(output.joined(separator: "\n").trimmingCharacters(in: .whitespaces))
        examples.append(
          Example(
            file: previous.file, line: previous.line, command: previous.command,
            expected: previous.expected, statusCheck: status ?? -1))
      } else {
        examples.append(
          Example(
            file: file, line: current.line, command: current.text,
            expected: output.map { $0 + "\n" }.joined(), statusCheck: nil))
      }
      output = []
    }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if line.hasPrefix("```") {
        if inConsole { close() }
        inConsole = line == "```console"
        continue
      }
      guard inConsole else { continue }
      if line.hasPrefix("$ ") {
        close()
        command = (String(line.dropFirst(2)), index + 1)
      } else if command != nil {
        output.append(String(line))
      }
    }
    return examples
  }

  @Test func docsHaveExamples() {
    #expect(Self.examples.count >= 5)
  }

  @Test(arguments: examples)
  func example(_ example: Example) async throws {
    // A docs command that records (`--update`, `--record`) writes a golden file under
    // fixtures/: it must write exactly what is committed, or a changed reducer would silently
    // re-record the docs' own expectations. The committed bytes are put back either way.
    let golden = Self.recordedGoldenFile(example.command)
    let committed = golden.flatMap { FileManager.default.contents(atPath: Repository.path($0)) }
    defer {
      if let golden {
        let path = Repository.path(golden)
        let written = FileManager.default.contents(atPath: path)
        if written != committed {
          Issue.record("\(example.testDescription) changed the committed file '\(golden)'")
          if let committed {
            try? committed.write(to: URL(fileURLWithPath: path), options: .atomic)
          } else {
            try? FileManager.default.removeItem(atPath: path)
          }
        }
      }
    }
    let usesShell =
      !example.command.hasPrefix("rasp ")
      || example.command.contains(where: { "|<>;&$`".contains($0) })
    let status: Int32
    let text: String
    if usesShell {
      let result = try await BuiltBinary.shell(example.command, mergingErrors: true)
      (status, text) = (result.status, result.text)
    } else {
      let arguments = ShellWords.split(String(example.command.dropFirst("rasp ".count)))
      (status, text) = CommandRun.runInterleaved(arguments, in: Repository.root)
    }
    // A shrink's summary ends with the time it took once that is a second or more, as it may
    // be on a loaded machine; the page shows a quicker run's.
    let shown =
      example.command.contains("rasp shrink") ? ShrinkResumptionTests.withoutTime(text) : text
    expectSameLines(example.expected, shown, example.testDescription)
    if let expectedStatus = example.statusCheck {
      #expect(status == expectedStatus, "\(example.testDescription): exit status")
    } else {
      #expect(
        status == 0 || usesShell,
        "\(example.testDescription) exited with \(status); show it with 'echo $?'")
    }
  }

  /// The golden file a command records into, if it records: the path after `--golden`.
  static func recordedGoldenFile(_ command: String) -> String? {
    let words = ShellWords.split(command)
    guard words.contains(where: { $0 == "--update" || $0.hasPrefix("--record") }),
      let index = words.firstIndex(of: "--golden"), index + 1 < words.count
    else { return nil }
    return words[index + 1]
  }
}
