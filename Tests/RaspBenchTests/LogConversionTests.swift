import Foundation
import Testing

@testable import rasp_bench

@Suite struct LogConversionTests {
  func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-bench-\(getpid())-\(UUID().uuidString)-\(name)").path
  }

  @Test(arguments: BenchLogFormat.others)
  func writesWhatGenerateWritesInTheFormat(format: BenchLogFormat) throws {
    var raspLog: [UInt8] = []
    GenerateCommand.generate(events: 30_000, seed: 5, format: .rasp) {
      raspLog += $0
      return true
    }
    var expected: [UInt8] = []
    GenerateCommand.generate(events: 30_000, seed: 5, format: format) {
      expected += $0
      return true
    }
    let input = temporaryPath("events.jsonl")
    let output = temporaryPath("events-\(format.rawValue).jsonl")
    defer {
      try? FileManager.default.removeItem(atPath: input)
      try? FileManager.default.removeItem(atPath: output)
    }
    try Data(raspLog).write(to: URL(fileURLWithPath: input))
    let converted = try LogConversion.convert(input, to: output, format: format)
    #expect(converted.events == 30_000)
    #expect(converted.bytes == expected.count)
    #expect(FileBytes.contents(of: output) == expected)
  }

  @Test func namesALineInAnotherLayout() throws {
    let input = temporaryPath("events.jsonl")
    let output = temporaryPath("events-fsa.jsonl")
    defer {
      try? FileManager.default.removeItem(atPath: input)
      try? FileManager.default.removeItem(atPath: output)
    }
    let log = """
      {"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop"}
      {"type":"nav.pop"}

      """
    try Data(log.utf8).write(to: URL(fileURLWithPath: input))
    #expect(throws: BenchError.self) {
      try LogConversion.convert(input, to: output, format: .fsa)
    }
    do {
      _ = try LogConversion.convert(input, to: output, format: .fsa)
    } catch {
      #expect(
        error.description
          == "\(input):2: not a line as 'rasp-bench generate' writes it: '{\"type\":\"nav.pop\"}'")
    }
  }

  @Test func refusesAMissingLog() {
    #expect(throws: BenchError.self) {
      try LogConversion.convert(temporaryPath("absent"), to: temporaryPath("out"), format: .fsa)
    }
  }
}
