import Testing
import Rasp

/// Equatable but deliberately not Comparable: RaspSwift's selectors could not follow it.
fileprivate struct Coordinate: Equatable, Sendable {
  var latitude: Double
  var longitude: Double
}

fileprivate struct Position: RaspState, Sendable {
  enum Event: Sendable { case move(Coordinate), tick }
  var coordinate = Coordinate(latitude: 0, longitude: 0)
  var ticks = 0

  mutating func apply(event: Event) {
    switch event {
    case .move(let coordinate): self.coordinate = coordinate
    case .tick: ticks += 1
    }
  }
}

fileprivate let berlin = Coordinate(latitude: 52.52, longitude: 13.40)
fileprivate let paris = Coordinate(latitude: 48.86, longitude: 2.35)

@Suite struct RaspAggregatorSelectTests {
  @Test func reportsAKeyPathFieldNowAndThenOnlyWhenItChanges() {
    //   events      -b--t--b--p--t-
    //   coordinate  0 b  b  b  p  p
    //   selected    0 b        p
    let aggregator = RaspAggregator(initial: Position())
    let seen = Recorder<Coordinate>()
    let subscription = aggregator.select(\.coordinate) { seen.record($0) }
    aggregator.send(contentsOf: [.move(berlin), .tick, .move(berlin), .move(paris), .tick])
    #expect(seen.values == [Coordinate(latitude: 0, longitude: 0), berlin, paris])
    subscription.cancel()
  }

  @Test func followsANestedKeyPath() {
    let aggregator = RaspAggregator(initial: Position())
    let seen = Recorder<Double>()
    let subscription = aggregator.select(\.coordinate.latitude) { seen.record($0) }
    let sameLatitude = Coordinate(latitude: 52.52, longitude: 0)
    aggregator.send(contentsOf: [.move(berlin), .move(sameLatitude), .move(paris)])
    #expect(seen.values == [0, 52.52, 48.86])
    subscription.cancel()
  }

  @Test func reportsAComputedValueOnlyWhenItChanges() {
    let aggregator = RaspAggregator(initial: Position())
    let seen = Recorder<Bool>()
    let subscription = aggregator.select({ $0.ticks.isMultiple(of: 2) }) { seen.record($0) }
    aggregator.send(contentsOf: [.tick, .tick, .move(paris), .tick])
    #expect(seen.values == [true, false, true, false])
    subscription.cancel()
  }

  @Test func startsFromTheLastValueOfTheSelectorItIsGiven() {
    let aggregator = RaspAggregator(initial: Position())
    var selector = RaspSelector(\Position.ticks)
    _ = selector.select(from: Position())  // remembers 0
    let seen = Recorder<Int>()
    let subscription = aggregator.select(selector) { seen.record($0) }
    aggregator.send(.tick)
    #expect(seen.values == [1])
    subscription.cancel()
  }

  @Test func eachSelectionRemembersItsOwnLastValue() {
    let aggregator = RaspAggregator(initial: Position())
    let early = Recorder<Int>()
    let late = Recorder<Int>()
    let a = aggregator.select(\.ticks) { early.record($0) }
    aggregator.send(.tick)
    let b = aggregator.select(\.ticks) { late.record($0) }
    aggregator.send(.tick)
    #expect(early.values == [0, 1, 2])
    #expect(late.values == [1, 2])
    a.cancel()
    b.cancel()
  }

  @Test(.hangGuard) func streamsAFieldNowAndThenOnlyWhenItChanges() async {
    let aggregator = RaspAggregator(initial: Position())
    let coordinates = aggregator.select(\.coordinate)
    let ticks = aggregator.select({ $0.ticks })
    aggregator.send(contentsOf: [.tick, .move(berlin), .move(berlin), .tick, .move(paris)])
    var seenCoordinates: [Coordinate] = []
    for await coordinate in coordinates {
      seenCoordinates.append(coordinate)
      if coordinate == paris { break }
    }
    var seenTicks: [Int] = []
    for await tick in ticks {
      seenTicks.append(tick)
      if tick == 2 { break }
    }
    #expect(seenCoordinates == [Coordinate(latitude: 0, longitude: 0), berlin, paris])
    #expect(seenTicks == [0, 1, 2])
  }
}
