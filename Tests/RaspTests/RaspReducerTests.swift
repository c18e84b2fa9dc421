import Testing
import Rasp

/// A geolocation state assembled from reducers that each own one field, nested ones included.
fileprivate struct Geo: RaspState, Equatable, Sendable {
  struct Location: Equatable, Sendable {
    var latitude = 0.0
    var longitude = 0.0
    var fixes = 0
  }

  enum Event: Sendable {
    case heading(Double)
    case fix(latitude: Double, longitude: Double)
    case invalidHeading
  }

  struct InvalidHeading: Error {}

  var heading = 0.0
  var location = Location()

  /// The sub-state's own reducer, built from field reducers of `Location`…
  static let locationReducer = RaspReducer<Location, Event> {
    RaspReducer.field(\.latitude) { latitude, event in
      if case .fix(let fixed, _) = event { latitude = fixed }
    }
    RaspReducer.field(\.longitude) { longitude, event in
      if case .fix(_, let fixed) = event { longitude = fixed }
    }
    RaspReducer.field(\.fixes) { fixes, event in
      if case .fix = event { fixes += 1 }
    }
  }

  /// …lifted into the parent next to a reducer of a top-level field.
  static let reducer = RaspReducer<Geo, Event> {
    RaspReducer.field(\.location, locationReducer)
    RaspReducer.field(\.heading) { heading, event in
      switch event {
      case .heading(let degrees): heading = degrees
      case .invalidHeading: throw InvalidHeading()
      case .fix: break
      }
    }
  }

  mutating func apply(event: Event) throws {
    try Self.reducer.reduce(into: &self, event: event)
  }
}

@Suite struct RaspReducerTests {
  @Test func eachFieldReducerChangesOnlyItsField() throws {
    var geo = Geo()
    try geo.apply(event: .heading(90))
    #expect(geo == Geo(heading: 90, location: Geo.Location()))
    try geo.apply(event: .fix(latitude: 52.5, longitude: 13.4))
    #expect(
      geo == Geo(heading: 90, location: Geo.Location(latitude: 52.5, longitude: 13.4, fixes: 1)))
  }

  @Test func composesANestedKeyPathDirectly() throws {
    let reducer = RaspReducer<Geo, Geo.Event>.field(\.location.latitude) { latitude, event in
      if case .fix(let fixed, _) = event { latitude = fixed }
    }
    var geo = Geo()
    try reducer.reduce(into: &geo, event: .fix(latitude: 1, longitude: 2))
    #expect(geo.location == Geo.Location(latitude: 1, longitude: 0, fixes: 0))
  }

  @Test func aThrowingFieldLeavesTheWholeStateAsItWasInAPipeline() {
    // The location reducer runs before the heading reducer throws; the pipeline's rollback
    // discards its change too.
    var pipeline = RaspPipeline(initial: Geo())
    #expect(throws: Geo.InvalidHeading.self) { try pipeline.send(.invalidHeading) }
    #expect(pipeline.current == Geo())
  }

  @Test func combinesInOrder() throws {
    let double = RaspReducer<Int, Int> { state, _ in state *= 2 }
    let add = RaspReducer<Int, Int> { state, event in state += event }
    var state = 1
    try RaspReducer.combine(double, add).reduce(into: &state, event: 3)  // 1 * 2 + 3
    try add.combined(with: double).reduce(into: &state, event: 3)  // (5 + 3) * 2
    try RaspReducer.combine([]).reduce(into: &state, event: 100)
    try RaspReducer<Int, Int>.empty.reduce(into: &state, event: 100)
    #expect(state == 16)
  }

  @Test func stopsAtTheFirstError() {
    struct Stop: Error {}
    let log = Recorder<String>()
    let first = RaspReducer<Int, Int> { _, _ in log.record("first") }
    let failing = RaspReducer<Int, Int> { _, _ in throw Stop() }
    let never = RaspReducer<Int, Int> { _, _ in log.record("never") }
    var state = 0
    #expect(throws: Stop.self) {
      try RaspReducer.combine(first, failing, never).reduce(into: &state, event: 0)
    }
    #expect(log.values == ["first"])
  }

  @Test func drivesAnAggregator() {
    let aggregator = RaspAggregator(initial: Geo())
    let headings = Recorder<Double>()
    let fixes = Recorder<Int>()
    let a = aggregator.select(\.heading) { headings.record($0) }
    let b = aggregator.select(\.location.fixes) { fixes.record($0) }
    aggregator.send(contentsOf: [
      .heading(10), .fix(latitude: 1, longitude: 1), .heading(20), .invalidHeading,
    ])
    #expect(headings.values == [0, 10, 20])
    #expect(fixes.values == [0, 1])
    a.cancel()
    b.cancel()
  }
}
