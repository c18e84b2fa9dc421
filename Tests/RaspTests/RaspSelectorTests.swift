import Testing
import Rasp

/// Equatable by identity, so that a test can watch its lifetime.
fileprivate final class Token: Equatable, Sendable {
  static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
}

fileprivate struct Snapshot {
  struct Place: Equatable {
    var name: String
    var latitude: Double
  }

  var flag = false
  var count = 0
  var title = "start"
  var tags: [String] = []
  var place = Place(name: "home", latitude: 1.5)
  var pair = (8, "eight")
  var optionalPlace: Place? = nil
  var token = Token()

  var doubled: Int { count * 2 }
}

fileprivate final class Box {
  var count = 3
}

@Suite struct RaspSelectorTests {
  @Test func readsStoredPropertiesOfEveryKindLikeTheirKeyPaths() {
    let snapshot = Snapshot(
      flag: true, count: 7, title: "a title that is too long to be stored inline",
      tags: ["x", "y"], place: Snapshot.Place(name: "work", latitude: 52.5))
    #expect(RaspSelector(\Snapshot.flag).read(snapshot) == true)
    #expect(RaspSelector(\Snapshot.count).read(snapshot) == 7)
    #expect(RaspSelector(\Snapshot.title).read(snapshot) == snapshot.title)
    #expect(RaspSelector(\Snapshot.tags).read(snapshot) == ["x", "y"])
    #expect(RaspSelector(\Snapshot.place).read(snapshot) == snapshot.place)
    #expect(RaspSelector(\Snapshot.place.name).read(snapshot) == "work")
    #expect(RaspSelector(\Snapshot.place.latitude).read(snapshot) == 52.5)
    #expect(RaspSelector(\Snapshot.pair.1).read(snapshot) == "eight")
  }

  @Test func readsComputedAndOptionalChainedPathsThroughTheKeyPath() {
    var snapshot = Snapshot(count: 4)
    #expect(RaspSelector(\Snapshot.doubled).read(snapshot) == 8)
    #expect(RaspSelector(\Snapshot.optionalPlace?.name).read(snapshot) == nil)
    snapshot.optionalPlace = Snapshot.Place(name: "away", latitude: 0)
    #expect(RaspSelector(\Snapshot.optionalPlace?.name).read(snapshot) == "away")
  }

  @Test func readsAPropertyOfAClassThroughTheKeyPath() {
    let box = Box()
    let selector = RaspSelector(\Box.count)
    #expect(selector.read(box) == 3)
    box.count = 5
    #expect(selector.read(box) == 5)
  }

  @Test func keepsReferenceCountsRightWhenReadingAReferenceField() {
    weak var first: Token?
    weak var second: Token?
    do {
      var selector = RaspSelector(\Snapshot.token)
      var snapshot = Snapshot()
      first = snapshot.token
      for _ in 0..<1_000 { _ = selector.select(from: snapshot) }
      snapshot.token = Token()
      second = snapshot.token
      #expect(selector.select(from: snapshot) === second)
      #expect(first == nil)  // neither the snapshot nor the selector holds it any more
      #expect(second != nil)
    }
    #expect(second == nil)
  }

  @Test func reportsOnlyChangesWhateverTheReader() {
    var stored = RaspSelector(\Snapshot.count)
    var computed = RaspSelector(\Snapshot.doubled)
    var closure = RaspSelector { (snapshot: Snapshot) in snapshot.count.isMultiple(of: 2) }
    let counts = [0, 0, 1, 1, 2, 3]
    let snapshots = counts.map { Snapshot(count: $0) }
    #expect(snapshots.compactMap { stored.select(from: $0) } == [0, 1, 2, 3])
    #expect(snapshots.compactMap { computed.select(from: $0) } == [0, 2, 4, 6])
    #expect(snapshots.compactMap { closure.select(from: $0) } == [true, false, true, false])
  }
}
