import Testing

@testable import Rasp

fileprivate struct Feed: RaspState, Sendable {
  var items: [String] = []
  mutating func apply(event: String) { items.append(event) }
}

fileprivate struct SourceBroke: Error, Equatable {}

/// A fresh upstream: a stream, its input, and how it ended (`cancelled` or `finished`).
fileprivate struct Upstream {
  let stream: AsyncThrowingStream<String, any Error>
  let input: AsyncThrowingStream<String, any Error>.Continuation
  let ended = Recorder<String>()

  init() {
    (stream, input) = AsyncThrowingStream.makeStream(of: String.self)
    input.onTermination = { [ended] termination in
      switch termination {
      case .cancelled: ended.record("cancelled")
      case .finished: ended.record("finished")
      @unknown default: ended.record("other")
      }
    }
  }

  var source: RaspSource<String> { RaspSource(stream) }
}

@Suite(.hangGuard) struct RaspSwitchableSourceTests {
  @Test func aJumpBeforeAnyoneListensIsNotLost() async {
    let switchable = RaspSwitchableSource<String>(name: "position")
    let simulator = Upstream()
    switchable.jump(to: simulator.source)
    let aggregator = RaspAggregator(initial: Feed(), sources: switchable.source)
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    simulator.input.yield("s1")
    #expect(await seen.first(2).last == ["s1"])
    #expect(switchable.source.name == "position")
    subscription.cancel()
  }

  @Test func onlyTheCurrentUpstreamsEventsPass() async {
    //   simulator  s1 ----- s2 (after the jump: dropped)
    //   gps        ---- jump ------ g1
    let simulator = Upstream()
    let gps = Upstream()
    let switchable = RaspSwitchableSource(simulator.source)
    let aggregator = RaspAggregator(initial: Feed(), sources: switchable.source)
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    simulator.input.yield("s1")
    _ = await seen.first(2)
    switchable.jump(to: gps.source)
    simulator.input.yield("s2")
    #expect(await simulator.ended.first(1) == ["cancelled"])
    gps.input.yield("g1")
    #expect(await seen.first(3).last == ["s1", "g1"])
    await aggregator.sendAndWait("end")
    #expect(aggregator.current.items == ["s1", "g1", "end"])
    subscription.cancel()
  }

  @Test func anUpstreamThatEndsLeavesTheSourceWaitingForTheNextJump() async {
    let first = Upstream()
    let second = Upstream()
    let switchable = RaspSwitchableSource(first.source)
    let aggregator = RaspAggregator(initial: Feed(), sources: switchable.source)
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    first.input.yield("a")
    first.input.finish()
    _ = await seen.first(2)
    switchable.jump(to: second.source)
    second.input.yield("b")
    #expect(await seen.first(3).last == ["a", "b"])
    subscription.cancel()
  }

  @Test func aThrowingUpstreamIsReportedAsTheSourcesFailure() async {
    let upstream = Upstream()
    let other = Upstream()
    let switchable = RaspSwitchableSource(upstream.source)
    let aggregator = RaspAggregator(
      initial: Feed(), sources: other.source, switchable.source)
    let failures = Recorder<RaspFailure<Feed>>()
    let subscription = aggregator.subscribeFailures { failures.record($0) }
    upstream.input.finish(throwing: SourceBroke())
    let failure = await failures.first(1)[0]
    #expect(failure.origin == .source(index: 1))
    #expect(failure.error as? SourceBroke == SourceBroke())
    subscription.cancel()
  }

  @Test func finishingEndsTheSourceAndLaterJumpsDoNothing() async {
    let upstream = Upstream()
    let switchable = RaspSwitchableSource(upstream.source)
    let received = Recorder<String>()
    let ended = Recorder<Bool>()
    let listening = Task {
      try await switchable.source.run { event in
        received.record(event)
        return true
      }
      ended.record(true)
    }
    upstream.input.yield("x")
    _ = await received.first(1)
    switchable.finish()
    _ = await ended.first(1)
    #expect(await upstream.ended.first(1) == ["cancelled"])
    let late = Upstream()
    switchable.jump(to: late.source)
    try? await switchable.source.run { _ in
      Issue.record("a finished source passed an event")
      return false
    }
    #expect(received.values == ["x"])
    late.input.finish()
    listening.cancel()
  }

  @Test func eventsOfAnOlderUpstreamNeverFollowANewerOnesUnderConcurrentJumps() async {
    // Forty upstreams, each fed from a task of its own while the test jumps from one to the
    // next: the applied events' upstreams never go back, and the last upstream's all pass.
    let switchable = RaspSwitchableSource<String>()
    let aggregator = RaspAggregator(initial: Feed(), sources: switchable.source)
    var feeders: [Task<Void, Never>] = []
    var last = Upstream()
    for round in 0..<40 {
      let upstream = Upstream()
      switchable.jump(to: upstream.source)
      feeders.append(
        Task.detached {
          for index in 0..<25 { upstream.input.yield("\(round).\(index)") }
        })
      last = upstream
    }
    for feeder in feeders { await feeder.value }
    let done = Recorder<Bool>()
    let subscription = aggregator.subscribe { if $0.items.last == "done" { done.record(true) } }
    last.input.yield("done")
    _ = await done.first(1)
    let rounds = aggregator.current.items.dropLast().compactMap {
      Int($0.split(separator: ".")[0])
    }
    #expect(rounds == rounds.sorted())
    #expect(rounds.filter { $0 == 39 }.count == 25)
    subscription.cancel()
  }
}
