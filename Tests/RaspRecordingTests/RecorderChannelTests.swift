import Foundation
import Rasp
import RaspTestSupport
import Testing

@testable import RaspRecording

/// The recorder's channel, where its threads meet: senders on threads of their own, a buffer
/// far smaller than what they send, and the writer thread. `make test-tsan` runs these under
/// ThreadSanitizer, which reports the race if the channel's lock did not guard the pending
/// events, the order and the counts; a lost wake-up would leave a test waiting for ever.
@Suite struct RecorderChannelTests {
  /// What each sender sends: `"<sender>-<index>"`, so the log says who sent what, in which
  /// order.
  private static func note(_ sender: Int, _ index: Int) -> String { "\(sender)-\(index)" }

  /// The notes of a log, in its order.
  private static func notes(in lines: [String]) -> [String] {
    lines.compactMap { line in
      guard let start = line.range(of: #""text":""#)?.upperBound,
        let end = line[start...].firstIndex(of: "\"")
      else { return nil }
      return String(line[start..<end])
    }
  }

  @Test func sendersOfManyThreadsThroughATinyBufferLoseAndDuplicateNothing() async throws {
    let scratch = ScratchDirectory()
    var configuration = RaspRecorderConfiguration(
      clock: steppingClock(), maxPendingEvents: 4, goldenDomains: [])
    configuration.maxLatencyMilliseconds = 1
    let recorder = try RaspRecorder(path: scratch.file("log.jsonl"), configuration: configuration)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    let senders = 4
    let each = 2_000
    try await withThrowingTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          try await onThreadOfItsOwn {
            for index in 0..<each { aggregator.send(.note(Self.note(sender, index))) }
          }
        }
      }
      try await group.waitForAll()
    }
    let summary = recorder.finish()
    #expect(summary.recordedCount == senders * each)
    #expect(summary.droppedCount == 0)
    let notes = Self.notes(in: scratch.lines(of: "log.jsonl"))
    #expect(notes.count == senders * each)
    for sender in 0..<senders {
      let own = notes.filter { $0.hasPrefix("\(sender)-") }
      #expect(own == (0..<each).map { Self.note(sender, $0) }, "sender \(sender)'s, in order")
    }
    // The times were read under the lock, in the order of the lines: a stepping clock gives
    // each line the next time.
    let times = scratch.lines(of: "log.jsonl").compactMap { line -> String? in
      guard let start = line.range(of: #""ts":""#)?.upperBound,
        let end = line[start...].firstIndex(of: "\"")
      else { return nil }
      return String(line[start..<end])
    }
    #expect(times.count == notes.count)
    #expect(Set(times).count == times.count, "no two lines read the clock at once")
  }

  @Test func aFlushReturnsOnceEverythingSentBeforeItIsInTheFile() async throws {
    let scratch = ScratchDirectory()
    // A latency of a day: without the flush, the writer would wait for a quarter of the
    // buffer, which three events never reach.
    var configuration = RaspRecorderConfiguration(
      clock: steppingClock(), maxPendingEvents: 64, goldenDomains: [])
    configuration.maxLatencyMilliseconds = 86_400_000
    let recorder = try RaspRecorder(path: scratch.file("log.jsonl"), configuration: configuration)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    for round in 1...3 {
      try await onThreadOfItsOwn {
        for index in 0..<3 { aggregator.send(.note(Self.note(round, index))) }
        recorder.flush()
      }
      let notes = Self.notes(in: scratch.lines(of: "log.jsonl"))
      #expect(notes.count == 3 * round)
      #expect(notes.suffix(3) == (0..<3).map { Self.note(round, $0) })
    }
    _ = recorder.finish()
  }

  @Test func finishingWakesSendersWaitingForRoomAndCountsWhatTheyDrop() async throws {
    // The log is a pipe nobody reads: the writer blocks on its first write, the buffer fills,
    // and senders wait for room until the recorder finishes, which takes no more events.
    let scratch = ScratchDirectory()
    let path = scratch.file("pipe")
    mkfifo(path, 0o600)
    let reader = open(path, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    var configuration = RaspRecorderConfiguration(
      clock: steppingClock(), maxPendingEvents: 2, goldenDomains: [])
    configuration.maxLatencyMilliseconds = 1
    let recorder = try RaspRecorder(path: path, configuration: configuration)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    let big = String(repeating: "x", count: 70_000)  // more than a pipe holds
    let sent = 20
    let sending = StartedThread {
      for _ in 0..<sent { aggregator.send(.note(big)) }
    }
    // Let the senders fill the buffer first: until then, nothing is read.
    #expect(try await recorder.waitUntil { $0.recordedEvents >= 3 })
    // Read the pipe to its end on another thread once the recorder is told to finish.
    async let finished = onThreadOfItsOwn { () -> RaspRecorderSummary in
      let reading = Thread {
        _ = fcntl(reader, F_SETFL, 0)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while read(reader, &chunk, chunk.count) > 0 {}
      }
      reading.start()
      return recorder.finish()
    }
    let atTheEnd = try await finished
    // The sender waiting for room was let go (without, the sending would never end): what it
    // sent from then on is dropped, or no longer seen once the recorder let go of the
    // aggregator.
    try await sending.value
    let summary = recorder.summary
    #expect(summary.recordedCount == atTheEnd.recordedCount, "nothing recorded after the end")
    #expect(summary.recordedCount >= 3)
    #expect(summary.recordedCount + summary.droppedCount < sent)
  }
}
