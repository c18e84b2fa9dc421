import Foundation
import Synchronization
import Testing

@testable import Rasp

/// The package's one lock, and its waits for a condition: every other concurrent piece of rasp
/// (the read-ahead, the recorder, the progress line, the checkpoint's check) is built on these
/// guarantees. `make test-tsan` runs them under ThreadSanitizer, which reports a race if a
/// critical section were not exclusive or a hand-over had no happens-before edge.
@Suite struct RaspMutexTests {
  @Test func criticalSectionsOfManyThreadsNeverOverlap() async throws {
    // Each section reads the count, and writes it back one higher: two sections that
    // overlapped would lose an increment (and ThreadSanitizer would see the race).
    let count = RaspMutex(0)
    let threads = 4
    let increments = 20_000
    _ = try await onThreads(threads) { _ in
      for _ in 0..<increments {
        count.withLock { value in
          let read = value
          value = read + 1
        }
      }
    }
    #expect(count.withLock { $0 } == threads * increments)
  }

  @Test func aWaiterRunsOnlyOnceItsConditionHoldsAndInTheSameSection() async throws {
    // Two threads take turns: the first waits for an even number and makes it odd, the second
    // waits for an odd one and makes it even. Neither ever sees a number its condition
    // refuses, and without the wake-up at the end of the other's section, both would sleep
    // for ever at the first turn.
    let number = RaspMutex(0)
    let turns = 5_000
    let seen = try await onThreads(2) { parity in
      var seen: [Int] = []
      var wasAlwaysReady = true
      for _ in 0..<turns {
        seen.append(
          number.withLock(when: { $0 % 2 == parity }) { value, isReady in
            wasAlwaysReady = wasAlwaysReady && isReady
            defer { value += 1 }
            return value
          })
      }
      return (seen, wasAlwaysReady)
    }
    #expect(seen[0].0 == Array(stride(from: 0, to: 2 * turns, by: 2)))
    #expect(seen[1].0 == Array(stride(from: 1, to: 2 * turns, by: 2)))
    #expect(seen.allSatisfy { $0.1 })
    #expect(number.withLock { $0 } == 2 * turns)
  }

  @Test func aBoundedQueueOfManyProducersLosesAndDuplicatesNothing() async throws {
    // Producers wait for room (at most `capacity` queued), the consumer for an element.
    let capacity = 3
    let queue = RaspMutex([Int]())
    let producers = 3
    let each = 3_000
    async let consumed = onThreads(1) { _ -> (taken: [Int], longest: Int) in
      var taken: [Int] = []
      var longest = 0
      for _ in 0..<(producers * each) {
        taken.append(
          queue.withLock(when: { !$0.isEmpty }) { elements, _ in
            longest = max(longest, elements.count)
            return elements.removeFirst()
          })
      }
      return (taken, longest)
    }
    _ = try await onThreads(producers) { producer in
      for index in 0..<each {
        queue.withLock(when: { $0.count < capacity }) { elements, _ in
          elements.append(producer * each + index)
        }
      }
    }
    let (taken, longest) = try await consumed[0]
    #expect(longest <= capacity, "no producer put an element while the queue was full")
    #expect(taken.sorted() == Array(0..<(producers * each)))
    for producer in 0..<producers {
      let own = taken.filter { $0 / each == producer }
      #expect(own == own.sorted(), "each producer's elements in the order it put them")
    }
  }

  @Test func aWaitThatTimesOutRunsItsBodyWithTheConditionFalse() {
    let never = RaspMutex(false)
    let outcome = never.withLock(when: { $0 }, timeout: .milliseconds(1)) { value, isReady in
      (value, isReady)
    }
    #expect(outcome == (false, false))
    // Once it holds, the same wait runs at once, however long its timeout.
    never.withLock { $0 = true }
    #expect(never.withLock(when: { $0 }, timeout: .seconds(3600)) { _, isReady in isReady })
  }

  @Test func aWaitThatTimesOutLeavesNoWaiterBehind() async throws {
    // A waiter that gave up must not be woken later, nor keep its condition running.
    let value = RaspMutex(0)
    let conditionRuns = Atomic<Int>(0)
    value.withLock(
      when: { _ in
        conditionRuns.add(1, ordering: .relaxed)
        return false
      }, timeout: .milliseconds(1)
    ) { _, _ in }
    let runsWhileWaiting = conditionRuns.load(ordering: .relaxed)
    for _ in 0..<100 { value.withLock { $0 += 1 } }
    #expect(conditionRuns.load(ordering: .relaxed) == runsWhileWaiting)
    #expect(value.withLock { $0 } == 100)
  }

  @Test func withLockIfAvailableGivesUpWhileAnotherThreadHoldsTheLock() async throws {
    let state = RaspMutex("idle")
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    async let holder: [Void] = onThreads(1) { _ in
      state.withLock { value in
        value = "held"
        holding.signal()
        release.wait()
      }
    }
    _ = try await onThreads(1) { _ in holding.wait() }
    #expect(state.withLockIfAvailable { $0 } == nil)
    release.signal()
    _ = try await holder
    #expect(state.withLockIfAvailable { $0 } == "held")
  }

  @Test func aNoncopyableValueIsGuardedInPlace() {
    struct Token: ~Copyable {
      var uses = 0
    }
    let token = RaspMutex(Token())
    token.withLock { $0.uses += 1 }
    #expect(token.withLock { $0.uses } == 1)
  }
}

/// Runs `body` on `count` threads of their own at once, given each its index, and awaits their
/// results in that order, without blocking one of Swift's cooperative threads.
private func onThreads<Value: Sendable>(
  _ count: Int, _ body: @escaping @Sendable (Int) -> Value
) async throws -> [Value] {
  try await withThrowingTaskGroup(of: (Int, Value).self) { group in
    for index in 0..<count {
      group.addTask {
        await withCheckedContinuation { continuation in
          Thread { continuation.resume(returning: (index, body(index))) }.start()
        }
      }
    }
    var results: [(Int, Value)] = []
    for try await result in group { results.append(result) }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
