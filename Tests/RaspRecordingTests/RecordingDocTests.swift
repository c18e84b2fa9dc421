import Foundation
import Rasp
import RaspDomains
import RaspRecording
import RaspTestSupport
import Testing

/// The session of `docs/recording.md`, recorded again: the code here is the page's, and the log
/// and golden file it writes must be the ones in `fixtures/recording`, which the page's
/// commands replay and check.
@Suite struct RecordingDocTests {
  /// The page's app: a compass and a GPS feeding a geo aggregator, a nav aggregator driven by
  /// the UI, and a recorder with a clock that moves on by 250 ms per event.
  func recordSession(in directory: String) async throws {
    let clock = RaspManualClock(
      start: RaspTimestamp(seconds: 1_795_339_800, nanoseconds: 0), step: .milliseconds(250))
    let recorder = try RaspRecorder(
      path: directory + "/session.jsonl",
      configuration: RaspRecorderConfiguration(
        clock: clock, goldenPath: directory + "/session.golden.jsonl"))

    let (headings, compass) = AsyncStream.makeStream(of: GeoState.Event.self)
    let geo = RaspAggregator(initial: GeoState())
    let nav = RaspAggregator(initial: NavState())
    try recorder.record(geo, as: GeoDomain())
    try recorder.record(nav, as: NavDomain())
    geo.replaceSources(RaspSource(headings, name: "compass"))

    compass.yield(.heading(271.5))
    await until(geo) { $0.heading == 271.5 }
    geo.send(.location(GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 12))
    nav.send(.push("map"))
    compass.yield(.heading(273))
    await until(geo) { $0.heading == 273 }
    nav.send(.pop)
    nav.send(.pop)  // refused: the stack is empty; not applied, not recorded
    nav.send(.present("settings"))

    let summary = recorder.finish()
    #expect(summary.recordedCount == 6)
  }

  /// Waits until `condition` holds for the aggregator's state: a source's event is applied on
  /// its own task. The stream starts with the current state, so a state reached before the
  /// call is not missed.
  private func until<State: RaspState & Sendable>(
    _ aggregator: RaspAggregator<State>, _ condition: (State) -> Bool
  ) async where State.Event: Sendable {
    for await state in aggregator.states where condition(state) { return }
  }

  @Test func writesTheFixturesThePageReplays() async throws {
    let scratch = ScratchDirectory()
    try await recordSession(in: scratch.path)
    if let directory = ProcessInfo.processInfo.environment["RASP_RECORDING_FIXTURES_TO"] {
      // To see what the session writes, when the page changes: copy it out, read it.
      for name in ["session.jsonl", "session.golden.jsonl"] {
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
        try FileManager.default.copyItem(atPath: scratch.file(name), toPath: directory + "/" + name)
      }
    }
    for name in ["session.jsonl", "session.golden.jsonl"] {
      let fixture = try String(
        contentsOfFile: Repository.path("fixtures/recording/" + name), encoding: .utf8)
      let written = try String(contentsOfFile: scratch.file(name), encoding: .utf8)
      #expect(written == fixture, "fixtures/recording/\(name)")
    }
  }
}
