import Dispatch
import Testing

@testable import Rasp

fileprivate typealias Tally = NonNegativeTally

/// A state that remembers every event it applied, so each snapshot names its own last event.
fileprivate struct Trail: RaspState, Sendable {
  var events: [Int] = []
  mutating func apply(event: Int) { events.append(event) }
}

@Suite(.hangGuard) struct RaspAggregatorChangesTests {
  @Test func pairsEachSnapshotWithTheEventThatSetIt() {
    //   at subscription: count 2, set by no event of ours
    //   +3 → 5 · 0 → 5 (skipped by .whenChanged) · -9 rejected · +1 → 6
    //   composite [+1, +1] → 8, set by its last event · composite [+1, -20] fallback +10 → 16
    let aggregator = RaspAggregator(initial: Tally(), emission: .whenChanged)
    aggregator.send(2)
    let changes = Recorder<RaspChange<Tally>>()
    let subscription = aggregator.subscribeChanges { changes.record($0) }
    aggregator.send(3)
    aggregator.send(0)
    aggregator.send(-9)
    aggregator.send(1)
    aggregator.send(composite: [1, 1])
    aggregator.send(composite: [1, -20], fallback: 10)
    #expect(changes.values.map(\.state.count) == [2, 5, 6, 8, 18])
    #expect(changes.values.map(\.event) == [nil, 3, 1, 1, 10])
    subscription.cancel()
    aggregator.send(1)
    #expect(changes.values.count == 5)
  }

  @Test func aSubscriptionQueuedBehindEventsStartsWithoutAnEvent() {
    // Subscribing from inside a subscriber queues the new subscription behind the event sent
    // just before it: its first change is the snapshot after that event, with no event.
    let aggregator = RaspAggregator(initial: Trail())
    let changes = Recorder<RaspChange<Trail>>()
    let inner = RaspMutex<RaspSubscription?>(nil)
    let outer = aggregator.subscribe { state in
      guard state.events == [1] else { return }
      aggregator.send(2)
      let subscription = aggregator.subscribeChanges { changes.record($0) }
      inner.withLock { $0 = subscription }
    }
    aggregator.send(1)
    aggregator.send(3)
    #expect(changes.values.map(\.state.events) == [[1, 2], [1, 2, 3]])
    #expect(changes.values.map(\.event) == [nil, 3])
    outer.cancel()
    inner.withLock { $0?.cancel() }
  }

  @Test func pairsStayRightUnderConcurrentSends() async {
    // Four threads send 2,000 distinct events each; every change must carry the event its own
    // snapshot ends with, and the changes must come in the order the events were applied.
    let aggregator = RaspAggregator(initial: Trail())
    let mismatches = RaspMutex(0)
    let counts = RaspMutex<[Int]>([])
    let subscription = aggregator.subscribeChanges { change in
      if change.event != change.state.events.last, change.event != nil {
        mismatches.withLock { $0 += 1 }
      }
      counts.withLock { $0.append(change.state.events.count) }
    }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<2_000 { aggregator.send(thread * 10_000 + index) }
    }
    await aggregator.sendAndWait(-1)
    #expect(mismatches.withLock { $0 } == 0)
    #expect(counts.withLock { $0 } == Array(0...8_001))
    subscription.cancel()
  }

  @Test func streamsChangesAndFinishesWithTheAggregator() async {
    var aggregator: RaspAggregator<Trail>? = RaspAggregator(initial: Trail())
    let stream = aggregator!.changes(buffering: .unbounded)
    aggregator?.send(7)
    aggregator?.send(8)
    aggregator = nil
    var seen: [Int?] = []
    for await change in stream { seen.append(change.event) }
    #expect(seen == [nil, 7, 8])
  }
}
