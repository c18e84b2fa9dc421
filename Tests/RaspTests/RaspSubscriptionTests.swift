import Testing
import Rasp

fileprivate struct Count: RaspState, Sendable {
  var value = 0
  mutating func apply(event: Int) { value += event }
}

@Suite struct RaspSubscriptionTests {
  @Test func cancellingTwiceIsHarmless() {
    let aggregator = RaspAggregator(initial: Count())
    let seen = Recorder<Int>()
    let subscription = aggregator.subscribe { seen.record($0.value) }
    #expect(!subscription.isCancelled)
    subscription.cancel()
    subscription.cancel()
    aggregator.send(1)
    #expect(subscription.isCancelled)
    #expect(seen.values == [0])
  }

  @Test func aSetKeepsItsSubscriptionsAlive() {
    let aggregator = RaspAggregator(initial: Count())
    let seen = Recorder<Int>()
    var subscriptions: Set<RaspSubscription> = []
    aggregator.subscribe { seen.record($0.value) }.store(in: &subscriptions)
    aggregator.select(\.value) { seen.record(-$0) }.store(in: &subscriptions)
    aggregator.send(1)
    #expect(subscriptions.count == 2)
    subscriptions.removeAll()
    aggregator.send(1)
    #expect(seen.values == [0, 0, 1, -1])
  }

  @Test func equalityIsIdentity() {
    let aggregator = RaspAggregator(initial: Count())
    let a = aggregator.subscribe { _ in }
    let b = aggregator.subscribe { _ in }
    #expect(a == a)
    #expect(a != b)
    #expect(Set([a, a, b]).count == 2)
  }

  @Test func outlivingItsAggregatorIsHarmless() {
    var subscription: RaspSubscription?
    do {
      let aggregator = RaspAggregator(initial: Count())
      subscription = aggregator.subscribe { _ in }
    }
    subscription?.cancel()
    #expect(subscription?.isCancelled == true)
  }
}
