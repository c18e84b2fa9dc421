import Foundation
import RaspCLI
import RaspJSON
import Testing

@testable import rasp_bench

/// The rewrite programs of `fixtures/bench` (`fsa-to-rasp.jq`, `cloudevents-to-rasp.jq`,
/// `kcat-to-rasp.jq`) turn a converted log back into the rasp lines it came from, and what they
/// print replays to the same bytes — the check `rasp-bench formats` makes on a million events,
/// here on a few thousand.
@Suite(.enabled(if: JQ.path != nil, "jq is not installed"))
struct RewriteProgramsTests {
  static let log = JQ.log

  static func converted(_ format: BenchLogFormat) -> [UInt8] {
    var converter = BenchLogConverter(format: format)
    var bytes: [UInt8] = []
    for line in log.split(separator: 0x0A) {
      Array(line).withUnsafeBufferPointer { _ = converter.append($0, to: &bytes) }
    }
    return bytes
  }

  static func rewritten(_ format: BenchLogFormat) async throws -> String {
    let (output, status) = try await JQ.run(
      format.rewriteProgram, options: ["-c"], log: converted(format))
    #expect(status == 0)
    return output
  }

  /// A line parsed by Foundation, less the keys `dropping`, as sorted JSON text.
  static func canonical(_ line: some StringProtocol, dropping keys: [String] = []) throws -> String
  {
    var object = try #require(
      JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    for key in keys { object[key] = nil }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test(arguments: BenchLogFormat.others)
  func rewritesEachLineIntoTheRaspLineItCameFrom(format: BenchLogFormat) async throws {
    let expected = String(decoding: Self.log, as: UTF8.self).split(separator: "\n")
    let actual = try await Self.rewritten(format).split(separator: "\n")
    #expect(actual.count == expected.count)
    // A Flux Standard Action has no source, so its rewrite has none.
    let dropped = format == .fsa ? ["source"] : []
    for (index, (line, original)) in zip(actual, expected).enumerated() {
      let value = try Self.canonical(line)
      let originalValue = try Self.canonical(original, dropping: dropped)
      guard value == originalValue else {
        Issue.record("line \(index + 1):\n  - \(originalValue)\n  + \(value)")
        return
      }
    }
  }

  @Test(arguments: BenchLogFormat.others)
  func rewriteAndLogFormatReplayToTheOwnFormatsBytes(format: BenchLogFormat) async throws {
    let own = replay(["replay"], Self.log)
    #expect(own.split(separator: "\n").count == 3_000)
    let rewritten = try await Self.rewritten(format)
    #expect(replay(["replay"], Array(rewritten.utf8)) == own)
    #expect(replay(["replay", "--log-format", format.rawValue], Self.converted(format)) == own)
  }

  @Test func kcatRewritePrintsTheOriginalLinesByteForByte() async throws {
    #expect(Array(try await Self.rewritten(.kcat).utf8) == Self.log)
  }

  @Test func leavesOutReduxsOwnActions() async throws {
    let log = """
      {"type":"@@INIT"}
      {"type":"@@redux/INITi.8.b.3"}
      {"type":"nav/pop","meta":{"time":"2026-11-22T09:30:00.005Z"}}

      """
    let (output, status) = try await JQ.run("fsa-to-rasp.jq", options: ["-c"], log: Array(log.utf8))
    #expect(status == 0)
    #expect(
      try Self.canonical(output.dropLast())
        == #"{"ts":"2026-11-22T09:30:00.005Z","type":"nav.pop"}"#)
  }

  func replay(_ arguments: [String], _ log: [UInt8]) -> String {
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(log)), standardOutput: output,
      standardError: errors)
    #expect(RaspCommandLine.run(arguments: arguments, environment: environment) == 0)
    #expect(errors.text == "")
    return output.text
  }
}
