import Foundation
import Testing

/// Replays every golden fixture under `fixtures/` and compares stdout, stderr and the status.
///
/// A fixture is a folder with `args` (the command line after `rasp`, shell-quoted), the inputs it
/// names, `expected.jsonl` (standard output), and optionally `expected.stderr`, `expected.status`
/// (default 0) and `stdin.jsonl`. Set `RASP_RECORD_FIXTURES=1` to write the actual output into
/// the expected files instead; recording is refused when `CI` is set.
@Suite struct FixtureTests {
  static let cases: [String] = {
    let root = Repository.path("fixtures")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return names.filter { FileManager.default.fileExists(atPath: "\(root)/\($0)/args") }.sorted()
  }()

  @Test func fixturesExist() {
    #expect(Self.cases.count >= 10, "expected the golden fixtures under fixtures/")
  }

  @Test(arguments: cases)
  func fixture(_ name: String) throws {
    let directory = Repository.path("fixtures/\(name)")
    func read(_ file: String) -> String? {
      try? String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
    }
    let arguments = ShellWords.split(read("args") ?? "")
    let input = read("stdin.jsonl").map { Array($0.utf8) } ?? []
    let run = CommandRun.run(arguments, in: directory, input: input)
    let environment = ProcessInfo.processInfo.environment
    if environment["RASP_RECORD_FIXTURES"] == "1" {
      #expect(environment["CI"] == nil, "refusing to record fixtures in CI")
      guard environment["CI"] == nil else { return }
      try run.standardOutput.write(toFile: "\(directory)/expected.jsonl", atomically: true, encoding: .utf8)
      try record(run.standardError, as: "expected.stderr", in: directory, keepIf: !run.standardError.isEmpty)
      try record("\(run.status)\n", as: "expected.status", in: directory, keepIf: run.status != 0)
      return
    }
    let expectedStatus = Int32((read("expected.status") ?? "0").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    #expect(run.status == expectedStatus, "\(name): exit status")
    expectSameLines(read("expected.jsonl") ?? "", run.standardOutput, "\(name): standard output")
    expectSameLines(read("expected.stderr") ?? "", run.standardError, "\(name): standard error")
  }

  private func record(_ text: String, as file: String, in directory: String, keepIf keep: Bool) throws {
    let path = "\(directory)/\(file)"
    if keep {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } else if FileManager.default.fileExists(atPath: path) {
      try FileManager.default.removeItem(atPath: path)
    }
  }
}

/// Compares two texts line by line and reports the first difference as − expected / + actual.
func expectSameLines(
  _ expected: String, _ actual: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard expected != actual else { return }
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  var index = 0
  while index < min(expectedLines.count, actualLines.count), expectedLines[index] == actualLines[index] {
    index += 1
  }
  let minus = index < expectedLines.count ? String(expectedLines[index]) : "(end of output)"
  let plus = index < actualLines.count ? String(actualLines[index]) : "(end of output)"
  Issue.record(
    "\(context) differs at line \(index + 1):\n− \(minus)\n+ \(plus)", sourceLocation: sourceLocation)
}
