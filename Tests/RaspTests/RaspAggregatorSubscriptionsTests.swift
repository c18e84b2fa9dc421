import Testing
import Rasp

fileprivate struct Clicks: RaspState, Sendable {
  enum Event: Sendable { case click, reject }
  struct Rejected: Error {}
  var count = 0

  mutating func apply(event: Event) throws {
    switch event {
    case .click: count += 1
    case .reject: throw Rejected()
    }
  }
}

@Suite struct RaspAggregatorSubscriptionsTests {
  @Test func deliversTheCurrentSnapshotOnSubscribeThenEveryNewOne() {
    let aggregator = RaspAggregator(initial: Clicks())
    aggregator.send(contentsOf: [.click, .click])
    let seen = Recorder<Int>()
    let subscription = aggregator.subscribe { seen.record($0.count) }
    #expect(seen.values == [2])  // before subscribe returned
    aggregator.send(.click)
    #expect(seen.values == [2, 3])
    subscription.cancel()
  }

  @Test func keepsTheStateWhenTheLastSubscriberLeaves() {
    // RaspSwift's share() restarted the scan, so a late subscriber saw the initial state again.
    let aggregator = RaspAggregator(initial: Clicks())
    let first = aggregator.subscribe { _ in }
    aggregator.send(contentsOf: [.click, .click, .click])
    first.cancel()
    aggregator.send(.click)  // nobody listening: still applied
    let seen = Recorder<Int>()
    let second = aggregator.subscribe { seen.record($0.count) }
    #expect(seen.values == [4])
    second.cancel()
  }

  @Test func stopsDeliveringAfterCancel() {
    let aggregator = RaspAggregator(initial: Clicks())
    let seen = Recorder<Int>()
    let subscription = aggregator.subscribe { seen.record($0.count) }
    aggregator.send(.click)
    subscription.cancel()
    aggregator.send(.click)
    #expect(seen.values == [0, 1])
    #expect(subscription.isCancelled)
  }

  @Test func stopsDeliveringWhenTheSubscriptionIsReleased() {
    let aggregator = RaspAggregator(initial: Clicks())
    let seen = Recorder<Int>()
    var subscription: RaspSubscription? = aggregator.subscribe { seen.record($0.count) }
    aggregator.send(.click)
    #expect(subscription != nil)
    subscription = nil
    aggregator.send(.click)
    #expect(seen.values == [0, 1])
  }

  @Test func aSubscriberCancelledByAnEarlierOneDuringADeliveryHearsNothingMore() {
    //   log  A0 B0 A1   (A cancels B on seeing 1; B must not hear 1)
    let aggregator = RaspAggregator(initial: Clicks())
    let log = Recorder<String>()
    let holder = SubscriptionHolder()
    let a = aggregator.subscribe { state in
      log.record("A\(state.count)")
      if state.count == 1 { holder.cancel() }
    }
    holder.hold(aggregator.subscribe { log.record("B\($0.count)") })
    aggregator.send(.click)
    #expect(log.values == ["A0", "B0", "A1"])
    a.cancel()
  }

  @Test func aSubscriberAddedDuringADeliveryStartsWithTheSnapshotCurrentAtItsTurn() {
    //   send  -c-c
    //   log   A0 A1 C1 A2 C2   (A subscribes C on seeing 1)
    let aggregator = RaspAggregator(initial: Clicks())
    let log = Recorder<String>()
    let holder = SubscriptionHolder()
    let a = aggregator.subscribe { state in
      log.record("A\(state.count)")
      if state.count == 1 {
        holder.hold(aggregator.subscribe { log.record("C\($0.count)") })
        log.record("subscribed")
      }
    }
    aggregator.send(.click)
    aggregator.send(.click)
    #expect(log.values == ["A0", "A1", "subscribed", "C1", "A2", "C2"])
    a.cancel()
    holder.cancel()
  }

  @Test(.hangGuard) func streamsTheCurrentSnapshotThenEveryNewOne() async {
    let aggregator = RaspAggregator(initial: Clicks())
    aggregator.send(.click)
    let states = aggregator.states  // subscribes now: the current snapshot is buffered
    aggregator.send(contentsOf: [.click, .click])
    var seen: [Int] = []
    for await state in states {
      seen.append(state.count)
      if seen.count == 3 { break }
    }
    #expect(seen == [1, 2, 3])
  }

  @Test(.hangGuard) func finishesItsStreamsWhenReleased() async {
    func streamsOfAReleasedAggregator() -> (
      AsyncStream<Clicks>, AsyncStream<RaspFailure<Clicks>>
    ) {
      let aggregator = RaspAggregator(initial: Clicks())
      let streams = (aggregator.states, aggregator.failures)
      aggregator.send(.click)
      return streams
    }
    let (states, failures) = streamsOfAReleasedAggregator()
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }  // ends: no break needed
    var failed = 0
    for await _ in failures { failed += 1 }
    #expect(seen == [0, 1])
    #expect(failed == 0)
  }

  @Test func reportsFailuresOnlyToCurrentSubscribersAndBeforeTheSnapshot() {
    let aggregator = RaspAggregator(initial: Clicks())
    aggregator.send(.reject)  // nobody listening: not replayed later
    let log = Recorder<String>()
    let failures = aggregator.subscribeFailures { log.record("failure \($0.origin)") }
    let states = aggregator.subscribe { log.record("state \($0.count)") }
    aggregator.send(composite: [.click, .reject], fallback: .click)
    #expect(log.values == ["state 0", "failure composite", "state 1"])
    failures.cancel()
    states.cancel()
  }

  @Test(.hangGuard) func streamsFailures() async {
    let aggregator = RaspAggregator(initial: Clicks())
    let failures = aggregator.failures
    aggregator.send(contentsOf: [.click, .reject, .click])
    for await failure in failures {
      #expect(failure.origin == .event)
      #expect(failure.error is Clicks.Rejected)
      break
    }
    #expect(aggregator.current.count == 2)
  }
}

/// Holds a subscription made inside a callback, so that another callback can cancel it.
fileprivate final class SubscriptionHolder: Sendable {
  private let subscriptions = Recorder<RaspSubscription>()

  func hold(_ subscription: RaspSubscription) { subscriptions.record(subscription) }
  func cancel() { for subscription in subscriptions.values { subscription.cancel() } }
}
