import Foundation
import Rasp
import RaspDomains
import RaspJSON
import Synchronization
import Testing

@testable import RaspRecording

@Suite struct RaspRecorderTests {
  private func makeRecorder(
    _ scratch: ScratchDirectory, _ configure: (inout RaspRecorderConfiguration) -> Void = { _ in }
  ) throws -> RaspRecorder {
    var configuration = RaspRecorderConfiguration(clock: steppingClock(), goldenDomains: [])
    configure(&configuration)
    return try RaspRecorder(path: scratch.file("session.jsonl"), configuration: configuration)
  }

  @Test func writesEachAppliedEventAsALogLine() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    aggregator.send(.add(2))
    aggregator.send(.note("say \"hi\"\n"))
    aggregator.send(.reset)
    let summary = recorder.finish()
    #expect(
      scratch.lines(of: "session.jsonl") == [
        #"{"type":"tally.add","ts":"2026-11-22T08:30:00Z","payload":{"by":2}}"#,
        #"{"type":"tally.note","ts":"2026-11-22T08:30:00.25Z","payload":{"text":"say \"hi\"\n"}}"#,
        #"{"type":"tally.reset","ts":"2026-11-22T08:30:00.5Z"}"#,
      ])
    #expect(summary.recordedCount == 3)
    #expect(summary.droppedCount == 0)
    #expect(summary.partPaths == [scratch.file("session.jsonl")])
    #expect(summary.failure == nil)
  }

  @Test func namesTheSourceOfEachEvent() async throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch)
    let (stream, input) = AsyncStream.makeStream(of: TallyState.Event.self)
    let aggregator = RaspAggregator(
      initial: TallyState(), sources: RaspSource(stream, name: "keypad"))
    try recorder.record(aggregator, as: TallyDomain())
    let applied = AsyncStream.makeStream(of: Int.self)
    let subscription = aggregator.subscribe { applied.continuation.yield($0.count) }
    input.yield(.add(5))
    for await count in applied.stream where count == 5 { break }
    aggregator.send(.add(1))
    subscription.cancel()
    recorder.finish()
    #expect(
      scratch.lines(of: "session.jsonl") == [
        #"{"type":"tally.add","ts":"2026-11-22T08:30:00Z","source":"keypad","payload":{"by":5}}"#,
        #"{"type":"tally.add","ts":"2026-11-22T08:30:00.25Z","payload":{"by":1}}"#,
      ])
  }

  @Test func leavesOutRejectedEventsAndRolledBackComposites() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch)
    let aggregator = RaspAggregator(initial: TallyState(), emission: .whenChanged)
    try recorder.record(aggregator, as: TallyDomain())
    aggregator.send(.add(-1))  // rejected: below zero
    aggregator.send(composite: [.add(3), .note("three")])
    aggregator.send(composite: [.add(1), .add(-9)], fallback: .note("fallback"))
    aggregator.send(.add(0))  // changes nothing, so no snapshot, but applied: recorded
    recorder.finish()
    let types = scratch.lines(of: "session.jsonl").map { line in
      line.split(separator: ",").prefix(1).joined()
    }
    #expect(
      types == [
        #"{"type":"tally.add""#, #"{"type":"tally.note""#, #"{"type":"tally.note""#,
        #"{"type":"tally.add""#,
      ])
    #expect(scratch.lines(of: "session.jsonl")[2].hasSuffix(#""payload":{"text":"fallback"}}"#))
  }

  @Test func interleavesSeveralAggregatorsInTheOrderTheyApplied() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch) {
      $0.clock = RaspManualClock(
        start: RaspTimestamp(seconds: 1_795_336_200, nanoseconds: 0), step: .nanoseconds(1))
    }
    let geo = RaspAggregator(initial: TallyState())
    let other = RaspAggregator(initial: OtherTallyDomain.State())
    try recorder.record(geo, as: TallyDomain())
    try recorder.record(other, as: OtherTallyDomain())
    let perThread = 2_000
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for index in 0..<perThread {
        if thread == 0 { geo.send(.add(index)) } else { other.send(.add(index)) }
      }
    }
    recorder.finish()
    let lines = scratch.lines(of: "session.jsonl")
    #expect(lines.count == 2 * perThread)
    // The clock is read in line order: one nanosecond more on every line.
    let fractions = lines.map { line -> Int in
      let ts = line.split(separator: "\"")[7]
      let fraction = ts.split(separator: ".").dropFirst().first?.dropLast() ?? "0"
      return Int(fraction.padding(toLength: 9, withPad: "0", startingAt: 0)) ?? -1
    }
    #expect(fractions == Array(0..<2 * perThread))
    for type in ["tally", "other"] {
      let amounts = lines.filter { $0.hasPrefix(#"{"type":"\#(type).add""#) }.map { line in
        Int(line.split(separator: ":").last?.dropLast(2) ?? "") ?? -1
      }
      #expect(amounts == Array(0..<perThread))
    }
  }

  @Test func refusesASecondAggregatorOfTheSameDomain() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch)
    try recorder.record(RaspAggregator(initial: TallyState()), as: TallyDomain())
    #expect(throws: RaspRecorderError.domainAlreadyRecorded("tally")) {
      try recorder.record(RaspAggregator(initial: TallyState()), as: TallyDomain())
    }
    recorder.finish()
    #expect(throws: RaspRecorderError.finished) {
      try recorder.record(RaspAggregator(initial: OtherTallyDomain.State()), as: OtherTallyDomain())
    }
  }

  @Test func flushWritesEverythingRecordedBeforeIt() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch) { $0.maxLatencyMilliseconds = 60_000 }
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    for amount in 1...100 { aggregator.send(.add(amount)) }
    recorder.flush()
    #expect(scratch.lines(of: "session.jsonl").count == 100)
    aggregator.send(.add(1))
    recorder.finish()
    #expect(scratch.lines(of: "session.jsonl").count == 101)
  }

  @Test func writesAnEventWithinTheLatencyWithoutAFlush() async throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch) { $0.maxLatencyMilliseconds = 20 }
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    // The writer sleeps with nothing to write; an event wakes it, and it writes the event
    // within the latency: only a writer that never wakes leaves it unwritten.
    #expect(try await recorder.waitUntil { $0.isWriterIdle && $0.order.isEmpty })
    aggregator.send(.add(1))
    #expect(try await recorder.waitUntil { $0.written == 1 })
    #expect(scratch.lines(of: "session.jsonl").count == 1)
    recorder.finish()
  }

  @Test func worksWithABufferOfOneEvent() throws {
    let scratch = ScratchDirectory()
    let recorder = try makeRecorder(scratch) { $0.maxPendingEvents = 1 }
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    for amount in 1...500 { aggregator.send(.add(amount)) }
    let summary = recorder.finish()
    #expect(summary.recordedCount == 500)
    #expect(scratch.lines(of: "session.jsonl").count == 500)
  }

  @Test func stopsRecordingWhenTheRecorderIsReleased() throws {
    let scratch = ScratchDirectory()
    let aggregator = RaspAggregator(initial: TallyState())
    do {
      let recorder = try makeRecorder(scratch)
      try recorder.record(aggregator, as: TallyDomain())
      aggregator.send(.add(1))
    }
    aggregator.send(.add(2))
    #expect(scratch.lines(of: "session.jsonl").count == 1)
    #expect(aggregator.current.count == 3)
  }

  @Test func refusesAPathItCannotCreate() {
    #expect(
      throws: RaspRecorderError.cannotCreate(path: "/nonexistent/session.jsonl", code: ENOENT)
    ) {
      _ = try RaspRecorder(path: "/nonexistent/session.jsonl")
    }
  }
}

/// A second tally domain, so that two aggregators can be recorded into one log.
struct OtherTallyDomain: RaspRecordableDomain {
  typealias State = TallyState
  private let base = TallyDomain()
  var name: String { "other" }
  var summary: String { base.summary }
  var events: [RaspEventSchema] { base.events }
  var initialState: TallyState { TallyState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> TallyState.Event {
    try base.decodeEvent(name, payload: &payload, context: context)
  }

  func encode(_ state: TallyState, into writer: inout JSONWriter) {
    base.encode(state, into: &writer)
  }

  func encodeEvent(_ event: TallyState.Event, into record: inout RaspEventRecord) {
    base.encodeEvent(event, into: &record)
  }
}
