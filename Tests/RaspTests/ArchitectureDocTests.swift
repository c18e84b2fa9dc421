import Testing
import Rasp

// The examples of docs/architecture.md, run. Where the page prints, these tests record, and they
// expect what the page's comments say was printed. Change both together.

fileprivate struct Counter: RaspState, Sendable {
  enum Event: Sendable { case increment, decrement }
  struct Underflow: Error {}

  var count = 0

  mutating func apply(event: Event) throws {
    switch event {
    case .increment:
      count += 1
    case .decrement:
      guard count > 0 else { throw Underflow() }
      count -= 1
    }
  }
}

fileprivate struct GeoState: RaspState, Sendable {
  struct Location: Equatable, Sendable { var latitude = 0.0, longitude = 0.0 }
  enum Event: Sendable { case heading(Double), fix(latitude: Double, longitude: Double) }

  var heading = 0.0
  var location = Location()

  static let locationReducer = RaspReducer<Location, Event> {
    RaspReducer.field(\.latitude) { latitude, event in
      if case .fix(let fixed, _) = event { latitude = fixed }
    }
    RaspReducer.field(\.longitude) { longitude, event in
      if case .fix(_, let fixed) = event { longitude = fixed }
    }
  }

  static let reducer = RaspReducer<GeoState, Event> {
    RaspReducer.field(\.heading) { heading, event in
      if case .heading(let degrees) = event { heading = degrees }
    }
    RaspReducer.field(\.location, locationReducer)
  }

  mutating func apply(event: Event) throws {
    try Self.reducer.reduce(into: &self, event: event)
  }
}

fileprivate struct Items: RaspState, Sendable {
  var items: [String] = []
  mutating func apply(event: String) { items.append(event) }
}

@Suite(.hangGuard) struct ArchitectureDocTests {
  @Test func openingExample() async {
    let printed = Recorder<String>()
    let (taps, tapInput) = AsyncStream.makeStream(of: Counter.Event.self)
    let aggregator = RaspAggregator(initial: Counter(), sources: RaspSource(taps))

    let counts = aggregator.select(\.count) { printed.record("count \($0)") }
    let failures = aggregator.subscribeFailures { printed.record("\($0)") }

    aggregator.send(.increment)
    aggregator.send(.decrement)
    aggregator.send(.decrement)
    tapInput.yield(.increment)

    #expect(
      await printed.first(5) == [
        "count 0", "count 1", "count 0", "event decrement rejected: Underflow()", "count 1",
      ])
    counts.cancel()
    failures.cancel()
  }

  @Test func replayExample() {
    var pipeline = RaspPipeline(initial: Counter())
    for event in [Counter.Event.increment, .increment, .decrement] {
      _ = try? pipeline.send(event)
    }
    #expect(pipeline.current.count == 1)
  }

  @Test func orderingTable() {
    // Imperative sends stand in for the sources; B's callback sends `a2` at tick 3 to play
    // source `a` producing it while B is being called.
    let aggregator = RaspAggregator(initial: Items())
    let log = Recorder<String>()
    let a = aggregator.subscribe { state in
      log.record("A \(state.items)")
      if state.items == ["a1", "b1"] { aggregator.send("x") }
    }
    let b = aggregator.subscribe { state in
      if state.items == ["a1", "b1"] { aggregator.send("a2") }
      log.record("B \(state.items)")
    }
    aggregator.send("a1")
    aggregator.send("b1")
    #expect(
      log.values == [
        "A []", "B []",  // tick 0
        "A [\"a1\"]", "B [\"a1\"]",  // tick 1
        "A [\"a1\", \"b1\"]",  // tick 2
        "B [\"a1\", \"b1\"]",  // tick 4
        "A [\"a1\", \"b1\", \"x\"]", "B [\"a1\", \"b1\", \"x\"]",  // tick 5
        "A [\"a1\", \"b1\", \"x\", \"a2\"]", "B [\"a1\", \"b1\", \"x\", \"a2\"]",  // tick 6
      ])
    a.cancel()
    b.cancel()
  }

  @Test func mergeSortedTable() {
    let compass = [(t: 1, "N"), (t: 4, "E")]
    let gps = [(t: 2, "52.5,13.4"), (t: 4, "52.6,13.4")]
    let merged = mergeSorted([compass, gps], sortedBy: { $0.t < $1.t })
    #expect(merged.map(\.1) == ["N", "52.5,13.4", "E", "52.6,13.4"])
  }

  @Test func subStateExample() {
    let printed = Recorder<String>()
    let geo = RaspAggregator(initial: GeoState())
    let headings = geo.select(\.heading) { printed.record("heading \($0)") }
    let latitudes = geo.select(\.location.latitude) { printed.record("lat \($0)") }
    geo.send(.heading(90))
    geo.send(.fix(latitude: 52.5, longitude: 13.4))
    #expect(printed.values == ["heading 0.0", "lat 0.0", "heading 90.0", "lat 52.5"])
    #expect(geo.current.location == GeoState.Location(latitude: 52.5, longitude: 13.4))
    headings.cancel()
    latitudes.cancel()
  }

  @Test func comingFromTheSeedsExample() async {
    let printed = Recorder<String>()
    let (simulated, simulator) = AsyncStream.makeStream(of: GeoState.Event.self)
    let (measured, compass) = AsyncStream.makeStream(of: GeoState.Event.self)
    let heading = RaspSwitchableSource<GeoState.Event>(name: "heading")
    heading.jump(to: RaspSource(simulated))
    let geo = RaspAggregator(initial: GeoState(), sources: heading.source)

    let changes = geo.subscribeChanges { change in
      printed.record("\(change.event.map { "\($0)" } ?? "at subscription") \(change.state.heading)")
    }
    simulator.yield(.heading(45))
    _ = await printed.first(2)
    heading.jump(to: RaspSource(measured))
    simulator.yield(.heading(50))
    compass.yield(.heading(90))
    _ = await printed.first(3)

    await geo.run { .fix(latitude: 52.5, longitude: 13.4) }.value

    let failures = geo.subscribeFailures { failure in
      printed.record("\(failure.origin) \(failure.state.heading)")
    }
    struct Offline: Error {}
    await geo.run { throw Offline() }.value
    #expect(
      printed.values == [
        "at subscription 0.0", "heading(45.0) 45.0", "heading(90.0) 90.0",
        "fix(latitude: 52.5, longitude: 13.4) 90.0", "action 90.0",
      ])
    changes.cancel()
    failures.cancel()
  }
}
