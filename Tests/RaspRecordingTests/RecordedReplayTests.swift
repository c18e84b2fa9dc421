import Foundation
import Rasp
import RaspDomains
import RaspJSON
import RaspRecording
import RaspTestSupport
import Testing

/// The replay agrees with the app: random events go through an aggregator with a recorder, the
/// snapshots the aggregator emits are collected, and `rasp replay` (in-process) of the recorded
/// log prints exactly those snapshots, byte for byte; the golden file written beside the log
/// holds the same, and `rasp check --golden` passes on the first run.
@Suite struct RecordedReplayTests {
  static let eventsPerDomain = 600

  /// Records `events` sent to an aggregator of `domain`, and checks the replay against the
  /// snapshots it emitted.
  private func expectReplayAgrees<Domain: RaspRecordableDomain>(
    _ domain: Domain, _ events: [Domain.State.Event]
  ) throws where Domain.State: Sendable, Domain.State.Event: Sendable {
    let scratch = ScratchDirectory()
    let recorder = try RaspRecorder(
      path: scratch.file("session.jsonl"),
      configuration: RaspRecorderConfiguration(
        clock: steppingClock(), goldenPath: scratch.file("golden.jsonl"),
        goldenDomains: [domain]))
    let aggregator = RaspAggregator(initial: domain.initialState)
    let emitted = Emitted()
    let subscription = aggregator.subscribe { emitted.add(snapshot($0, of: domain)) }
    try recorder.record(aggregator, as: domain)
    for event in events { aggregator.send(event) }
    let summary = recorder.finish()
    subscription.cancel()
    let snapshots = Array(emitted.lines.dropFirst())  // the first is the initial state
    #expect(summary.recordedCount == snapshots.count, "every emitted snapshot was recorded")
    #expect(summary.droppedCount == 0)
    #expect(snapshots.count > events.count / 2, "most events apply")
    let replay = runRasp(["replay", "--domain", domain.name, scratch.file("session.jsonl")])
    #expect(replay.status == 0, "\(replay.errors)")
    let replayed = replay.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(Array(replayed.dropLast()) == snapshots[...].map { Substring($0) })
    #expect(scratch.lines(of: "golden.jsonl") == snapshots)
    let check = runRasp([
      "check", "--domain", domain.name, "--golden", scratch.file("golden.jsonl"),
      scratch.file("session.jsonl"),
    ])
    #expect(check.status == 0, "\(check.errors)")
  }

  @Test func geo() throws {
    var random = RandomEvents(seed: 1)
    try expectReplayAgrees(GeoDomain(), (0..<Self.eventsPerDomain).map { _ in random.geo() })
  }

  @Test func nav() throws {
    var random = RandomEvents(seed: 2)
    try expectReplayAgrees(NavDomain(), (0..<Self.eventsPerDomain).map { _ in random.nav() })
  }

  @Test func lifecycle() throws {
    var random = RandomEvents(seed: 3)
    try expectReplayAgrees(
      LifecycleDomain(), (0..<Self.eventsPerDomain).map { _ in random.lifecycle() })
  }

  @Test func motion() throws {
    var random = RandomEvents(seed: 4)
    try expectReplayAgrees(MotionDomain(), (0..<Self.eventsPerDomain).map { _ in random.motion() })
  }

  @Test func data() throws {
    var random = RandomEvents(seed: 5)
    try expectReplayAgrees(DataDomain(), (0..<Self.eventsPerDomain).map { _ in random.data() })
  }

  @Test func rest() throws {
    var random = RandomEvents(seed: 6)
    try expectReplayAgrees(RestDomain(), (0..<Self.eventsPerDomain).map { _ in random.rest() })
  }

  @Test func severalAggregatorsIntoOneLogAgainstEveryBuiltInDomain() throws {
    let scratch = ScratchDirectory()
    let recorder = try RaspRecorder(
      path: scratch.file("session.jsonl"),
      configuration: RaspRecorderConfiguration(
        clock: steppingClock(), goldenPath: scratch.file("golden.jsonl")))
    let geo = RaspAggregator(initial: GeoState())
    let nav = RaspAggregator(initial: NavState())
    let data = RaspAggregator(initial: DataState())
    let emitted = (geo: Emitted(), nav: Emitted(), data: Emitted())
    let subscriptions = [
      geo.subscribe { emitted.geo.add(snapshot($0, of: GeoDomain())) },
      nav.subscribe { emitted.nav.add(snapshot($0, of: NavDomain())) },
      data.subscribe { emitted.data.add(snapshot($0, of: DataDomain())) },
    ]
    try recorder.record(geo, as: GeoDomain())
    try recorder.record(nav, as: NavDomain())
    try recorder.record(data, as: DataDomain())
    var random = RandomEvents(seed: 7)
    for _ in 0..<900 {
      switch random.int(3) {
      case 0: geo.send(random.geo())
      case 1: nav.send(random.nav())
      default: data.send(random.data())
      }
    }
    recorder.finish()
    for subscription in subscriptions { subscription.cancel() }
    // The replay of all the built-in domains prints the golden file.
    let replay = runRasp(["replay", scratch.file("session.jsonl")])
    #expect(replay.status == 0, "\(replay.errors)")
    let golden = scratch.lines(of: "golden.jsonl")
    #expect(replay.output == golden.map { $0 + "\n" }.joined())
    let check = runRasp([
      "check", "--golden", scratch.file("golden.jsonl"), scratch.file("session.jsonl"),
    ])
    #expect(check.status == 0, "\(check.errors)")
    // Each aggregator's snapshots are its domain's states in the golden lines of its events.
    let log = scratch.lines(of: "session.jsonl")
    #expect(log.count == golden.count)
    for (name, emitted) in [("geo", emitted.geo), ("nav", emitted.nav), ("data", emitted.data)] {
      var states: [String] = []
      for (line, snapshot) in zip(log, golden) where line.hasPrefix(#"{"type":"\#(name)."#) {
        guard case .object(let object) = try JSONParser.parse(snapshot),
          let state = object[name]
        else { continue }
        var writer = JSONWriter()
        writer.writeRaw("{")
        writer.writeString(name)
        writer.writeRaw(":")
        writer.write(state)
        writer.writeRaw("}")
        states.append(String(decoding: writer.bytes, as: UTF8.self))
      }
      #expect(states == Array(emitted.lines.dropFirst()), "\(name)")
    }
  }
}

/// The snapshots an aggregator delivered, in order.
final class Emitted: @unchecked Sendable {
  // Delivered on the sending thread: the test sends from one thread.
  private(set) var lines: [String] = []

  func add(_ line: String) { lines.append(line) }
}
