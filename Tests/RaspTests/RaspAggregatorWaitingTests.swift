import Foundation
import Testing

@testable import Rasp

fileprivate struct Count: RaspState, Sendable, Equatable {
  var value = 0
  mutating func apply(event: Int) { value += event }
}

/// Awaited sends, bounded streams, and the lifetime of a subscription.
///
/// What subscribers saw is kept in a `RaspMutex`, not a `Synchronization.Mutex`: a subscriber
/// may run on another thread, and ThreadSanitizer only follows the hand-off of the former.
@Suite(.hangGuard) struct RaspAggregatorWaitingTests {
  @Test func sendAndWaitReturnsOnceEverySubscriberSawItsSnapshot() async {
    //   thread A  send(1) ──delivering (slow subscriber)─────────┐
    //   task B         sendAndWait(10) ...queued...  returns after the subscriber saw 11
    let aggregator = RaspAggregator(initial: Count())
    let seen = RaspMutex<[Int]>([])
    let gate = DispatchSemaphore(value: 0)
    let subscription = aggregator.subscribe { state in
      if state.value == 1 { gate.wait() }  // holds the delivery of 1, on thread A
      seen.withLock { $0.append(state.value) }
    }
    let sender = Thread { aggregator.send(1) }
    sender.start()
    while aggregator.current.value != 1 { await Task.yield() }
    async let waiting: Void = aggregator.sendAndWait(10)
    // The delivery of 1 is let go once the 10 and the wait behind it are queued.
    while aggregator.core.withLock({ $0.queue.count }) < 2 { await Task.yield() }
    gate.signal()
    await waiting
    #expect(seen.withLock { $0 } == [0, 1, 11])
    subscription.cancel()
  }

  @Test func sendAndWaitOnAnIdleAggregatorDeliversOnTheCallersThread() async {
    let aggregator = RaspAggregator(initial: Count())
    let seen = RaspMutex<[Int]>([])
    let subscription = aggregator.subscribe { state in seen.withLock { $0.append(state.value) } }
    for _ in 0..<100 { await aggregator.sendAndWait(1) }
    #expect(seen.withLock { $0 } == Array(0...100))
    subscription.cancel()
  }

  @Test func aSlowConsumerOfStatesKeepsTheNewestByDefault() async {
    let aggregator = RaspAggregator(initial: Count())
    let stream = aggregator.states
    for _ in 0..<1_000 { aggregator.send(1) }
    var received: [Int] = []
    for await state in stream {
      received.append(state.value)
      if state.value == 1_000 { break }
    }
    #expect(received == Array(873...1_000))
  }

  @Test func statesKeepWhatTheBufferingSays() async {
    let aggregator = RaspAggregator(initial: Count())
    let newest = aggregator.states(buffering: .newest(2))
    let oldest = aggregator.states(buffering: .oldest(3))
    let every = aggregator.states(buffering: .unbounded)
    let selected = aggregator.select(RaspSelector(\Count.value), buffering: .newest(1))
    for _ in 0..<500 { aggregator.send(1) }
    aggregator.send(-500)  // back to 0: the streams end with a value that tells them apart
    func first(_ count: Int, of stream: AsyncStream<Count>) async -> [Int] {
      var values: [Int] = []
      for await state in stream {
        values.append(state.value)
        if values.count == count { break }
      }
      return values
    }
    #expect(await first(2, of: newest) == [500, 0])
    #expect(await first(3, of: oldest) == [0, 1, 2])
    #expect(await first(502, of: every) == Array(0...500) + [0])
    var latest: [Int] = []
    for await value in selected {
      latest.append(value)
      break
    }
    #expect(latest == [0])
  }

  @Test func aSubscriptionDiscardedAtOnceHearsOnlyTheCurrentSnapshot() {
    // The trap the doc comment warns of: `_ =` releases the subscription, which cancels it.
    let aggregator = RaspAggregator(initial: Count())
    let seen = RaspMutex<[Int]>([])
    _ = aggregator.subscribe { state in seen.withLock { $0.append(state.value) } }
    aggregator.send(1)
    #expect(seen.withLock { $0 } == [0])
    // Kept, it hears every snapshot.
    var kept = Set<RaspSubscription>()
    aggregator.subscribe { state in seen.withLock { $0.append(state.value) } }.store(in: &kept)
    aggregator.send(1)
    #expect(seen.withLock { $0 } == [0, 1, 2])
  }
}
