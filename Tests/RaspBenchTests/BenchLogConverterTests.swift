import Foundation
import Testing

@testable import rasp_bench

/// The converter's lines, read back with Foundation's JSONSerialization — a parser that shares
/// nothing with the converter or with rasp — hold the fields of the rasp lines they came from.
@Suite struct BenchLogConverterTests {
  /// Two thousand events of seed 7: every kind of event, with and without a payload.
  static let raspLines: [[UInt8]] = {
    var generator = BenchLogGenerator(seed: 7)
    return generator.makeLog(events: 2_000).split(separator: 0x0A).map(Array.init)
  }()

  static func convert(_ lines: [[UInt8]], to format: BenchLogFormat) -> [[UInt8]] {
    var converter = BenchLogConverter(format: format)
    var bytes: [UInt8] = []
    for line in lines {
      let converted = line.withUnsafeBufferPointer { converter.append($0, to: &bytes) }
      #expect(converted, "refused: \(String(decoding: line, as: UTF8.self))")
    }
    #expect(bytes.last == 0x0A)
    return bytes.split(separator: 0x0A).map(Array.init)
  }

  static func object(_ line: [UInt8]) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
  }

  /// A value as sorted JSON text, so that two parsed values compare by content.
  static func json(_ value: Any?) throws -> String? {
    guard let value else { return nil }
    let data = try JSONSerialization.data(
      withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func fsaActionsHoldTheTypeWithASlashThePayloadAndTheTime() throws {
    let converted = Self.convert(Self.raspLines, to: .fsa)
    #expect(converted.count == Self.raspLines.count)
    var withoutPayload = 0
    for (raspLine, line) in zip(Self.raspLines, converted) {
      let event = try Self.object(raspLine)
      let action = try Self.object(line)
      let type = try #require(event["type"] as? String)
      let dot = try #require(type.firstIndex(of: "."))
      #expect(action["type"] as? String == type[..<dot] + "/" + type[type.index(after: dot)...])
      #expect(try Self.json(action["payload"]) == Self.json(event["payload"]))
      let meta = try #require(action["meta"] as? [String: Any])
      #expect(meta.keys.sorted() == ["timestamp"])
      #expect(meta["timestamp"] as? String == event["ts"] as? String)
      let keys = event["payload"] == nil ? ["meta", "type"] : ["meta", "payload", "type"]
      #expect(action.keys.sorted() == keys)
      if event["payload"] == nil { withoutPayload += 1 }
    }
    #expect(withoutPayload > 0, "the sample has events without a payload")
  }

  @Test func cloudEventsHoldEveryFieldOfTheRaspLine() throws {
    let converted = Self.convert(Self.raspLines, to: .cloudevents)
    #expect(converted.count == Self.raspLines.count)
    for (index, (raspLine, line)) in zip(Self.raspLines, converted).enumerated() {
      let event = try Self.object(raspLine)
      let cloudEvent = try Self.object(line)
      #expect(cloudEvent["specversion"] as? String == "1.0")
      #expect(cloudEvent["id"] as? String == String(index + 1))
      #expect(cloudEvent["source"] as? String == event["source"] as? String)
      #expect(cloudEvent["type"] as? String == "com.example." + (event["type"] as? String ?? ""))
      #expect(cloudEvent["time"] as? String == event["ts"] as? String)
      #expect(try Self.json(cloudEvent["data"]) == Self.json(event["payload"]))
      var keys = ["id", "source", "specversion", "time", "type"]
      if event["payload"] != nil {
        #expect(cloudEvent["datacontenttype"] as? String == "application/json")
        keys += ["data", "datacontenttype"]
      }
      #expect(cloudEvent.keys.sorted() == keys.sorted())
    }
  }

  @Test func raspFormatCopiesTheLinesAsTheyAre() {
    var generator = BenchLogGenerator(seed: 7)
    let log = generator.makeLog(events: 500)
    let converted = Self.convert(log.split(separator: 0x0A).map(Array.init), to: .rasp)
    #expect(converted.flatMap { $0 + [0x0A] } == log)
  }

  @Test func firstLinesOfSeedSevenAreFixed() {
    let lines = Array(Self.raspLines.prefix(2))
    #expect(
      Self.convert(lines, to: .fsa).map { String(decoding: $0, as: UTF8.self) } == [
        #"{"type":"nav/push","payload":{"screen":"orders"},"#
          + #""meta":{"timestamp":"2026-11-22T09:30:00.005Z"}}"#,
        #"{"type":"geo/heading","payload":{"heading":139.9},"#
          + #""meta":{"timestamp":"2026-11-22T09:30:00.114Z"}}"#,
      ])
    #expect(
      Self.convert(lines, to: .cloudevents).map { String(decoding: $0, as: UTF8.self) } == [
        #"{"specversion":"1.0","id":"1","source":"ui","type":"com.example.nav.push","#
          + #""time":"2026-11-22T09:30:00.005Z","datacontenttype":"application/json","#
          + #""data":{"screen":"orders"}}"#,
        #"{"specversion":"1.0","id":"2","source":"compass","type":"com.example.geo.heading","#
          + #""time":"2026-11-22T09:30:00.114Z","datacontenttype":"application/json","#
          + #""data":{"heading":139.9}}"#,
      ])
  }

  @Test(arguments: [
    "",
    #"{"source":"ui","ts":"2026-11-22T09:30:00.005Z","type":"nav.pop"}"#,
    #"{"ts": "2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop"}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"u\"i","type":"nav.pop"}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"navpop"}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":".pop"}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop","seq":1}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop","payload":}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop""#,
  ])
  func refusesLinesInAnotherLayout(line: String) {
    for format in BenchLogFormat.allCases {
      var converter = BenchLogConverter(format: format)
      var bytes: [UInt8] = [0x2A]
      let converted = Array(line.utf8).withUnsafeBufferPointer { converter.append($0, to: &bytes) }
      #expect(!converted)
      #expect(bytes == [0x2A])
    }
  }
}
