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

  @Test func kafkaMessagesHoldTheRaspLineAsTheirPayloadString() throws {
    let converted = Self.convert(Self.raspLines, to: .kcat)
    #expect(converted.count == Self.raspLines.count)
    let times = ISO8601DateFormatter()
    times.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for (index, (raspLine, line)) in zip(Self.raspLines, converted).enumerated() {
      let event = try Self.object(raspLine)
      let message = try Self.object(line)
      #expect(
        message.keys.sorted() == [
          "broker", "key", "offset", "partition", "payload", "topic", "ts", "tstype",
        ])
      #expect(message["topic"] as? String == "events")
      #expect(message["partition"] as? Int == 0)
      #expect(message["offset"] as? Int == index)
      #expect(message["tstype"] as? String == "create")
      #expect(message["broker"] as? Int == 1)
      #expect(message["key"] as? String == event["source"] as? String)
      let time = try #require(event["ts"] as? String)
      let date = try #require(times.date(from: time))
      #expect(message["ts"] as? Int64 == Int64((date.timeIntervalSince1970 * 1000).rounded()))
      let payload = try #require(message["payload"] as? String)
      #expect(Array(payload.utf8) == raspLine)
    }
  }

  @Test func kafkaPayloadsEscapeWhatAJSONStringMust() throws {
    let line =
      #"{"ts":"2000-02-29T23:59:59.999Z","source":"ui","type":"data.note","payload":"#
      + "{\"text\":\"a\\\"b\\\\c\\n\u{1}\u{1F}\t\u{8}\u{C}\r é\"}}"
    let converted = try #require(Self.convert([Array(line.utf8)], to: .kcat).first)
    let message = try Self.object(converted)
    #expect(message["payload"] as? String == line)
    #expect(message["ts"] as? Int64 == 951_868_799_999)
    #expect(
      String(decoding: converted, as: UTF8.self).hasSuffix(
        #"{\"text\":\"a\\\"b\\\\c\\n\u0001\u001f\t\b\f\r é\"}}"}"#))
  }

  @Test(arguments: [
    "2026-11-22T09:30:00Z", "2026-11-22T09:30:00.05Z", "2026-11-22 09:30:00.005Z",
    "2026-02-29T09:30:00.005Z", "2026-11-22T24:00:00.000Z", "2026-11-22T09:30:00.005+01:00",
  ])
  func kafkaMessagesRefuseATimeTheGeneratorDoesNotWrite(time: String) {
    var converter = BenchLogConverter(format: .kcat)
    var bytes: [UInt8] = []
    let line = Array(#"{"ts":"\#(time)","source":"ui","type":"nav.pop"}"#.utf8)
    #expect(!line.withUnsafeBufferPointer { converter.append($0, to: &bytes) })
    #expect(bytes.isEmpty)
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
    #expect(
      Self.convert(lines, to: .kcat).map { String(decoding: $0, as: UTF8.self) } == [
        #"{"topic":"events","partition":0,"offset":0,"tstype":"create","ts":1795339800005,"#
          + #""broker":1,"key":"ui","payload":"{\"ts\":\"2026-11-22T09:30:00.005Z\","#
          + #"\"source\":\"ui\",\"type\":\"nav.push\",\"payload\":{\"screen\":\"orders\"}}"}"#,
        #"{"topic":"events","partition":0,"offset":1,"tstype":"create","ts":1795339800114,"#
          + #""broker":1,"key":"compass","payload":"{\"ts\":\"2026-11-22T09:30:00.114Z\","#
          + #"\"source\":\"compass\",\"type\":\"geo.heading\","#
          + #"\"payload\":{\"heading\":139.9}}"}"#,
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
