import Testing

@testable import Rasp

fileprivate struct Feed: RaspState, Sendable {
  var items: [String] = []
  mutating func apply(event: String) { items.append(event) }
}

fileprivate struct Offline: Error, Equatable {}

/// A gate an action waits at until the test opens it; cancellation lets it through at once.
fileprivate struct Gate: Sendable {
  let stream: AsyncStream<Void>
  let continuation: AsyncStream<Void>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

  func wait() async { for await _ in stream { return } }
  func open() { continuation.yield() }
}

@Suite(.hangGuard) struct RaspAggregatorActionsTests {
  @Test func sendsWhatTheActionYieldsAndItsTaskEndsOnceDelivered() async {
    let aggregator = RaspAggregator(initial: Feed())
    let seen = Recorder<[String]>()
    let subscription = aggregator.subscribe { seen.record($0.items) }
    let gate = Gate()
    let task = aggregator.run {
      await gate.wait()
      return "loaded"
    }
    aggregator.send("before")
    gate.open()
    await task.value
    #expect(seen.values == [[], ["before"], ["before", "loaded"]])
    await aggregator.run { nil }.value
    #expect(aggregator.current.items == ["before", "loaded"])
    subscription.cancel()
  }

  @Test func reportsAThrowingActionWithTheStateItLeft() async {
    let aggregator = RaspAggregator(initial: Feed())
    aggregator.send("kept")
    let failures = Recorder<RaspFailure<Feed>>()
    let subscription = aggregator.subscribeFailures { failures.record($0) }
    aggregator.run { throw Offline() }
    let failure = await failures.first(1)[0]
    #expect(failure.origin == .action)
    #expect(failure.event == nil)
    #expect(failure.error as? Offline == Offline())
    #expect(failure.state.items == ["kept"])
    #expect("\(failure)" == "action failed: Offline()")
    subscription.cancel()
  }

  @Test func aCancelledActionSendsAndReportsNothing() async {
    let aggregator = RaspAggregator(initial: Feed())
    let failures = Recorder<RaspFailure<Feed>>()
    let subscription = aggregator.subscribeFailures { failures.record($0) }
    let gate = Gate()
    let task = aggregator.run {
      await gate.wait()
      try Task.checkCancellation()
      return "late"
    }
    task.cancel()
    await task.value
    let thrower = aggregator.run {
      await gate.wait()
      throw Offline()
    }
    thrower.cancel()
    await thrower.value
    await aggregator.sendAndWait("after")
    #expect(aggregator.current.items == ["after"])
    #expect(failures.values.isEmpty)
    #expect(aggregator.core.withLock { $0.actionTasks.isEmpty })
    subscription.cancel()
  }

  @Test func releasingTheAggregatorCancelsItsActions() async {
    var aggregator: RaspAggregator<Feed>? = RaspAggregator(initial: Feed())
    weak let released = aggregator
    let wasCancelled = Recorder<Bool>()
    let gate = Gate()
    let task = aggregator!.run {
      await gate.wait()
      wasCancelled.record(Task.isCancelled)
      return "never"
    }
    aggregator = nil
    #expect(released == nil)
    await task.value
    #expect(wasCancelled.values == [true])
  }
}
