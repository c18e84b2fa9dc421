import Testing

@testable import Rasp

fileprivate struct Feed: RaspState, Sendable {
  var items: [String] = []
  mutating func apply(event: String) { items.append(event) }
}

fileprivate struct Broke: Error {}

@Suite(.hangGuard) struct RaspSourceAdaptingTests {
  @Test func mapsASequenceOfAnyElementToEventsAndSkipsNil() async {
    let numbers = AsyncStream<Int> { continuation in
      for number in 1...5 { continuation.yield(number) }
      continuation.finish()
    }
    let aggregator = RaspAggregator(initial: Feed())
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    aggregator.replaceSources(RaspSource(numbers) { $0 % 2 == 0 ? nil : "n\($0)" })
    #expect(await seen.first(4).last == ["n1", "n3", "n5"])
    subscription.cancel()
  }

  @Test func mapsASourcesEventsKeepingItsName() async {
    let source = RaspSource(events: [1, 2], name: "counter").map { "#\($0)" }
    #expect(source.name == "counter")
    let aggregator = RaspAggregator(initial: Feed())
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    aggregator.replaceSources(source)
    #expect(await seen.first(3).last == ["#1", "#2"])
    subscription.cancel()
  }

  @Test func addsAndRemovesOneSourceWhileTheOthersRun() async {
    //   a      a1 ──────────── a2
    //   b (added)   b1 ─ removed ─ b2 (dropped)
    let (a, aInput) = AsyncStream.makeStream(of: String.self)
    let (b, bInput) = AsyncStream.makeStream(of: String.self)
    let aggregator = RaspAggregator(initial: Feed(), sources: RaspSource(a))
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    aInput.yield("a1")
    _ = await seen.first(2)
    let added = aggregator.addSource(RaspSource(b))
    #expect(added.index == 1)
    bInput.yield("b1")
    _ = await seen.first(3)
    aggregator.removeSource(added)
    bInput.yield("b2")
    aInput.yield("a2")
    #expect(await seen.first(4).last == ["a1", "b1", "a2"])
    aggregator.removeSource(added)  // twice: nothing happens
    subscription.cancel()
  }

  @Test func numbersAnAddedSourcesFailureAfterTheOthers() async {
    let (failing, input) = AsyncThrowingStream.makeStream(of: String.self)
    let aggregator = RaspAggregator(
      initial: Feed(), sources: RaspSource(events: [String]()), RaspSource(events: [String]()))
    let failures = Recorder<RaspFailure<Feed>>()
    let subscription = aggregator.subscribeFailures { failures.record($0) }
    let added = aggregator.addSource(RaspSource(failing))
    input.finish(throwing: Broke())
    let failure = await failures.first(1)[0]
    #expect(added.index == 2)
    #expect(failure.origin == .source(index: 2))
    subscription.cancel()
  }

  @Test func replacingTheSourcesRemovesTheAddedOnes() async {
    let (added, addedInput) = AsyncStream.makeStream(of: String.self)
    let (next, nextInput) = AsyncStream.makeStream(of: String.self)
    let aggregator = RaspAggregator(initial: Feed())
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    aggregator.addSource(RaspSource(added))
    aggregator.replaceSources(RaspSource(next))
    addedInput.yield("dropped")
    nextInput.yield("kept")
    #expect(await seen.first(2).last == ["kept"])
    subscription.cancel()
  }

  @Test func sendsAnEventEveryPeriodOnTheGivenClock() async {
    //   clock  0s ───── 3s ──── 3.5s ── 4s
    //   ticks        t0 t1 t2 (caught up)  t3
    let clock = ManualTestClock()
    let aggregator = RaspAggregator(initial: Feed())
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    let ticks = aggregator.addSource(
      .interval(every: .seconds(1), clock: clock, name: "timer") { "t\($0)" })
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(3))
    #expect(await seen.first(4).last == ["t0", "t1", "t2"])
    await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(500))
    #expect(seen.values.count == 4)
    clock.advance(by: .milliseconds(500))
    #expect(await seen.first(5).last == ["t0", "t1", "t2", "t3"])
    aggregator.removeSource(ticks)
    subscription.cancel()
  }
}
