import RaspCLI
import RaspJSON
import Testing

@testable import rasp_bench

@Suite struct GenerateCommandTests {
  func generated(events: Int, seed: UInt64, format: BenchLogFormat) -> (log: [UInt8], blocks: Int) {
    var log: [UInt8] = []
    var blocks = 0
    let finished = GenerateCommand.generate(events: events, seed: seed, format: format) {
      log += $0
      blocks += 1
      return true
    }
    #expect(finished)
    return (log, blocks)
  }

  @Test func raspFormatWritesTheGeneratorsBytesInBlocks() {
    var generator = BenchLogGenerator(seed: 7)
    let (log, blocks) = generated(events: 5_000, seed: 7, format: .rasp)
    #expect(log == generator.makeLog(events: 5_000))
    #expect(blocks == log.count / (1 << 18) + 1)
  }

  @Test(arguments: BenchLogFormat.others)
  func otherFormatsWriteTheConvertersLines(format: BenchLogFormat) {
    var generator = BenchLogGenerator(seed: 3)
    var converter = BenchLogConverter(format: format)
    var expected: [UInt8] = []
    for line in generator.makeLog(events: 3_000).split(separator: 0x0A) {
      Array(line).withUnsafeBufferPointer { _ = converter.append($0, to: &expected) }
    }
    #expect(generated(events: 3_000, seed: 3, format: format).log == expected)
  }

  @Test func keyedLogsAreEachDevicesOwnLogInterleaved() throws {
    var log: [UInt8] = []
    #expect(
      GenerateCommand.generateKeyed(events: 20_000, keys: 50, seed: 9) {
        log += $0; return true
      })
    let lines = log.split(separator: 0x0A)
    #expect(lines.count == 20_000)
    // Each line starts with its device; every device of the fifty has events.
    var devices: Set<String> = []
    for line in lines {
      let text = String(decoding: line, as: UTF8.self)
      guard text.hasPrefix(#"{"device":"d"#), let end = text.firstIndex(of: ",") else {
        Issue.record("no device first: \(text)")
        return
      }
      devices.insert(String(text[..<end]))
    }
    #expect(devices.count == 50)
    // Keyed by device, no event is refused: each device's navigation is its own.
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(log)), standardOutput: output, standardError: errors)
    let status = RaspCommandLine.run(
      arguments: ["replay", "--key-by", "device", "--final", "--strict", "--stats"],
      environment: environment)
    #expect(status == 0)
    #expect(
      errors.text
        == "rasp: 20000 lines read: 20000 applied to 50 keys, 0 skipped, 0 ignored, 0 blank\n")
    #expect(output.text.split(separator: "\n").count == 50)
  }

  @Test func stopsWhenTheWriterDoes() {
    var calls = 0
    let finished = GenerateCommand.generate(events: 10_000, seed: 1, format: .cloudevents) { _ in
      calls += 1
      return false
    }
    #expect(!finished)
    #expect(calls == 1)
  }

  @Test(arguments: [
    ["--events", "10", "--format", "xml"], ["--events", "10", "--format"], ["--format", "fsa"],
  ])
  func refusesAnUnknownOrMissingFormatOrCount(arguments: [String]) {
    #expect(GenerateCommand.main(arguments: arguments) == 64)
  }
}
