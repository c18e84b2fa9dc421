import Foundation
import Rasp
import RaspDomains
import Testing

@testable import RaspRecording

@Suite struct RaspRecorderPartsTests {
  /// Records the same events with `configuration`, and returns the recorder's summary.
  private func record(
    _ events: [TallyState.Event], to path: String, maxPartBytes: Int?
  ) throws -> RaspRecorderSummary {
    let recorder = try RaspRecorder(
      path: path,
      configuration: RaspRecorderConfiguration(
        clock: steppingClock(), maxPartBytes: maxPartBytes, goldenDomains: []))
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    for event in events { aggregator.send(event) }
    return recorder.finish()
  }

  private let events: [TallyState.Event] = (0..<60).map { index in
    index % 3 == 0 ? .note(String(repeating: "n", count: index)) : .add(index)
  }

  @Test func namesPartsBeforeTheExtension() {
    #expect(RecorderFile.partPath("session.jsonl", index: 0) == "session.jsonl")
    #expect(RecorderFile.partPath("logs/session.jsonl", index: 2) == "logs/session.2.jsonl")
    #expect(RecorderFile.partPath("logs.d/session", index: 1) == "logs.d/session.1")
    #expect(RecorderFile.partPath("logs/.session", index: 3) == "logs/.session.3")
  }

  @Test func goesOnInNewPartsOfWholeLinesThatReplayAsOneLog() throws {
    let scratch = ScratchDirectory()
    let whole = try record(events, to: scratch.file("whole.jsonl"), maxPartBytes: nil)
    let parted = try record(events, to: scratch.file("session.jsonl"), maxPartBytes: 300)
    #expect(parted.partPaths.count > 5)
    #expect(
      parted.partPaths
        == (0..<parted.partPaths.count).map {
          scratch.file($0 == 0 ? "session.jsonl" : "session.\($0).jsonl")
        })
    var joined = Data()
    for path in parted.partPaths {
      let part = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(part.count <= 300)
      #expect(part.last == 0x0A)
      joined += part
    }
    #expect(joined == (try Data(contentsOf: URL(fileURLWithPath: scratch.file("whole.jsonl")))))
    #expect(whole.recordedCount == parted.recordedCount)
    let domains: [any RaspDomain] = [TallyDomain()]
    let expected = runRasp(["replay", scratch.file("whole.jsonl")], domains: domains)
    let replayed = runRasp(["replay", "--concat"] + parted.partPaths, domains: domains)
    #expect(expected.status == 0)
    #expect(replayed.status == 0)
    #expect(replayed.output == expected.output)
    #expect(replayed.output.split(separator: "\n").count == events.count)
  }

  @Test func removesTheLaterPartsOfAPreviousRecording() throws {
    let scratch = ScratchDirectory()
    let first = try record(events, to: scratch.file("session.jsonl"), maxPartBytes: 300)
    let second = try record(
      Array(events.prefix(10)), to: scratch.file("session.jsonl"), maxPartBytes: 300)
    #expect(second.partPaths.count < first.partPaths.count)
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    #expect(left == second.partPaths.map { ($0 as NSString).lastPathComponent }.sorted())
  }

  @Test func removesEveryEarlierPartButNothingElse() throws {
    let scratch = ScratchDirectory()
    let left = ["session.1.jsonl", "session.3.jsonl", "session.12.jsonl"]
    let kept = ["session.x.jsonl", "session.01.jsonl", "other.1.jsonl", "session.jsonl.1"]
    for name in left + kept {
      _ = FileManager.default.createFile(atPath: scratch.file(name), contents: Data("x\n".utf8))
    }
    // A recording without parts removes them too: they are not its own.
    _ = try record(Array(events.prefix(3)), to: scratch.file("session.jsonl"), maxPartBytes: nil)
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    #expect(names == (kept + ["session.jsonl"]).sorted())
    #expect(RecorderFile.partNumber(of: "logs/s.12.jsonl", base: "logs/s.jsonl") == 12)
    #expect(RecorderFile.partNumber(of: "logs/s.jsonl", base: "logs/s.jsonl") == nil)
    #expect(RecorderFile.partNumber(of: "s.2", base: "s") == 2)
  }

  @Test func reportsAPartItCannotCreate() throws {
    let scratch = ScratchDirectory()
    let directory = scratch.file("logs")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let recorder = try RaspRecorder(
      path: directory + "/session.jsonl",
      configuration: RaspRecorderConfiguration(
        clock: steppingClock(), maxPartBytes: 100, goldenDomains: []))
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    aggregator.send(.add(1))
    recorder.flush()
    try FileManager.default.removeItem(atPath: directory)
    aggregator.send(.add(2))
    aggregator.send(.add(3))
    recorder.flush()
    let summary = recorder.finish()
    #expect(summary.failure == .cannotCreate(path: directory + "/session.1.jsonl", code: ENOENT))
    #expect(
      summary.partPaths == [directory + "/session.jsonl"], "the part never made is not listed")
    #expect(aggregator.current.count == 6)
  }
}
