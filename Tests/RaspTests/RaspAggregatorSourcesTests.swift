import Testing
import Rasp

fileprivate struct Feed: RaspState, Sendable {
  var items: [String] = []
  mutating func apply(event: String) { items.append(event) }
}

fileprivate struct SourceBroke: Error, Equatable {}

@Suite(.hangGuard) struct RaspAggregatorSourcesTests {
  @Test func mergesItsSourcesWithImperativeSends() async {
    //   a     a1-------a2-
    //   b     ----b1------
    //   send  -------s1---
    //   items a1 b1 s1 a2   (each input awaited before the next: the order is the arrival order)
    let (a, aInput) = AsyncStream.makeStream(of: String.self)
    let (b, bInput) = AsyncThrowingStream.makeStream(of: String.self)
    let aggregator = RaspAggregator(initial: Feed(), sources: RaspSource(a), RaspSource(b))
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    aInput.yield("a1")
    _ = await seen.first(2)
    bInput.yield("b1")
    _ = await seen.first(3)
    aggregator.send("s1")
    aInput.yield("a2")
    let snapshots = await seen.first(5)
    #expect(snapshots.last == ["a1", "b1", "s1", "a2"])
    subscription.cancel()
  }

  @Test func reportsAFailingSourceByIndexAndKeepsTheOthersRunning() async {
    let (good, goodInput) = AsyncStream.makeStream(of: String.self)
    let (bad, badInput) = AsyncThrowingStream.makeStream(of: String.self)
    let aggregator = RaspAggregator(initial: Feed(), sources: [RaspSource(good), RaspSource(bad)])
    let seen = Recorder<[String]>()
    let failures = Recorder<RaspFailure<Feed>>()
    let a = aggregator.subscribe { seen.record($0.items) }
    let b = aggregator.subscribeFailures { failures.record($0) }
    badInput.yield("bad1")
    _ = await seen.first(2)
    badInput.finish(throwing: SourceBroke())
    let failure = await failures.first(1)[0]
    #expect(failure.origin == .source(index: 1))
    #expect(failure.event == nil)
    #expect(failure.state.items == ["bad1"])
    #expect(failure.error as? SourceBroke == SourceBroke())
    goodInput.yield("good1")
    let snapshots = await seen.first(3)
    #expect(snapshots.last == ["bad1", "good1"])
    a.cancel()
    b.cancel()
  }

  @Test func replacingSourcesStopsTheOldOnesAndKeepsTheState() async {
    let (old, oldInput) = AsyncStream.makeStream(of: String.self)
    let (new, newInput) = AsyncStream.makeStream(of: String.self)
    let oldStopped = Recorder<Bool>()
    oldInput.onTermination = { _ in oldStopped.record(true) }
    let aggregator = RaspAggregator(initial: Feed(), sources: RaspSource(old))
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    oldInput.yield("old1")
    _ = await seen.first(2)
    aggregator.replaceSources(RaspSource(new))
    _ = await oldStopped.first(1)
    oldInput.yield("old2")  // the old source is gone: dropped
    newInput.yield("new1")
    let snapshots = await seen.first(3)
    #expect(snapshots.last == ["old1", "new1"])
    #expect(aggregator.current.items == ["old1", "new1"])
    subscription.cancel()
  }

  @Test func cancelsItsSourcesWhenReleased() async {
    let (events, input) = AsyncStream.makeStream(of: String.self)
    let stopped = Recorder<Bool>()
    input.onTermination = { _ in stopped.record(true) }
    let applied = Recorder<String>()
    do {
      let aggregator = RaspAggregator(initial: Feed(), sources: RaspSource(events))
      let subscription = aggregator.subscribe { state in
        if let last = state.items.last { applied.record(last) }
      }
      input.yield("first")
      _ = await applied.first(1)  // the source task is running
      subscription.cancel()
    }
    #expect(await stopped.first(1) == [true])  // released at the end of the `do` block
  }

  @Test func runsASourceMadeOfASynchronousSequence() async {
    let aggregator = RaspAggregator(
      initial: Feed(), sources: RaspSource(events: ["x", "y", "z"]))
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    let snapshots = await seen.first(4)
    #expect(snapshots.last == ["x", "y", "z"])
    subscription.cancel()
  }
}
