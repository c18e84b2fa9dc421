import Foundation
import Testing
import RaspTestSupport

/// Replays every golden fixture under `fixtures/` and compares stdout, stderr and the status.
///
/// A fixture is a folder with `args` (the command line after `rasp`, shell-quoted), the inputs it
/// names, `expected.jsonl` (standard output), and optionally `expected.stderr`, `expected.status`
/// (default 0) and `stdin.jsonl`. Set `RASP_RECORD_FIXTURES=1` to write the actual output into
/// the expected files instead; recording is refused when `CI` is set.
///
/// Inputs too large to keep in git (a 64 MB line, a million nested brackets) are described by
/// `generate.json` instead: `{"events.jsonl": [{"text": "[", "repeat": 1000000}, …]}`. Such a
/// fixture runs in a temporary copy of its folder, where each named file is written first as
/// its parts' texts, each repeated `repeat` times (default 1).
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
    let generated = try GeneratedInputs(fixture: directory)
    let run = CommandRun.run(arguments, in: generated?.directory.path ?? directory, input: input)
    let environment = ProcessInfo.processInfo.environment
    if environment["RASP_RECORD_FIXTURES"] == "1" {
      #expect(environment["CI"] == nil, "refusing to record fixtures in CI")
      guard environment["CI"] == nil else { return }
      try run.standardOutput.write(
        toFile: "\(directory)/expected.jsonl", atomically: true, encoding: .utf8)
      try record(
        run.standardError, as: "expected.stderr", in: directory, keepIf: !run.standardError.isEmpty)
      try record("\(run.status)\n", as: "expected.status", in: directory, keepIf: run.status != 0)
      return
    }
    let expectedStatus =
      Int32((read("expected.status") ?? "0").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    #expect(run.status == expectedStatus, "\(name): exit status")
    expectSameLines(read("expected.jsonl") ?? "", run.standardOutput, "\(name): standard output")
    expectSameLines(read("expected.stderr") ?? "", run.standardError, "\(name): standard error")
  }

  private func record(_ text: String, as file: String, in directory: String, keepIf keep: Bool)
    throws
  {
    let path = "\(directory)/\(file)"
    if keep {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } else if FileManager.default.fileExists(atPath: path) {
      try FileManager.default.removeItem(atPath: path)
    }
  }
}

/// A temporary copy of a fixture's folder with the inputs its `generate.json` describes.
struct GeneratedInputs {
  let directory: TemporaryDirectory

  /// Copies the fixture and writes its generated inputs, or returns `nil` when it has none.
  init?(fixture: String) throws {
    let recipe = fixture + "/generate.json"
    guard let data = FileManager.default.contents(atPath: recipe) else { return nil }
    guard let files = try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]]
    else {
      throw FixtureError.badRecipe(recipe)
    }
    directory = try TemporaryDirectory()
    for name in try FileManager.default.contentsOfDirectory(atPath: fixture) {
      try FileManager.default.copyItem(atPath: fixture + "/" + name, toPath: directory.file(name))
    }
    for (name, parts) in files {
      var bytes: [UInt8] = []
      for part in parts {
        guard let text = part["text"] as? String else { throw FixtureError.badRecipe(recipe) }
        let count = part["repeat"] as? Int ?? 1
        bytes.reserveCapacity(bytes.count + text.utf8.count * count)
        for _ in 0..<count { bytes.append(contentsOf: text.utf8) }
      }
      guard FileManager.default.createFile(atPath: directory.file(name), contents: Data(bytes))
      else {
        throw FixtureError.badRecipe(recipe)
      }
    }
  }
}

enum FixtureError: Error {
  /// A `generate.json` that is not an object of arrays of `{"text", "repeat"}` parts.
  case badRecipe(String)
}

/// Compares two texts line by line and reports the first difference as − expected / + actual.
func expectSameLines(
  _ expected: String, _ actual: String, _ context: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard expected != actual else { return }
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  var index = 0
  while index < min(expectedLines.count, actualLines.count),
    expectedLines[index] == actualLines[index]
  {
    index += 1
  }
  let minus = index < expectedLines.count ? String(expectedLines[index]) : "(end of output)"
  let plus = index < actualLines.count ? String(actualLines[index]) : "(end of output)"
  Issue.record(
    "\(context) differs at line \(index + 1):\n− \(minus)\n+ \(plus)",
    sourceLocation: sourceLocation)
}
