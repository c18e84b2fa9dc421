import Foundation
import RaspCLI
import RaspJSON
import Testing

@testable import rasp_bench

private let installedJQ: String? = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The jq programs of `fixtures/bench` print what `rasp replay` prints, on a short generated
/// log, compared line by line as parsed JSON — the check `make bench` makes on a sample of a
/// million events, here on every line of a few thousand.
@Suite(.enabled(if: installedJQ != nil, "jq is not installed"))
struct JQProgramsTests {

  static let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
  }()

  static let log: [UInt8] = {
    var generator = BenchLogGenerator(seed: 11)
    return generator.makeLog(events: 3_000)
  }()

  @Test(arguments: [
    (["replay"], "foreach.jq"),
    (["replay", "--final"], "reduce.jq"),
    (["replay", "--select", BenchCase.selectedPath], "select.jq"),
  ])
  func jqProgramPrintsWhatRaspPrints(rasp arguments: [String], program: String) throws {
    let expected = try lines(jqOutput(program))
    let actual = lines(raspOutput(arguments))
    #expect(actual.count == expected.count)
    for (index, (line, other)) in zip(actual, expected).enumerated() {
      let value = try JSONParser.parse(line)
      let otherValue = try JSONParser.parse(other)
      guard value == otherValue else {
        Issue.record("line \(index + 1):\n  − jq   \(other)\n  + rasp \(line)")
        return
      }
    }
  }

  func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  func raspOutput(_ arguments: [String]) -> String {
    let output = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(Self.log)), standardOutput: output,
      standardError: RaspMemoryOutput())
    #expect(RaspCommandLine.run(arguments: arguments, environment: environment) == 0)
    return output.text
  }

  func jqOutput(_ program: String) throws -> String {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-bench-\(getpid())-\(program).jsonl")
    try Data(Self.log).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: installedJQ!)
    process.arguments = ["-nc", "-f", Self.root + "/fixtures/bench/" + program, file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }
}
