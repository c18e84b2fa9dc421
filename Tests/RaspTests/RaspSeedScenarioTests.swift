import Testing
import Rasp

// The scenarios of RaspSwift's README, ported. The seed drove them with RxSwift interval timers
// (every 0.3 s and every 0.5 s); here each timer is an AsyncStream that the test drives by hand,
// awaiting every event's snapshot before the next tick, so the order is the timers' order and
// nothing sleeps.

fileprivate struct Event1: RaspEvent {
  let value: Int
}

fileprivate struct MyRestState: RaspState, Sendable {
  var links: [String: String] = [:]

  mutating func apply(event: any RaspEvent) {
    if let event1 = event as? Event1 {
      links["\(event1.value)"] = "\(event1.value)"
    }
  }
}

fileprivate struct HeadingChanged: RaspEvent {
  var degrees: Double
}

fileprivate struct LocationChanged: RaspEvent {
  var latitude: Double
  var longitude: Double
}

fileprivate struct Location: Equatable, Sendable {
  var latitude = 0.0
  var longitude = 0.0
}

fileprivate struct GeoState: RaspState, Sendable {
  var heading = 0.0
  var location = Location()

  static let reducer = RaspReducer<GeoState, any RaspEvent> {
    RaspReducer.field(\.heading) { heading, event in
      if let event = event as? HeadingChanged { heading = event.degrees }
    }
    RaspReducer.field(\.location) { location, event in
      if let event = event as? LocationChanged {
        location = Location(latitude: event.latitude, longitude: event.longitude)
      }
    }
  }

  mutating func apply(event: any RaspEvent) throws {
    try Self.reducer.reduce(into: &self, event: event)
  }
}

@Suite(.hangGuard) struct RaspSeedScenarioTests {
  @Test func restLinksFromTwoIntervalSourcesCountOneToFive() async {
    //   time (s)   0.3  0.5  0.6  0.9  1.0  1.2  1.5  1.5  2.0  2.5
    //   fast       0    -    1    2    -    3    4    -    -    -
    //   slow       -    0    -    -    1    -    -    2    3    4
    //   count      1    1    2    3    3    4    5    5    5    5
    //   select     1    -    2    3    -    4    5    -    -    -
    let (fast, fastTicks) = AsyncStream.makeStream(of: (any RaspEvent).self)
    let (slow, slowTicks) = AsyncStream.makeStream(of: (any RaspEvent).self)
    let aggregator = RaspAggregator(
      initial: MyRestState(), sources: RaspSource(fast), RaspSource(slow))
    let states = Recorder<Int>()
    let counts = Recorder<Int>()
    let stateSubscription = aggregator.subscribe { states.record($0.links.count) }
    let selection = aggregator.select({ $0.links.count }) { counts.record($0) }

    let ticks: [(AsyncStream<any RaspEvent>.Continuation, Int)] = [
      (fastTicks, 0), (slowTicks, 0), (fastTicks, 1), (fastTicks, 2), (slowTicks, 1),
      (fastTicks, 3), (fastTicks, 4), (slowTicks, 2), (slowTicks, 3), (slowTicks, 4),
    ]
    for (applied, (timer, value)) in ticks.enumerated() {
      timer.yield(Event1(value: value))
      _ = await states.first(applied + 2)  // the snapshot on subscribe, then one per tick
    }

    #expect(states.values == [0, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5])
    // The seed's scan emitted no initial state; ours delivers the current snapshot on subscribe,
    // so the selector reports the empty state's 0 before the seed's 1, 2, 3, 4, 5.
    #expect(counts.values == [0, 1, 2, 3, 4, 5])
    #expect(aggregator.current.links.keys.sorted() == ["0", "1", "2", "3", "4"])
    stateSubscription.cancel()
    selection.cancel()
  }

  @Test func geolocationCombinesIndependentlyUpdatedHeadingAndLocation() async {
    //   step       subscribe  1    2    3    4    5
    //   compass               90        180
    //   gps                        A         B    B
    //   heading    0          90        180
    //   location   0               A         B
    let (compass, compassInput) = AsyncStream.makeStream(of: (any RaspEvent).self)
    let (gps, gpsInput) = AsyncStream.makeStream(of: (any RaspEvent).self)
    let aggregator = RaspAggregator(
      initial: GeoState(), sources: RaspSource(compass), RaspSource(gps))
    let snapshots = Recorder<Int>()
    let headings = Recorder<Double>()
    let locations = Recorder<Location>()
    let all = aggregator.subscribe { _ in snapshots.record(0) }
    let heading = aggregator.select(\.heading) { headings.record($0) }
    let location = aggregator.select(\.location) { locations.record($0) }

    let a = Location(latitude: 52.52, longitude: 13.40)
    let b = Location(latitude: 52.53, longitude: 13.41)
    let inputs: [(AsyncStream<any RaspEvent>.Continuation, any RaspEvent)] = [
      (compassInput, HeadingChanged(degrees: 90)),
      (gpsInput, LocationChanged(latitude: a.latitude, longitude: a.longitude)),
      (compassInput, HeadingChanged(degrees: 180)),
      (gpsInput, LocationChanged(latitude: b.latitude, longitude: b.longitude)),
      (gpsInput, LocationChanged(latitude: b.latitude, longitude: b.longitude)),
    ]
    for (applied, (input, event)) in inputs.enumerated() {
      input.yield(event)
      _ = await snapshots.first(applied + 2)
    }

    #expect(headings.values == [0, 90, 180])
    #expect(locations.values == [Location(), a, b])
    #expect(aggregator.current.heading == 180)
    #expect(aggregator.current.location == b)
    all.cancel()
    heading.cancel()
    location.cancel()
  }
}
