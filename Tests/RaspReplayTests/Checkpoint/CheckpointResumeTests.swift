import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Checkpoints along a replay (``ReplayConfiguration/checkpointInterval``), each resumed with
/// the rest of its logs: what the resumed replay yields is what the full replay yields after
/// the checkpoint's records, whatever the interval, the logs and the options.
@Suite struct CheckpointResumeTests {
  /// A case: its logs (fixture paths), its format, and options.
  struct Case: Sendable, CustomStringConvertible {
    let logs: [String]
    var format = "rasp"
    var keyBy: String?
    var select: String?
    var isFinal = false
    var concatenates = false
    var description: String { "\(logs) \(format) \(keyBy ?? "") \(select ?? "") \(isFinal)" }
  }

  static let cases = [
    Case(logs: ["example/events.jsonl"]),
    Case(logs: ["example/events.jsonl"], select: "nav.stack"),
    Case(logs: ["session-mixed/events.jsonl"], isFinal: true),
    Case(logs: ["replay-key-by/events.jsonl"], keyBy: "payload.deviceId", select: "geo.heading"),
    Case(logs: ["replay-merge/phone.jsonl", "replay-merge/watch.jsonl"]),
    Case(logs: ["replay-merge/phone.jsonl", "replay-merge/watch.jsonl"], concatenates: true),
    Case(logs: ["format-cloudevents-batch/events.jsonl"], format: "cloudevents"),
  ]

  static func text(_ fixture: String) throws -> [UInt8] {
    Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("fixtures/" + fixture)))
  }

  /// The bytes of a log after its first `lines` lines.
  static func rest(_ bytes: [UInt8], after lines: Int) -> [UInt8] {
    Array(bytes[offset(of: bytes, after: lines)...])
  }

  /// The offset of the byte after a log's first `lines` lines, counted by their line ends;
  /// the log's end when it has no more (its last line without a line end).
  static func offset(of bytes: [UInt8], after lines: Int) -> Int {
    var count = 0
    var index = 0
    while count < lines, index < bytes.count {
      if bytes[index] == 0x0A { count += 1 }
      index += 1
    }
    return index
  }

  static func configuration(_ test: Case) throws -> ReplayConfiguration {
    var configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
    configuration.format = try #require(LogFormat.preset(named: test.format))
    configuration.keyPath = try test.keyBy.map { try JSONPath($0) }
    configuration.selection = try test.select.map { try JSONPath($0) }
    configuration.isFinal = test.isFinal
    configuration.concatenatesInputs = test.concatenates
    configuration.includesEvent = true
    configuration.errorMode = .skip
    return configuration
  }

  /// What a replay yields: its records, and the checkpoints among them.
  static func run(_ replay: inout Replay) -> (records: [String], checkpoints: [ReplayCheckpoint]) {
    var output: [UInt8] = []
    var records: [String] = []
    var checkpoints: [ReplayCheckpoint] = []
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record(let record):
        records.append(String(decoding: output[record.range], as: UTF8.self))
      case .skipped(let diagnostic):
        records.append("skipped \(diagnostic.inputName):\(diagnostic.line)")
      case .checkpoint(let checkpoint):
        checkpoints.append(checkpoint)
      default:
        break
      }
    }
    return (records, checkpoints)
  }

  @Test(arguments: cases, [1, 2, 3, 7])
  func everyCheckpointResumedYieldsTheRestOfTheFullReplay(_ test: Case, interval: Int) throws {
    let logs = try test.logs.map(Self.text)
    var configuration = try Self.configuration(test)
    var plain = Replay(
      configuration: configuration,
      inputs: zip(test.logs, logs).map {
        ReplayInput(name: $0, source: .memory(JSONMemorySource($1, chunkSize: 13)))
      })
    let full = Self.run(&plain).records
    configuration.checkpointInterval = interval
    configuration.checkpointsAtEnd = true
    var checkpointed = Replay(
      configuration: configuration,
      inputs: zip(test.logs, logs).map {
        ReplayInput(name: $0, source: .memory(JSONMemorySource($1)))
      })
    let (records, checkpoints) = Self.run(&checkpointed)
    #expect(records == full)
    #expect(checkpoints.count >= 1)
    var previous = 0
    for checkpoint in checkpoints {
      #expect(checkpoint.events >= previous)
      previous = checkpoint.events
      #expect(
        checkpoint.offsets
          == zip(logs, checkpoint.lines).map { Self.offset(of: $0, after: $1) })
      let rest = zip(test.logs, logs).enumerated().map { index, log in
        ReplayInput(
          name: log.0,
          source: .memory(JSONMemorySource(Array(log.1[checkpoint.offsets[index]...]))))
      }
      var resumed = try Replay(
        configuration: configuration, inputs: rest, resumingFrom: checkpoint)
      let after = Self.run(&resumed).records
      #expect(
        Array(full.prefix(checkpoint.records)) + after == full,
        "resumed at \(checkpoint.lines), event \(checkpoint.events)")
    }
  }

  /// Logs whose line ends are not all one byte after each line: a byte order mark, CRLF line
  /// ends, blank lines, a bad line, a last line without a line end.
  static let oddLogs: [(name: String, bytes: [UInt8])] = [
    (
      "bom-crlf",
      [0xEF, 0xBB, 0xBF]
        + Array(
          (#"{"type":"nav.push","payload":{"screen":"a"}}\#r\#n"#
            + "\r\n  \r\n"
            + #"{"type":"geo.heading","ts":"2026-11-22T09:30:00Z","payload":{"degrees":3}}\#r\#n"#
            + #"{"type":"nav.push","payload":{"screen":"b"}}\#n"#).utf8)
    ),
    (
      "bad-and-unfinished",
      Array(
        (#"{"type":"nav.push","payload":{"screen":"a"}}\#n"# + "{not json\n\n"
          + #"{"type":"geo.heading","payload":{"degrees":3}}\#n"#
          + #"{"type":"nav.push","payload":{"screen":"b"}}"#).utf8)
    ),
  ]

  @Test(arguments: [0, 1], [1, 2])
  func aCheckpointsOffsetsAreTheBytesAfterItsLinesLineEndsIncluded(log: Int, interval: Int)
    throws
  {
    let (name, bytes) = Self.oddLogs[log]
    var configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
    configuration.errorMode = .skip
    configuration.checkpointInterval = interval
    configuration.checkpointsAtEnd = true
    var replay = Replay(
      configuration: configuration,
      inputs: [ReplayInput(name: name, source: .memory(JSONMemorySource(bytes, chunkSize: 7)))])
    let checkpoints = Self.run(&replay).checkpoints
    #expect(checkpoints.count >= 2)
    for checkpoint in checkpoints {
      #expect(
        checkpoint.offsets == [Self.offset(of: bytes, after: checkpoint.lines[0])],
        "\(name) after line \(checkpoint.lines[0])")
    }
    #expect(checkpoints.last?.offsets == [bytes.count])
  }

  @Test func aCheckpointWhoseOffsetIsNotKnownIsRefused() throws {
    let configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
    let empty = try Self.checkpoint(of: [], configuration)
    var unknown = empty
    unknown.offsets = [-1]
    let input = ReplayInput(name: "events.jsonl", source: .memory(JSONMemorySource([])))
    #expect(throws: ReplayCheckpointError.self) {
      _ = try Replay(configuration: configuration, inputs: [input], resumingFrom: unknown)
    }
    #expect(throws: Never.self) {
      _ = try Replay(configuration: configuration, inputs: [input], resumingFrom: empty)
    }
  }

  /// The checkpoint at the end of a replay of `bytes`.
  static func checkpoint(of bytes: [UInt8], _ configuration: ReplayConfiguration) throws
    -> ReplayCheckpoint
  {
    var configuration = configuration
    configuration.checkpointsAtEnd = true
    var replay = Replay(
      configuration: configuration,
      inputs: [ReplayInput(name: "events.jsonl", source: .memory(JSONMemorySource(bytes)))])
    return try #require(Self.run(&replay).checkpoints.last)
  }
}
