@testable import Rasp

/// Collects values from callbacks on any thread, and lets a test await a number of them.
///
/// Tests never sleep: they await `first(_:)`, which resumes as soon as that many values have
/// been recorded, whatever thread recorded them. It locks with the core's `RaspMutex`, which
/// ThreadSanitizer can follow.
final class Recorder<Value: Sendable>: Sendable {
  private struct Storage {
    var values: [Value] = []
    var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []
  }

  private let storage = RaspMutex(Storage())

  init() {}

  /// Everything recorded so far, in order.
  var values: [Value] {
    storage.withLock { $0.values }
  }

  /// Records `value` and wakes the waiters whose count it reaches.
  func record(_ value: Value) {
    let ready = storage.withLock { storage in
      storage.values.append(value)
      let values = storage.values
      let ready = storage.waiters.filter { $0.count <= values.count }
      storage.waiters.removeAll { $0.count <= values.count }
      return ready.map { ($0.continuation, Array(values.prefix($0.count))) }
    }
    for (continuation, values) in ready { continuation.resume(returning: values) }
  }

  /// Waits until `count` values have been recorded, and returns them.
  func first(_ count: Int) async -> [Value] {
    await withCheckedContinuation { continuation in
      let values = storage.withLock { storage -> [Value]? in
        if storage.values.count >= count { return Array(storage.values.prefix(count)) }
        storage.waiters.append((count, continuation))
        return nil
      }
      if let values { continuation.resume(returning: values) }
    }
  }
}
