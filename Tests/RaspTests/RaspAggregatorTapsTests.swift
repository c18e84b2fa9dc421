import Dispatch
import Testing

@testable import Rasp

fileprivate typealias Tally = NonNegativeTally

/// One call of a tap: the event, the count after it, and the source.
fileprivate struct Tapped: Equatable, Sendable {
  var event: Int
  var count: Int
  var source: String?

  init(_ event: Int, _ count: Int, _ source: String? = nil) {
    self.event = event
    self.count = count
    self.source = source
  }
}

@Suite(.hangGuard) struct RaspAggregatorTapsTests {
  @Test func seesEveryAppliedEventWithTheStateAfterItEvenWithoutASnapshot() {
    //   send       1   0   -5   2
    //   applied    1   0   ✗    2     (-5 is rejected: below zero)
    //   snapshots  1   -   -    3     (.whenChanged: 0 changes nothing)
    //   tap        1→1 0→1      2→3
    let aggregator = RaspAggregator(initial: Tally(), emission: .whenChanged)
    let tapped = Recorder<Tapped>()
    let snapshots = Recorder<Int>()
    let tap = aggregator.tapAppliedEvents { event, state, source in
      tapped.record(Tapped(event, state.count, source))
    }
    let subscription = aggregator.subscribe { snapshots.record($0.count) }
    for event in [1, 0, -5, 2] { aggregator.send(event) }
    #expect(tapped.values == [Tapped(1, 1), Tapped(0, 1), Tapped(2, 3)])
    #expect(snapshots.values == [0, 1, 3])
    tap.cancel()
    subscription.cancel()
  }

  @Test func seesACompositeAsItsEventsAndARolledBackOneNotAtAll() {
    let aggregator = RaspAggregator(initial: Tally())
    let tapped = Recorder<Tapped>()
    let tap = aggregator.tapAppliedEvents { event, state, _ in
      tapped.record(Tapped(event, state.count))
    }
    aggregator.send(composite: [2, 3, -1])
    aggregator.send(composite: [1, -10], fallback: 6)
    aggregator.send(composite: [1, -20], fallback: -50)
    #expect(tapped.values == [Tapped(2, 2), Tapped(3, 5), Tapped(-1, 4), Tapped(6, 10)])
    #expect(aggregator.current.count == 10)
    tap.cancel()
  }

  @Test func namesTheSourceOfEachEvent() async {
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let aggregator = RaspAggregator(initial: Tally())
    let tapped = Recorder<Tapped>()
    let tap = aggregator.tapAppliedEvents { event, state, source in
      tapped.record(Tapped(event, state.count, source))
    }
    aggregator.replaceSources(RaspSource(stream, name: "keypad"), RaspSource(events: [10]))
    _ = await tapped.first(1)  // the unnamed source's 10
    input.yield(5)
    let seen = await tapped.first(2)
    aggregator.send(1)
    #expect(seen == [Tapped(10, 10), Tapped(5, 15, "keypad")])
    #expect(tapped.values.last == Tapped(1, 16))
    tap.cancel()
  }

  @Test func stopsWhenCancelledOrReleased() {
    let aggregator = RaspAggregator(initial: Tally())
    let tapped = Recorder<Int>()
    let first = aggregator.tapAppliedEvents { event, _, _ in tapped.record(event) }
    var second: RaspSubscription? = aggregator.tapAppliedEvents { event, _, _ in
      tapped.record(-event)
    }
    aggregator.send(1)
    first.cancel()
    aggregator.send(2)
    second = nil
    aggregator.send(3)
    #expect(second == nil)
    #expect(tapped.values == [1, -1, -2])
  }

  @Test func seesEventsFromManyThreadsInTheOrderTheyWereApplied() {
    let aggregator = RaspAggregator(initial: Tally())
    let tapped = Recorder<Int>()
    let tap = aggregator.tapAppliedEvents { _, state, _ in tapped.record(state.count) }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 { aggregator.send(1) }
    }
    #expect(tapped.values == Array(1...2000))
    tap.cancel()
  }

  @Test func reportsARecorderFailureOnTheFailureChannel() async {
    struct DiskFull: Error {}
    let aggregator = RaspAggregator(initial: Tally())
    let failures = Recorder<RaspFailure<Tally>>()
    let subscription = aggregator.subscribeFailures { failures.record($0) }
    aggregator.reportRecorderFailure(DiskFull())
    let failure = await failures.first(1)[0]
    #expect(failure.origin == .recorder)
    #expect(failure.event == nil)
    #expect(failure.error is DiskFull)
    #expect(failure.description == "recorder failed: DiskFull()")
    subscription.cancel()
  }
}
