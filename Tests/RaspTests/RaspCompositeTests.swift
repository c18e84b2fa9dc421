import Testing

@testable import Rasp

fileprivate typealias Tally = NonNegativeTally

@Suite(.hangGuard) struct RaspCompositeTests {
  @Test func flattensNestedCompositesDepthFirstInOrder() {
    let composite: RaspComposite<Int> = [
      .event(1), [.event(2), [.event(3)], .event(4)], [], .event(5),
    ]
    #expect(composite.events == [1, 2, 3, 4, 5])
    #expect(RaspComposite<Int>.event(7).events == [7])
    #expect(RaspComposite(events: 1...3).events == [1, 2, 3])
    var deep = RaspComposite<Int>.event(0)
    for level in 1...1_000 { deep = [deep, .event(level)] }
    #expect(deep.events == Array(0...1_000))
  }

  @Test func appliesANestedCompositeAllOrNothing() {
    //   count 0; composite [+2, [+3, [-1]], +4]  → 8, one snapshot
    //   count 8; composite [+1, [-20]] fails at flattened index 1 → stays 8; fallback +10 → 18
    let aggregator = RaspAggregator(initial: Tally())
    let snapshots = Recorder<Int>()
    let failures = Recorder<RaspFailure<Tally>>()
    let subscription = aggregator.subscribe { snapshots.record($0.count) }
    let failing = aggregator.subscribeFailures { failures.record($0) }
    aggregator.send(composite: [.event(2), [.event(3), [.event(-1)]], .event(4)])
    aggregator.send(composite: [.event(1), [.event(-20)]], fallback: 10)
    #expect(snapshots.values == [0, 8, 18])
    #expect(failures.values.count == 1)
    #expect(failures.values.first?.origin == .composite)
    #expect(failures.values.first?.event == -20)
    #expect((failures.values.first?.error as? RaspCompositeError)?.index == 1)
    subscription.cancel()
    failing.cancel()
  }

  @Test func failuresCarryTheStateTheyLeftUnchanged() {
    //   count 5; event -9 rejected → carries 5
    //   count 5; composite [+1, -20] rolls back, fallback +10 → 15; the composite's failure
    //            carries 5 (what it was applied to), not 15
    //   count 15; composite [-30] rolls back, fallback -40 rejected too → both carry 15
    let aggregator = RaspAggregator(initial: Tally(count: 5))
    let failures = Recorder<RaspFailure<Tally>>()
    let failing = aggregator.subscribeFailures { failures.record($0) }
    aggregator.send(-9)
    aggregator.send(composite: [1, -20], fallback: 10)
    aggregator.send(composite: [-30], fallback: -40)
    #expect(failures.values.map(\.origin) == [.event, .composite, .composite, .fallback])
    #expect(failures.values.map(\.state.count) == [5, 5, 15, 15])
    #expect(failures.values.map(\.event) == [-9, -20, -30, -40])
    #expect(aggregator.current.count == 15)
    failing.cancel()
  }

  @Test func completesAnEmptyCompositeAtOnceWithoutASnapshot() {
    let aggregator = RaspAggregator(initial: Tally())
    let snapshots = Recorder<Int>()
    let subscription = aggregator.subscribe { snapshots.record($0.count) }
    aggregator.send(composite: [Int]())
    aggregator.send(composite: RaspComposite<Int>.composite([[], [[]]]))
    aggregator.send(1)
    #expect(snapshots.values == [0, 1])
    subscription.cancel()
  }

  @Test func takesAnySequenceOfEvents() {
    let aggregator = RaspAggregator(initial: Tally())
    aggregator.send(composite: repeatElement(2, count: 3))
    aggregator.send(composite: (1...4).lazy.map { $0 * 10 })
    aggregator.send(composite: Set([-1]), fallback: nil)
    #expect(aggregator.current.count == 105)
  }
}
