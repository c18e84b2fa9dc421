import Foundation
import Rasp
import RaspDomains
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

/// Whether two values are the same in every respect their JSON can show: numbers of the same
/// kind (an integer or a double) and value, the double's bits included; strings of the same
/// UTF-8; objects with the same members in the same order. `==` is looser: `42 == 42.0`.
fileprivate func isIdentical(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
  case (.number(let x), .number(let y)):
    guard x.isInteger == y.isInteger else { return false }
    if x.isInteger { return x.exactInteger == y.exactInteger }
    return x.doubleValue.bitPattern == y.doubleValue.bitPattern
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy(isIdentical)
  case (.object(let x), .object(let y)):
    return x.count == y.count
      && zip(x.members, y.members).allSatisfy {
        Array($0.key.utf8) == Array($1.key.utf8) && isIdentical($0.value, $1.value)
      }
  default: return false
  }
}

/// The oracle: the member `name` of the state's JSON as `rasp check` read it before members
/// were read from typed states — the state encoded, the member located in its bytes and
/// parsed alone — `null` when there is none.
fileprivate func memberFromJSON<Domain: RaspDomain>(
  _ name: String, of state: Domain.State, in domain: Domain
) -> JSONValue {
  var writer = JSONWriter()
  domain.encode(state, into: &writer)
  return writer.bytes.withUnsafeBufferPointer { buffer in
    let path = JSONPath(components: [.key(name)])
    guard case .value(let range)? = try? path.locate(in: buffer) else { return .null }
    return (try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))) ?? .null
  }
}

/// The keys of the state's JSON object.
fileprivate func keys<Domain: RaspDomain>(of state: Domain.State, in domain: Domain) -> [String] {
  var writer = JSONWriter()
  domain.encode(state, into: &writer)
  guard case .object(let object)? = try? JSONParser.parse(writer.bytes) else { return [] }
  return object.keys
}

/// Checks, after each of `count` random events applied to the domain's initial state, that
/// every member of the state's JSON, and a name it lacks, reads from the typed state as from
/// the JSON; and that a domain of fixed members reads each of them (`all`).
fileprivate func checkMembers<Domain: RaspMemberReading>(
  of domain: Domain, count: Int = 2000, fixed: [String]? = nil,
  event: (inout RandomEvents) -> Domain.State.Event
) {
  var random = RandomEvents(seed: 0x3939)
  var state = domain.initialState
  var checked = 0
  // Each member's last value, for `read(_:in:into:)` to read the next in its room; first a
  // stale array, whatever the member.
  var rooms: [String: JSONValue] = [:]
  for step in 0...count {
    if step > 0 { try? state.apply(event: event(&random)) }
    let names = keys(of: state, in: domain)
    if let fixed { #expect(names == fixed, "the JSON's members after event \(step)") }
    for name in names + ["absent", ""] {
      guard let member = domain.member(named: name) else {
        #expect(!names.contains(name), "'\(name)' is not read from the typed state")
        continue
      }
      let typed = domain.value(of: member, in: state)
      let json = memberFromJSON(name, of: state, in: domain)
      #expect(isIdentical(typed, json), "'\(name)' after event \(step): \(typed) against \(json)")
      var room = rooms.removeValue(forKey: name) ?? [1, "stale", [true]]
      domain.read(member, in: state, into: &room)
      #expect(isIdentical(room, json), "'\(name)' read in room after event \(step): \(room)")
      rooms[name] = room
      checked += 1
    }
  }
  #expect(checked > count)
}

/// The spec domain of the `spec-cart` fixture, to read states of any shape through.
fileprivate func specDomain() throws -> RaspSpecDomain {
  let path = Repository.path("fixtures/spec-cart/cart.json")
  let text = try String(contentsOfFile: path, encoding: .utf8)
  return try #require(try RaspSpec(parsing: Array(text.utf8)).domains.first)
}

@Suite struct RaspMemberReadingTests {
  @Test func geoMembersReadAsTheirJSON() {
    checkMembers(of: GeoDomain(), fixed: ["accuracy", "heading", "location"]) { $0.geo() }
  }

  @Test func navMembersReadAsTheirJSON() {
    checkMembers(of: NavDomain(), fixed: ["modal", "stack", "tab"]) { $0.nav() }
  }

  @Test func lifecycleMembersReadAsTheirJSON() {
    checkMembers(
      of: LifecycleDomain(), fixed: ["changedAt", "launches", "memoryWarnings", "phase"]
    ) { $0.lifecycle() }
  }

  @Test func motionMembersReadAsTheirJSON() {
    checkMembers(of: MotionDomain(), fixed: ["activity", "confidence", "sample"]) { $0.motion() }
  }

  @Test func restMembersReadAsTheirJSON() {
    checkMembers(of: RestDomain(), fixed: ["links"]) { $0.rest() }
  }

  @Test func dataMembersReadAsTheirJSON() {
    checkMembers(of: DataDomain()) { $0.data() }
  }

  @Test func specMembersReadAsTheirJSONWhateverTheStateHolds() throws {
    let domain = try specDomain()
    var random = RandomEvents(seed: 0x5EC)
    // Doubles that are whole numbers (`2.0`), which the JSON gives as integers, included.
    var states = (0..<2000).map { _ in RaspSpecState(.object(random.object(depth: 4))) }
    states += [
      RaspSpecState(["total": .number(JSONNumber(2.0)), "items": [.number(JSONNumber(-0.0))]]),
      RaspSpecState(["total": .number(JSONNumber(1e300)), "big": .number(JSONNumber(1e16))]),
      RaspSpecState([1, 2]), RaspSpecState(nil), RaspSpecState(),
    ]
    for (position, state) in states.enumerated() {
      for name in keys(of: state, in: domain) + ["absent"] {
        let member = try #require(domain.member(named: name))
        let typed = domain.value(of: member, in: state)
        let json = memberFromJSON(name, of: state, in: domain)
        #expect(isIdentical(typed, json), "'\(name)' of state \(position): \(typed) vs \(json)")
      }
    }
  }

  @Test func aDoubleOfAStateReadsAsItsWrittenJSON() {
    var random = RandomEvents(seed: 0xD0)
    var doubles: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 90, 271.5, 1e15, 1e16]
    doubles += (0..<20_000).map { _ in random.double() }
    for double in doubles {
      var writer = JSONWriter()
      writer.writeNumber(double)
      let json = (try? JSONParser.parse(writer.bytes)) ?? .null
      #expect(isIdentical(.written(double), json), "\(double)")
    }
  }

  @Test(arguments: [
    "domain-data", "domain-geo", "domain-lifecycle", "domain-motion", "domain-nav",
    "domain-rest", "domain-rest-hal", "session-mixed",
  ])
  func aSnapshotReadsEachDomainsMembersAsItsJSON(fixture: String) throws {
    let text = try String(
      contentsOfFile: Repository.path("fixtures/\(fixture)/events.jsonl"), encoding: .utf8)
    var replay = LogReplay(RaspBuiltinDomains.all)
    for line in text.split(separator: "\n") {
      _ = replay.send(String(line))
      let snapshot = replay.pipeline.current
      for index in 0..<snapshot.domainCount {
        let state = try JSONParser.parse(snapshot.encodedState(ofDomainAt: index))
        guard case .object(let object) = state else { continue }
        for (name, value) in object.members {
          let member = try #require(snapshot.member(named: name, ofDomainAt: index))
          let typed = snapshot.value(of: member, ofDomainAt: index)
          #expect(isIdentical(typed, value), "\(snapshot.domainName(at: index)).\(name): \(line)")
        }
      }
    }
  }
}
