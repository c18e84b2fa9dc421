import Rasp
import Synchronization
import Testing

// The library example of README.md, verbatim apart from recording what it prints.
fileprivate struct Counter: RaspState {
  enum Event { case increment, decrement }
  var count = 0
  mutating func apply(event: Event) {
    switch event {
    case .increment: count += 1
    case .decrement: count -= 1
    }
  }
}

@Suite struct ReadmeExampleTests {
  @Test func counterExamplePrintsTheCurrentCountThenEachChange() {
    let printed = Mutex<[Int]>([])
    let aggregator = RaspAggregator(initial: Counter())
    let subscription = aggregator.select(\.count) { value in printed.withLock { $0.append(value) } }
    aggregator.send(.increment)
    #expect(printed.withLock { $0 } == [0, 1])
    subscription.cancel()
  }
}
