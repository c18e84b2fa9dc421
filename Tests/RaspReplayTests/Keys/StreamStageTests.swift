import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The key stage's two kinds (``StreamStage``): each event of a keyed replay goes to its key's
/// stream, also when it is passed over or read again, on one kernel or a pool's; without keys,
/// every event goes to the one stream. Checked against a model of the log written here: each
/// key's tab, and the counts the summary must give.
@Suite struct StreamStageTests {
  /// A log of `count` lines: tabs selected and headings, from three sources or none; every
  /// eleventh line has its `source` after the payload, which the quick reader does not read
  /// (the line is read again, carefully, for its key).
  private static func log(count: Int) -> [String] {
    (0..<count).map { index in
      let source = index % 4 == 3 ? nil : "s\(index % 3)"
      let type = index % 3 == 1 ? "nav.selectTab" : "geo.heading"
      let payload =
        type == "geo.heading" ? #"{"heading":\#(index % 360)}"# : #"{"tab":"t\#(index % 5)"}"#
      let sourceMember = source.map { #""source":"\#($0)","# } ?? ""
      if let source, index % 11 == 0 {
        return #"{"type":"\#(type)","payload":\#(payload),"source":"\#(source)"}"#
      }
      return #"{\#(sourceMember)"type":"\#(type)","payload":\#(payload)}"#
    }
  }

  /// The records `--select nav.tab` must give, by the model: the tab of each line's key (its
  /// `source`, or `null`) after the line, or of the one stream without keys, when it changed.
  private static func expectedRecords(of lines: [String], keyed: Bool) throws -> [String] {
    var tabs: [String: String] = [:]
    var emitted: [String: String] = [:]
    var records: [String] = []
    for line in lines {
      let node = try JSONParser.parse(Array(line.utf8))
      let source = string(node["source"])
      let key = keyed ? (source.map { #""\#($0)""# } ?? "null") : ""
      if string(node["type"]) == "nav.selectTab", let tab = string(node["payload"]?["tab"]) {
        tabs[key] = tab
      }
      // A selector emits when its value changes, and first at its stream's first event.
      let value = tabs[key].map { #""\#($0)""# } ?? "null"
      guard emitted[key] != value else { continue }
      emitted[key] = value
      records.append(keyed ? #"{"key":\#(key),"value":\#(value)}"# : value)
    }
    return records
  }

  private static func string(_ value: JSONValue?) -> String? {
    guard case .string(let text)? = value else { return nil }
    return text
  }

  /// The records and the summary's counts of a replay of `lines`.
  private func replay(
    _ lines: [String], keyed: Bool, selecting: String?, jobs: Int
  ) throws -> (records: [String], statistics: ReplayStatistics) {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.keyPath = keyed ? try JSONPath("source") : nil
    configuration.selection = try selecting.map { try JSONPath($0) }
    configuration.jobs = jobs
    var replay = Replay(memory: lines.joined(separator: "\n"), configuration: configuration)
    var records: [String] = []
    var statistics: ReplayStatistics?
    replay.forEachOutcome { outcome, bytes in
      switch outcome {
      case .record: records.append(String(decoding: bytes ?? [], as: UTF8.self))
      case .end(let summary): statistics = summary.statistics
      default: Issue.record("unexpected outcome \(outcome)")
      }
    }
    return (records, try #require(statistics))
  }

  @Test(arguments: [1, 2])
  func eachEventPassedOverOrReadAgainGoesToItsKeysStream(jobs: Int) throws {
    let lines = Self.log(count: 600)
    let withoutKey = (0..<600).filter { $0 % 4 == 3 }.count
    let headings = (0..<600).filter { $0 % 3 != 1 }.count
    // Geo's events are passed over: `--select nav.tab` cannot show them.
    let selected = try replay(lines, keyed: true, selecting: "nav.tab", jobs: jobs)
    #expect(selected.records == (try Self.expectedRecords(of: lines, keyed: true)))
    #expect(selected.statistics.applied == 600)
    #expect(selected.statistics.passedOver == headings)
    #expect(selected.statistics.withoutKey == withoutKey)
    #expect(selected.statistics.keys == 4)
    // Every event applied, none passed over: the same keys, the same events without one.
    let whole = try replay(lines, keyed: true, selecting: nil, jobs: jobs)
    #expect(whole.records.count == 600)
    #expect(selected.records.count < 600, "the selector emits only changes")
    #expect(whole.statistics.passedOver == 0)
    #expect(whole.statistics.withoutKey == withoutKey)
    #expect(whole.statistics.keys == 4)
  }

  @Test func withoutKeysEveryEventGoesToTheOneStream() throws {
    let lines = Self.log(count: 600)
    let selected = try replay(lines, keyed: false, selecting: "nav.tab", jobs: 1)
    #expect(selected.records == (try Self.expectedRecords(of: lines, keyed: false)))
    #expect(selected.statistics.applied == 600)
    #expect(selected.statistics.withoutKey == 0)
    #expect(selected.statistics.keys == 0)
  }
}
