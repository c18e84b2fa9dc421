import RaspTestSupport

@testable import RaspRecording

extension RaspRecorder {
  /// Waits until `condition` holds for what the recorder's threads share, on a thread of its
  /// own (the wait sleeps in the recorder's lock, woken as each critical section ends, so it
  /// must not hold one of Swift's cooperative threads); `false` if it did not hold within
  /// five minutes, a limit that only keeps a broken recorder from hanging the run.
  ///
  /// This is how a test waits for a point in the recorder's work that it can observe — the
  /// writer asleep with nothing to write, the buffer full — rather than for a while.
  ///
  /// ```swift
  /// #expect(try await recorder.waitUntil { $0.recordedEvents >= 3 })
  /// ```
  func waitUntil(
    _ condition: @escaping @Sendable (RecorderChannel.Shared) -> Bool
  ) async throws -> Bool {
    let shared = channel
    return try await onThreadOfItsOwn {
      shared.shared.withLock(when: { condition($0) }, timeout: .seconds(300)) { _, isReady in
        isReady
      }
    }
  }
}
