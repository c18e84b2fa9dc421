import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// What the kernel writes for each event (``EventRecord``), by the options of `rasp replay`;
/// and the counts `--final` keeps for events it writes nothing for.
@Suite struct EventRecordTests {
  /// The kind for a configuration `configure` makes, `hides` standing for a `--hide` that
  /// matches some type and `ranged` for `--since`, `--until` or `--at`.
  private func kind(
    hides: Bool = false, ranged: Bool = false,
    _ configure: (inout ReplayConfiguration) throws -> Void = { _ in }
  ) throws -> EventRecord {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    try configure(&configuration)
    let snapshot = SnapshotState(domains: [GeoDomain(), NavDomain()])
    let selection = ReplaySelection(configuration.selection, snapshot: snapshot)
    return EventRecord(
      configuration, hidesTypes: hides, hasRange: ranged, selection: selection)
  }

  @Test func everySnapshotIsTheSnapshotAlone() throws {
    #expect(try kind() == .snapshot)
    // `--until` alone stops the replay; each record is still the snapshot.
    #expect(try kind(ranged: true) == .snapshot)
  }

  @Test func finalWritesNothingPerEventUnlessSomethingIsNoted() throws {
    #expect(try kind { $0.isFinal = true } == .none)
    #expect(
      try kind {
        $0.isFinal = true; $0.keyPath = try JSONPath("source")
      } == .none)
    #expect(
      try kind {
        $0.isFinal = true; $0.selection = try JSONPath("nav.tab")
      } == .none)
    // The counts of events hidden or before `--since`, and the event kept for its record.
    #expect(try kind(hides: true) { $0.isFinal = true } == .written)
    #expect(try kind(ranged: true) { $0.isFinal = true } == .written)
    #expect(
      try kind {
        $0.isFinal = true; $0.includesEvent = true
      } == .written)
    #expect(
      try kind {
        $0.isFinal = true; $0.selection = try JSONPath("event.type")
      } == .written)
  }

  @Test func everyOtherRecordIsTheRecordStages() throws {
    #expect(try kind { $0.selection = try JSONPath("nav.tab") } == .written)
    #expect(try kind { $0.emit = .diff } == .written)
    #expect(try kind { $0.includesEvent = true } == .written)
    #expect(try kind { $0.keyPath = try JSONPath("source") } == .written)
    #expect(try kind(hides: true) == .written)
  }

  @Test func finalStillCountsWhatItHidesAndWhatIsBeforeSince() throws {
    let log = (0..<6).map { index in
      let type = index % 2 == 0 ? "geo.heading" : "nav.selectTab"
      let payload = index % 2 == 0 ? #"{"heading":\#(index)}"# : #"{"tab":"t\#(index)"}"#
      let ts = "2026-11-22T09:30:0\(index)Z"
      return #"{"ts":"\#(ts)","type":"\#(type)","payload":\#(payload)}"#
    }.joined(separator: "\n")
    func statistics(_ configure: (inout ReplayConfiguration) throws -> Void) throws
      -> ReplayStatistics
    {
      var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
      configuration.isFinal = true
      try configure(&configuration)
      var replay = Replay(memory: log, configuration: configuration)
      var statistics: ReplayStatistics?
      replay.forEachOutcome { outcome, _ in
        if case .end(let summary) = outcome { statistics = summary.statistics }
      }
      return try #require(statistics)
    }
    #expect(try statistics { $0.hiddenTypes = ["geo.*"] }.hidden == 3)
    let since = try ReplayPosition("2026-11-22T09:30:02Z", inputNames: ["log"])
    #expect(try statistics { $0.since = since }.beforeSince == 2)
    #expect(try statistics { _ in }.applied == 6)
  }
}
