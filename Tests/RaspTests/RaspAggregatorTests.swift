import Testing
import Rasp

fileprivate struct Tally: RaspState, Equatable, Sendable {
  enum Event: Sendable, Equatable { case increment, decrement, touch, mark }
  struct Underflow: Error, Equatable {}

  var count = 0
  var history: [Int] = []
  var marks: [Int] = []

  mutating func apply(event: Event) throws {
    switch event {
    case .increment:
      count += 1
      history.append(count)
    case .decrement:
      history.append(count - 1)  // changes first, then throws: must be rolled back
      guard count > 0 else { throw Underflow() }
      count -= 1
    case .touch:
      break
    case .mark:
      marks.append(count)
    }
  }
}

@Suite struct RaspAggregatorTests {
  @Test func appliesAnEventOnTheCallersThreadBeforeSendReturns() {
    let aggregator = RaspAggregator(initial: Tally())
    let seen = Recorder<Int>()
    let subscription = aggregator.subscribe { seen.record($0.count) }
    aggregator.send(.increment)
    #expect(aggregator.current.count == 1)
    #expect(seen.values == [0, 1])
    subscription.cancel()
  }

  @Test func queuesAnEventSentFromASubscriberUntilEverySubscriberHasSeenTheCurrentSnapshot() {
    // The RaspSwift bug: B heard 2 before 1, because A's send was delivered inside A's callback.
    //   step      subscribe   send(i)         (A sends i on hearing 1)
    //   A hears   0           1       2
    //   B hears   0           1       2
    //   log       A0 B0       A1 B1   A2 B2
    let aggregator = RaspAggregator(initial: Tally())
    let log = Recorder<String>()
    let currentInsideA = Recorder<Int>()
    let a = aggregator.subscribe { state in
      log.record("A\(state.count)")
      if state.count == 1 {
        aggregator.send(.increment)
        currentInsideA.record(aggregator.current.count)  // still 1: the event is only queued
      }
    }
    let b = aggregator.subscribe { log.record("B\($0.count)") }
    aggregator.send(.increment)
    #expect(log.values == ["A0", "B0", "A1", "B1", "A2", "B2"])
    #expect(currentInsideA.values == [1])
    #expect(aggregator.current.count == 2)
    a.cancel()
    b.cancel()
  }

  @Test func appliesABatchInOrderAndEventsSentDuringItAfterIt() {
    //   batch          i   i   i
    //   A sends            d           (on hearing 1: applied after the whole batch)
    //   counts     0   1   2   3   2
    let aggregator = RaspAggregator(initial: Tally())
    let counts = Recorder<Int>()
    let subscription = aggregator.subscribe { state in
      counts.record(state.count)
      if state.count == 1 && state.history == [1] { aggregator.send(.decrement) }
    }
    aggregator.send(contentsOf: [.increment, .increment, .increment])
    #expect(counts.values == [0, 1, 2, 3, 2])
    subscription.cancel()
  }

  @Test func keepsTheStateAndReportsTheEventWhenAReducerThrowsThenGoesOn() {
    let aggregator = RaspAggregator(initial: Tally())
    let log = Recorder<String>()
    let states = aggregator.subscribe { log.record("state \($0.count) \($0.history)") }
    let failures = aggregator.subscribeFailures { failure in
      log.record("failure \(failure.origin) \(failure.event.map { "\($0)" } ?? "none")")
      #expect(failure.error is Tally.Underflow)
    }
    aggregator.send(.decrement)
    aggregator.send(.increment)
    #expect(log.values == ["state 0 []", "failure event decrement", "state 1 [1]"])
    #expect(aggregator.current == Tally(count: 1, history: [1]))
    states.cancel()
    failures.cancel()
  }

  @Test func rollsBackAFailedCompositeReportsItAndAppliesTheFallback() {
    let aggregator = RaspAggregator(initial: Tally())
    let counts = Recorder<Int>()
    let failures = Recorder<RaspFailure<Tally>>()
    let a = aggregator.subscribe { counts.record($0.count) }
    let b = aggregator.subscribeFailures { failures.record($0) }
    aggregator.send(composite: [.increment, .decrement, .decrement], fallback: .increment)
    #expect(counts.values == [0, 1])  // one snapshot: the fallback's
    #expect(aggregator.current.history == [1])  // nothing of the composite survived
    #expect(failures.values.map(\.origin) == [.composite])
    #expect(failures.values.first?.event == .decrement)
    #expect((failures.values.first?.error as? RaspCompositeError)?.index == 2)
    a.cancel()
    b.cancel()
  }

  @Test func deliversOneSnapshotForASuccessfulComposite() {
    let aggregator = RaspAggregator(initial: Tally())
    let counts = Recorder<Int>()
    let subscription = aggregator.subscribe { counts.record($0.count) }
    aggregator.send(composite: [.increment, .increment, .increment])
    #expect(counts.values == [0, 3])
    subscription.cancel()
  }

  @Test func reportsAFallbackThatFailsToo() {
    let aggregator = RaspAggregator(initial: Tally())
    let failures = Recorder<RaspFailure<Tally>.Origin>()
    let subscription = aggregator.subscribeFailures { failures.record($0.origin) }
    aggregator.send(composite: [.decrement], fallback: .decrement)
    #expect(failures.values == [.composite, .fallback])
    #expect(aggregator.current == Tally())
    subscription.cancel()
  }

  @Test func emitsEveryAppliedEventByDefault() {
    let aggregator = RaspAggregator(initial: Tally())
    let counts = Recorder<Int>()
    let subscription = aggregator.subscribe { counts.record($0.count) }
    aggregator.send(contentsOf: [.touch, .increment, .touch])
    #expect(counts.values == [0, 0, 1, 1])
    subscription.cancel()
  }

  @Test func emitsOnlyChangesWhenTheStateOptsIn() {
    let aggregator = RaspAggregator(initial: Tally(), emission: .whenChanged)
    let counts = Recorder<Int>()
    let subscription = aggregator.subscribe { counts.record($0.count) }
    aggregator.send(contentsOf: [.touch, .increment, .touch])
    #expect(counts.values == [0, 1])
    subscription.cancel()
  }

  @Test func appliesEveryEventExactlyOnceUnderConcurrentSenders() async {
    let senders = 8
    let eventsPerSender = 500
    let total = senders * eventsPerSender
    let aggregator = RaspAggregator(initial: Tally())
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let a = aggregator.subscribe { first.record($0.count) }
    let b = aggregator.subscribe { second.record($0.count) }
    let c = aggregator.subscribe { state in
      // A reentrant send from a subscriber, while other threads keep sending.
      if state.count > 0 && state.count % 100 == 0 && state.marks.last != state.count {
        aggregator.send(.mark)
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<senders {
        group.addTask {
          for _ in 0..<eventsPerSender { aggregator.send(.increment) }
        }
      }
    }
    let snapshots = 1 + total + total / 100  // the first, one per increment, one per mark
    let seenByFirst = await first.first(snapshots)
    let seenBySecond = await second.first(snapshots)
    let final = aggregator.current
    #expect(final.count == total)
    #expect(final.history == Array(1...total))
    #expect(final.marks.count == total / 100)
    #expect(final.marks.enumerated().allSatisfy { index, mark in mark >= (index + 1) * 100 })
    #expect(seenByFirst == seenBySecond)
    #expect(seenByFirst.removingRepeats() == Array(0...total))
    #expect(first.values.count == snapshots)
    a.cancel()
    b.cancel()
    c.cancel()
  }
}

extension RaspAggregatorTests {
  @Test func readersOfCurrentSeeOnlyWholeSnapshotsWhileOthersSend() async {
    // Every increment appends the new count to the history, so a consistent snapshot always
    // has history == [1...count]; a torn read would break that.
    let aggregator = RaspAggregator(initial: Tally())
    let total = 4 * 400
    let readings = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<400 { aggregator.send(.increment) }
          return []
        }
      }
      for _ in 0..<2 {
        group.addTask {
          var counts: [Int] = []
          for _ in 0..<2_000 {
            let snapshot = aggregator.current
            guard snapshot.history.count == snapshot.count,
              snapshot.history.last == (snapshot.count == 0 ? nil : snapshot.count)
            else { return [-1] }
            counts.append(snapshot.count)
          }
          return counts
        }
      }
      var all: [[Int]] = []
      for await counts in group { all.append(counts) }
      return all
    }
    for counts in readings where !counts.isEmpty {
      #expect(!counts.contains(-1), "a reader saw a torn snapshot")
      #expect(
        zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "a reader saw the state go back")
    }
    #expect(aggregator.current.count == total)
  }
}

extension Array where Element: Equatable {
  /// The elements without consecutive repeats: `[0, 1, 1, 2]` becomes `[0, 1, 2]`.
  fileprivate func removingRepeats() -> [Element] {
    var result: [Element] = []
    for element in self where result.last != element { result.append(element) }
    return result
  }
}
