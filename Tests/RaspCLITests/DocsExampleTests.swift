import Foundation
import Testing

/// Runs every terminal session shown in `docs/*.md` and compares it with what the page shows,
/// so that the documentation cannot drift from the tool (as jq checks its manual's examples).
///
/// A session is a ```` ```console ```` block. Each line starting with `$ ` is a command, run
/// from the repository's root; the lines up to the next command or the end of the block are its
/// output, standard output and standard error interleaved as a terminal shows them. Commands are
/// `rasp …` (run in-process) and `cat <file>`. Every such example is also a golden fixture under
/// `fixtures/`, which checks its exit status.
@Suite struct DocsExampleTests {
  struct Example: CustomStringConvertible, Sendable {
    let page: String
    let line: Int
    let command: String
    let output: String
    var description: String { "\(page):\(line): \(command)" }
  }

  static let examples: [Example] = {
    let root = Repository.path("docs")
    let pages = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
      .filter { $0.hasSuffix(".md") }.sorted()
    return pages.flatMap { page -> [Example] in
      guard let text = try? String(contentsOfFile: "\(root)/\(page)", encoding: .utf8) else {
        return []
      }
      return parse(text, page: "docs/\(page)")
    }
  }()

  /// The commands and outputs of the console blocks of a page.
  static func parse(_ text: String, page: String) -> [Example] {
    var examples: [Example] = []
    var inConsole = false
    var current: (line: Int, command: String, output: [String])?
    func finish() {
      if let current {
        let output = current.output.map { $0 + "\n" }.joined()
        examples.append(
          Example(page: page, line: current.line, command: current.command, output: output))
      }
      current = nil
    }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if !inConsole {
        if line == "```console" { inConsole = true }
        continue
      }
      if line == "```" {
        finish()
        inConsole = false
      } else if line.hasPrefix("$ ") {
        finish()
        current = (index + 1, String(line.dropFirst(2)), [])
      } else {
        current?.output.append(String(line))
      }
    }
    return examples
  }

  @Test func docsShowExamples() {
    #expect(Self.examples.count >= 8, "expected console examples in docs/")
  }

  @Test(arguments: examples)
  func example(_ example: Example) {
    let words = ShellWords.split(example.command)
    let actual: String
    switch words.first {
    case "rasp":
      actual = CommandRun.runInterleaved(Array(words.dropFirst()), in: Repository.root).text
    case "cat" where words.count == 2:
      actual =
        (try? String(contentsOfFile: Repository.path(words[1]), encoding: .utf8))
        ?? "(cannot read \(words[1]))\n"
    default:
      Issue.record("\(example): only 'rasp …' and 'cat <file>' can be checked")
      return
    }
    expectSameLines(example.output, actual, "\(example)")
  }
}
