import Foundation
import Rasp
import RaspDomains
import RaspTestSupport
import Synchronization
import Testing

@testable import RaspRecording

/// What the recorder does when the disk falls behind, and when it fails: the log is written to
/// a named pipe that the test reads only when it chooses, so the writer blocks as on a slow
/// disk.
@Suite struct RaspRecorderBufferTests {
  /// A named pipe opened for reading without blocking, so that the recorder can open it for
  /// writing; nothing is read until ``readAll()``.
  final class SlowDisk: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    init(_ scratch: ScratchDirectory) {
      path = scratch.file("session.jsonl")
      mkfifo(path, 0o600)
      descriptor = open(path, O_RDONLY | O_NONBLOCK)
    }

    /// Reads until the writer closes the pipe.
    func readAll() -> String {
      _ = fcntl(descriptor, F_SETFL, 0)
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count <= 0 { break }
        bytes += chunk[..<count]
      }
      close(descriptor)
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  private static let note = String(repeating: "x", count: 200)

  @Test func dropsAndCountsWhatDoesNotFitWithTheDropPolicy() async throws {
    let scratch = ScratchDirectory()
    let disk = SlowDisk(scratch)
    var configuration = RaspRecorderConfiguration(
      clock: steppingClock(), maxPendingEvents: 16, whenFull: .drop, goldenDomains: [])
    configuration.maxLatencyMilliseconds = 1
    let recorder = try RaspRecorder(path: disk.path, configuration: configuration)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    // Far more than the pipe (64 KiB) and the buffer hold: the sender never waits.
    let sent = 5_000
    for _ in 0..<sent { aggregator.send(.note(Self.note)) }
    #expect(aggregator.current.note == Self.note)
    let dropped = recorder.droppedCount
    #expect(dropped > 0)
    let reading = StartedThread { disk.readAll() }
    let summary = recorder.finish()
    let lines = try await reading.value.split(separator: "\n").map(String.init)
    #expect(summary.droppedCount == dropped)
    #expect(summary.recordedCount + summary.droppedCount == sent)
    #expect(lines.count == summary.recordedCount + 1)
    #expect(lines.last == #"{"type":"rasp.dropped","payload":{"events":\#(dropped)}}"#)
    // A replay of the log says that it is not whole.
    let log = scratch.file("copy.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
    let replay = runRasp(["replay", "--final", "--stats", log], domains: [TallyDomain()])
    #expect(replay.status == 0)
    #expect(replay.errors.contains("1 event of unknown type ignored, the first 'rasp.dropped'"))
  }

  @Test func makesTheSenderWaitAndLosesNothingByDefault() async throws {
    let scratch = ScratchDirectory()
    let disk = SlowDisk(scratch)
    var configuration = RaspRecorderConfiguration(
      clock: steppingClock(), maxPendingEvents: 16, goldenDomains: [])
    configuration.maxLatencyMilliseconds = 1
    let recorder = try RaspRecorder(path: disk.path, configuration: configuration)
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    let sent = 2_000
    let progress = Atomic<Int>(0)
    let sending = StartedThread {
      for index in 1...sent {
        aggregator.send(.note(Self.note))
        progress.store(index, ordering: .releasing)
      }
    }
    // The pipe (64 KiB, a few hundred lines) and the buffer fill up, and the sender waits for
    // the disk: with the buffer full and nothing read, it cannot have sent everything.
    #expect(try await recorder.waitUntil { $0.order.count == 16 })
    #expect(progress.load(ordering: .acquiring) < sent)
    let reading = StartedThread { disk.readAll() }
    try await sending.value
    let summary = recorder.finish()
    let lines = try await reading.value.split(separator: "\n")
    #expect(summary.droppedCount == 0)
    #expect(summary.recordedCount == sent)
    #expect(lines.count == sent)
    #expect(lines.allSatisfy { $0.hasSuffix(#""payload":{"text":"\#(Self.note)"}}"#) })
  }

  @Test func reportsAFullDiskToTheAggregatorAndGoesOn() async throws {
    let recorder = try RaspRecorder(
      path: "/dev/full", configuration: RaspRecorderConfiguration(goldenDomains: []))
    let aggregator = RaspAggregator(initial: TallyState())
    try recorder.record(aggregator, as: TallyDomain())
    let failures = Failures()
    let subscription = aggregator.subscribeFailures { failure in
      guard failure.origin == .recorder else { return }
      failures.append("\(failure.error)")
    }
    aggregator.send(.add(1))
    recorder.flush()
    let expected = RaspRecorderError.cannotWrite(path: "/dev/full", code: ENOSPC)
    #expect(recorder.failure == expected)
    // The failure is delivered by the recorder's thread; the events after it are applied here,
    // waited for: while the recorder's thread still delivers the failure, an event sent is only
    // queued, and that thread applies it (a loaded machine showed `count` 1 here).
    #expect(try await failures.waitForOne())
    await aggregator.sendAndWait(.add(2))
    await aggregator.sendAndWait(.add(3))
    #expect(aggregator.current.count == 6)
    let summary = recorder.finish()
    #expect(summary.failure == expected)
    #expect(summary.recordedCount == 0)
    #expect(summary.droppedCount == 3)
    #expect(failures.all == ["cannot write '/dev/full': No space left on device"])
    subscription.cancel()
  }

  /// The failures the aggregator reported, from the recorder's thread, behind an `NSLock`:
  /// ThreadSanitizer does not see the ordering that `Synchronization.Mutex` makes on Linux (a
  /// futex), and took this test's polling for a race (`.ci/run`, once in four runs).
  final class Failures: Sendable {
    private let messages = RaspMutex<[String]>([])

    func append(_ message: String) { messages.withLock { $0.append(message) } }
    var all: [String] { messages.withLock { $0 } }

    /// Waits, on a thread of its own, until a failure has been appended; `false` if none was
    /// within five minutes (a limit that only keeps the run from hanging).
    func waitForOne() async throws -> Bool {
      try await onThreadOfItsOwn { [self] in
        messages.withLock(when: { !$0.isEmpty }, timeout: .seconds(300)) { _, isReady in isReady }
      }
    }
  }
}
