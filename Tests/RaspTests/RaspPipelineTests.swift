import Testing
import Rasp

fileprivate struct Counter: RaspState, Equatable {
  enum Event { case increment, decrement, touch }
  struct Underflow: Error {}
  var count = 0
  var history: [Int] = []

  mutating func apply(event: Event) throws {
    switch event {
    case .increment: count += 1; history.append(count)
    case .decrement:
      history.append(count - 1)  // mutates first, then throws: must be rolled back
      guard count > 0 else { throw Underflow() }
      count -= 1
    case .touch: break
    }
  }
}

@Suite struct RaspPipelineTests {
  @Test func appliesEventsInOrder() throws {
    var pipeline = RaspPipeline(initial: Counter())
    try pipeline.send(.increment)
    try pipeline.send(.increment)
    #expect(pipeline.current.count == 2)
    #expect(pipeline.current.history == [1, 2])
  }

  @Test func rollsBackAThrowingReducer() throws {
    var pipeline = RaspPipeline(initial: Counter())
    #expect(throws: Counter.Underflow.self) { try pipeline.send(.decrement) }
    #expect(pipeline.current == Counter())
  }

  @Test func emitsEveryEventByDefaultAndOnlyChangesWhenAsked() throws {
    var always = RaspPipeline(initial: Counter())
    #expect(try always.send(.touch))
    var changes = RaspPipeline(initial: Counter(), emission: .whenChanged)
    #expect(try changes.send(.touch) == false)
    #expect(try changes.send(.increment))
  }

  @Test func compositeRollsBackAndAppliesFallback() {
    var pipeline = RaspPipeline(initial: Counter())
    let outcome = pipeline.send(
      composite: [.increment, .decrement, .decrement], fallback: .increment)
    #expect(outcome.failure?.index == 2)
    #expect(outcome.emitted)
    #expect(pipeline.current.count == 1)
    #expect(pipeline.current.history == [1])
  }

  @Test func selectorEmitsOnlyOnChange() {
    var selector = RaspSelector(\Counter.count)
    let values = [0, 0, 1, 1, 2, 1].map { Counter(count: $0) }.compactMap {
      selector.select(from: $0)
    }
    #expect(values == [0, 1, 2, 1])
  }

  @Test func mergeSortedIsStableAndKeepsSourceOrder() {
    let a = [(1, "a"), (3, "c"), (3, "e")]
    let b = [(2, "b"), (3, "d"), (0, "f")]
    let merged = mergeSorted([a, b], sortedBy: { $0.0 < $1.0 }).map(\.1).joined()
    #expect(merged == "abcedf")
  }
}
