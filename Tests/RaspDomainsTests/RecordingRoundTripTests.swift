import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

/// Each built-in domain's `encodeEvent` is the inverse of its decoder: thousands of random
/// events of every case come back equal from `roundTrip`, the payloads are canonical JSON, and
/// the bytes of the docs' examples are pinned.
@Suite struct RecordingRoundTripTests {
  static let clock: JSONValue = "2026-11-22T09:30:00Z"
  static let iterations = 5_000

  // MARK: - Random round trips

  @Test func geoEventsRoundTripBitForBit() {
    checkRoundTrips(GeoDomain(), seed: 0x6E0, identical: { bits($0) == bits($1) }) {
      $0.geo()
    }
  }

  @Test func navEventsRoundTrip() {
    checkRoundTrips(NavDomain(), seed: 0x4A7) { $0.nav() }
  }

  @Test func lifecycleEventsRoundTripWithTheirTimes() {
    checkRoundTrips(LifecycleDomain(), seed: 0x11FE, isClocked: { $0 == .memoryWarning }) {
      $0.lifecycle()
    }
  }

  @Test func motionEventsRoundTripBitForBit() {
    checkRoundTrips(MotionDomain(), seed: 0x3071, identical: { bits($0) == bits($1) }) {
      $0.motion()
    }
  }

  @Test func dataEventsRoundTrip() {
    checkRoundTrips(DataDomain(), seed: 0xDA7A) { $0.data() }
  }

  @Test func restEventsRoundTrip() {
    checkRoundTrips(RestDomain(), seed: 0x4E57) { $0.rest() }
  }

  @Test func everyEventNameOfEveryDomainIsGenerated() {
    var random = RandomEvents(seed: 7)
    expectEveryName(GeoDomain()) { random.geo() }
    expectEveryName(NavDomain()) { random.nav() }
    expectEveryName(LifecycleDomain()) { random.lifecycle() }
    expectEveryName(MotionDomain()) { random.motion() }
    expectEveryName(DataDomain()) { random.data() }
    expectEveryName(RestDomain()) { random.rest() }
  }

  @Test func negativeZeroKeepsItsSign() throws {
    let heading = try GeoDomain().roundTrip(.heading(-0.0))
    #expect(bits(heading) == [(-0.0).bitPattern])
    let location = GeoLocation(latitude: -0.0, longitude: -0.0)
    let fix = try GeoDomain().roundTrip(.location(location, accuracy: -0.0))
    #expect(bits(fix) == Array(repeating: (-0.0).bitPattern, count: 3))
    let vector = MotionVector(x: -0.0, y: 0, z: -0.0)
    let sample = try MotionDomain().roundTrip(.sample(MotionSample(rotationRate: vector)))
    #expect(bits(sample) == [(-0.0).bitPattern, (0.0).bitPattern, (-0.0).bitPattern])
    #expect(recorded(GeoDomain(), .heading(-0.0)).payload == #"{"heading":-0.0}"#)
  }

  // MARK: - The docs' examples, byte for byte

  /// The events of `docs/domains.md`, written with their keys sorted and unknown fields gone.
  @Test func writesGeoEventsAsTheDocsShowThem() {
    let geo = GeoDomain()
    #expect(recorded(geo, .heading(90)) == Recorded(name: "heading", payload: #"{"heading":90}"#))
    #expect(
      recorded(geo, .location(GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 30))
        == Recorded(
          name: "location", payload: #"{"accuracy":30,"latitude":52.52,"longitude":13.405}"#))
    #expect(
      recorded(geo, .location(GeoLocation(latitude: 52.5201, longitude: 13.4051), accuracy: nil))
        == Recorded(name: "location", payload: #"{"latitude":52.5201,"longitude":13.4051}"#))
  }

  @Test func writesNavEventsAsTheDocsShowThem() {
    let nav = NavDomain()
    #expect(
      recorded(nav, .selectTab("shop")) == Recorded(name: "selectTab", payload: #"{"tab":"shop"}"#))
    #expect(
      recorded(nav, .push("catalog")) == Recorded(name: "push", payload: #"{"screen":"catalog"}"#))
    #expect(
      recorded(nav, .replace("reviews"))
        == Recorded(name: "replace", payload: #"{"screen":"reviews"}"#))
    #expect(
      recorded(nav, .present("login")) == Recorded(name: "present", payload: #"{"screen":"login"}"#)
    )
    #expect(recorded(nav, .pop) == Recorded(name: "pop", payload: ""))
    #expect(recorded(nav, .popToRoot) == Recorded(name: "popToRoot", payload: ""))
    #expect(recorded(nav, .dismiss) == Recorded(name: "dismiss", payload: ""))
    #expect(recorded(nav, .push("a\"b\\c\n😀")).payload == #"{"screen":"a\"b\\c\n😀"}"#)
  }

  @Test func writesLifecycleEventsWithTheTimesTheDocsShow() {
    let lifecycle = LifecycleDomain()
    #expect(
      recorded(lifecycle, .becomeActive(at: "2026-11-22T09:29:50Z"))
        == Recorded(name: "becomeActive", payload: "", time: .given("2026-11-22T09:29:50Z")))
    #expect(
      recorded(lifecycle, .enterForeground(at: 1_795_340_000))
        == Recorded(name: "enterForeground", payload: "", time: .given(1_795_340_000)))
    #expect(
      recorded(lifecycle, .becomeActive(at: nil))
        == Recorded(name: "becomeActive", payload: "", time: .absent))
    #expect(
      recorded(lifecycle, .enterBackground(at: "2026-11-22T10:35:00+01:00"))
        == Recorded(name: "enterBackground", payload: "", time: .given("2026-11-22T10:35:00+01:00"))
    )
    #expect(recorded(lifecycle, .launch(at: "2026-11-22T09:40:00Z")).name == "launch")
    #expect(recorded(lifecycle, .resignActive(at: nil)).name == "resignActive")
    #expect(recorded(lifecycle, .terminate(at: "2026-11-22T09:45:00Z")).name == "terminate")
    #expect(recorded(lifecycle, .memoryWarning) == Recorded(name: "memoryWarning", payload: ""))
  }

  @Test func writesNoTimeForALifecycleTimeNoLogLineCouldHold() {
    // A `ts` of "yesterday", true or 1e20 makes the whole line bad: the event is written
    // without one, and replays with no time.
    let lifecycle = LifecycleDomain()
    for value: JSONValue in ["yesterday", true, .null, 1e20, ["2026-11-22T09:40:00Z"]] {
      #expect(recorded(lifecycle, .launch(at: value)).time == .absent, "\(value)")
    }
    #expect(recorded(lifecycle, .launch(at: 1_795_340_000.5)).time == .given(1_795_340_000.5))
  }

  @Test func writesMotionEventsAsTheDocsShowThem() {
    let motion = MotionDomain()
    let full = MotionSample(
      acceleration: MotionVector(x: 0.01, y: -0.02, z: 0.03),
      rotationRate: MotionVector(x: 0, y: 0.1, z: 0),
      attitude: MotionAttitude(roll: 0.05, pitch: 0.8, yaw: -1.2))
    #expect(
      recorded(motion, .sample(full))
        == Recorded(
          name: "sample",
          payload: #"{"acceleration":{"x":0.01,"y":-0.02,"z":0.03},"#
            + #""attitude":{"pitch":0.8,"roll":0.05,"yaw":-1.2},"#
            + #""rotationRate":{"x":0,"y":0.1,"z":0}}"#))
    let acceleration = MotionSample(acceleration: MotionVector(x: 0.21, y: -0.4, z: 0.12))
    #expect(
      recorded(motion, .sample(acceleration)).payload
        == #"{"acceleration":{"x":0.21,"y":-0.4,"z":0.12}}"#)
    let attitude = MotionSample(attitude: MotionAttitude(roll: 0, pitch: 0.75, yaw: -1.25))
    #expect(
      recorded(motion, .sample(attitude)).payload
        == #"{"attitude":{"pitch":0.75,"roll":0,"yaw":-1.25}}"#)
    #expect(
      recorded(motion, .activity(.stationary, confidence: .high))
        == Recorded(name: "activity", payload: #"{"activity":"stationary","confidence":"high"}"#))
    #expect(
      recorded(motion, .activity(.walking, confidence: .medium)).payload
        == #"{"activity":"walking","confidence":"medium"}"#)
  }

  @Test func writesDataEventsAsTheDocsShowThem() {
    let data = DataDomain()
    #expect(
      recorded(data, .set(key: "user", value: ["id": 42, "name": "Ada"]))
        == Recorded(name: "set", payload: #"{"key":"user","value":{"id":42,"name":"Ada"}}"#))
    #expect(
      recorded(data, .set(key: "theme", value: "dark")).payload
        == #"{"key":"theme","value":"dark"}"#)
    let value: JSONValue = ["items": [["sku": "tea", "qty": 2]], "total": 9, "coupon": nil]
    guard case .object(let cart) = value else {
      Issue.record("expected an object, found \(value)")
      return
    }
    #expect(
      recorded(data, .merge(key: "cart", value: cart))
        == Recorded(
          name: "merge",
          payload:
            #"{"key":"cart","value":{"coupon":null,"items":[{"qty":2,"sku":"tea"}],"total":9}}"#))
    #expect(
      recorded(data, .set(key: "theme", value: nil)).payload == #"{"key":"theme","value":null}"#)
    #expect(
      recorded(data, .remove(key: "theme"))
        == Recorded(name: "remove", payload: #"{"key":"theme"}"#))
    #expect(recorded(data, .clear) == Recorded(name: "clear", payload: ""))
  }

  @Test func writesRestEventsAsTheDocsShowThem() {
    let rest = RestDomain()
    #expect(
      recorded(rest, .set(RestLink(rel: "create", href: "/orders/new")))
        == Recorded(name: "link", payload: #"{"href":"/orders/new","rel":"create"}"#))
    #expect(
      recorded(rest, .remove(rel: "create"))
        == Recorded(name: "unlink", payload: #"{"rel":"create"}"#))
    #expect(
      recorded(rest, .remove(rel: "curies", name: "v1")).payload == #"{"name":"v1","rel":"curies"}"#
    )
    let acme = RestLink(
      rel: "curies", href: "https://docs.acme.com/rels/{rel}", isTemplated: true, name: "acme")
    #expect(
      recorded(rest, .set(acme)).payload
        == #"{"href":"https://docs.acme.com/rels/{rel}","name":"acme","rel":"curies","#
        + #""templated":true}"#)
    let plain = RestState.Event.replaceRelations([
      RestRelation(RestLink(rel: "self", href: "/orders")),
      RestRelation(RestLink(rel: "next", href: "/orders?page=2")),
    ])
    #expect(
      recorded(rest, plain)
        == Recorded(
          name: "response", payload: #"{"links":{"next":"/orders?page=2","self":"/orders"}}"#))
    let hal = RestState.Event.replaceRelations([
      RestRelation(RestLink(rel: "self", href: "/orders")),
      RestRelation(
        rel: "curies",
        list: [
          RestLink(
            rel: "curies", href: "https://docs.acme.com/relations/{rel}", isTemplated: true,
            name: "acme")
        ]),
      RestRelation(RestLink(rel: "acme:widgets", href: "/widgets")),
    ])
    #expect(
      recorded(rest, hal).payload
        == #"{"_links":{"acme:widgets":{"href":"/widgets"},"#
        + #""curies":[{"href":"https://docs.acme.com/relations/{rel}","name":"acme","#
        + #""templated":true}],"self":{"href":"/orders"}}}"#)
    let deprecated = RestLink(
      rel: "v1:orders", href: "https://api.example.com/orders",
      deprecation: "https://dev.example.com/deprecations/v1-orders")
    #expect(
      recorded(rest, .replaceRelations([RestRelation(deprecated)])).payload
        == #"{"links":{"v1:orders":{"#
        + #""deprecation":"https://dev.example.com/deprecations/v1-orders","#
        + #""href":"https://api.example.com/orders"}}}"#)
    #expect(recorded(rest, .clear) == Recorded(name: "clear", payload: ""))
  }

  /// Recorded lines replay as `rasp replay` reads them — envelope, `ts` and all — to the
  /// snapshots the docs show for the fixture they come from.
  @Test func recordedLifecycleLinesReplayToTheDocsSnapshots() {
    let lifecycle = LifecycleDomain()
    let events: [LifecycleState.Event] = [
      .launch(at: "2026-11-22T09:30:00Z"), .becomeActive(at: "2026-11-22T09:30:01Z"),
      .memoryWarning, .enterBackground(at: "2026-11-22T09:32:01Z"),
      .enterForeground(at: 1_795_340_000), .becomeActive(at: nil),
      .enterBackground(at: "2026-11-22T10:35:00+01:00"),
    ]
    var replay = LogReplay([lifecycle])
    let outcomes = replay.send(events.map { line(lifecycle, $0, clock: "2026-11-22T09:31:00Z") })
    #expect(
      outcomes == [
        #"{"changedAt":"2026-11-22T09:30:00Z","launches":1,"memoryWarnings":0,"phase":"inactive"}"#,
        #"{"changedAt":"2026-11-22T09:30:01Z","launches":1,"memoryWarnings":0,"phase":"active"}"#,
        #"{"changedAt":"2026-11-22T09:30:01Z","launches":1,"memoryWarnings":1,"phase":"active"}"#,
        #"{"changedAt":"2026-11-22T09:32:01Z","launches":1,"memoryWarnings":1,"#
          + #""phase":"background"}"#,
        #"{"changedAt":1795340000,"launches":1,"memoryWarnings":1,"phase":"inactive"}"#,
        #"{"changedAt":null,"launches":1,"memoryWarnings":1,"phase":"active"}"#,
        #"{"changedAt":"2026-11-22T10:35:00+01:00","launches":1,"memoryWarnings":1,"#
          + #""phase":"background"}"#,
      ])
  }

  // MARK: - Normalized round trips

  /// A response given unsorted, or with a relation twice, comes back sorted and with the last
  /// of each relation, as the state keeps it; `replaceAll` comes back as `replaceRelations`.
  @Test func responsesComeBackSortedAndUnique() throws {
    var random = RandomEvents(seed: 0x5047)
    for _ in 0..<1_000 {
      let rels = (0..<random.int(8)).map { _ in random.rel(nonEmpty: false) }
      let relations = rels.map { random.relation($0) }
      let expected = lastOfEach(relations, rel: \.rel)
      let back = try RestDomain().roundTrip(.replaceRelations(relations))
      #expect(back == .replaceRelations(expected.map { $0 }), "\(relations)")
      var original = RestState()
      original.apply(event: .replaceRelations(relations))
      var replayed = RestState()
      replayed.apply(event: back)
      #expect(original == replayed)

      let links = rels.map { random.link(rel: $0) }
      let all = try RestDomain().roundTrip(.replaceAll(links))
      #expect(all == .replaceRelations(lastOfEach(links, rel: \.rel).map { RestRelation($0) }))
      original.apply(event: .replaceAll(links))
      replayed.apply(event: all)
      #expect(original == replayed)
    }
  }

  // MARK: - What a log cannot hold

  @Test func eventsTheDecodersRefuseDoNotRoundTrip() throws {
    let geo = GeoDomain()
    let origin = GeoLocation(latitude: 0, longitude: 0)
    for event: GeoState.Event in [
      .heading(360.000_000_1), .heading(-1e-300), .heading(.nan), .heading(.infinity),
      .location(GeoLocation(latitude: 90.5, longitude: 0), accuracy: nil),
      .location(GeoLocation(latitude: 0, longitude: -180.5), accuracy: nil),
      .location(origin, accuracy: -1),
    ] {
      #expect(throws: RaspEventError.self, "\(event)") { try geo.roundTrip(event) }
    }
    // JSON has no infinity nor NaN: the writer writes `null`, read as an unknown accuracy.
    for accuracy in [Double.infinity, .nan] {
      #expect(
        try geo.roundTrip(.location(origin, accuracy: accuracy)) == .location(origin, accuracy: nil)
      )
    }
    for event: NavState.Event in [.push(""), .replace(""), .selectTab(""), .present("")] {
      #expect(throws: RaspEventError.self, "\(event)") { try NavDomain().roundTrip(event) }
    }
    let motion = MotionDomain()
    #expect(throws: RaspEventError.self) { try motion.roundTrip(.sample(MotionSample())) }
    let notANumber = MotionSample(acceleration: MotionVector(x: .nan, y: 0, z: 0))
    #expect(throws: RaspEventError.self) { try motion.roundTrip(.sample(notANumber)) }
    for event: DataState.Event in [
      .set(key: "", value: 1), .merge(key: "", value: JSONObject()), .remove(key: ""),
    ] {
      #expect(throws: RaspEventError.self, "\(event)") { try DataDomain().roundTrip(event) }
    }
    let unnamedCurie = RestLink(rel: "curies", href: "/docs/{rel}", isTemplated: true)
    for event: RestState.Event in [
      .set(RestLink(rel: "", href: "/")), .remove(rel: ""), .remove(rel: "", href: "/"),
      .set(unnamedCurie), .replaceRelations([RestRelation(unnamedCurie)]),
      .replaceRelations([RestRelation(rel: "curies", list: [unnamedCurie])]),
    ] {
      #expect(throws: RaspEventError.self, "\(event)") { try RestDomain().roundTrip(event) }
    }
  }

  /// A phase change keeps its `ts` only when it is a time; other values come back as `nil`.
  @Test func lifecycleTimesThatAreNotTimesComeBackAbsent() throws {
    let lifecycle = LifecycleDomain()
    for at: JSONValue in ["yesterday", "2026-11-22", "", .null, true, [1], ["ts": 1]] {
      #expect(try lifecycle.roundTrip(.launch(at: at), clock: Self.clock) == .launch(at: nil))
    }
  }

  /// Data's values compare by meaning: a double that is an integer comes back as an integer.
  @Test func dataNumbersComeBackByValue() throws {
    let event = DataState.Event.set(key: "n", value: [3.0, -0.0, 1e300, 0.5])
    let back = try DataDomain().roundTrip(event)
    #expect(back == event)
    guard case .set(_, .array(let numbers)) = back else {
      Issue.record("expected an array, found \(back)")
      return
    }
    #expect(
      numbers.map { value in if case .number(let n) = value { n.isInteger } else { false } }
        == [true, true, false, false])
    // A JSONNumber must be finite; one that is not is written, and read back, as null.
    let infinite = DataState.Event.set(key: "n", value: .number(JSONNumber(.infinity)))
    #expect(try DataDomain().roundTrip(infinite) == .set(key: "n", value: .null))
  }

  /// A data value may nest as deep as a log line may, less the line's and the payload's object.
  @Test func dataValuesNestAsDeepAsALineMay() throws {
    func nested(_ depth: Int) -> JSONValue {
      (0..<depth).reduce(JSONValue.null) { inner, _ in .array([inner]) }
    }
    let deepest = JSONLimits.maximumDepth - 2
    let event = DataState.Event.set(key: "deep", value: nested(deepest))
    #expect(try DataDomain().roundTrip(event) == event)
    #expect(throws: RaspEventError.self) {
      try DataDomain().roundTrip(.set(key: "deep", value: nested(deepest + 1)))
    }
  }
}

// MARK: - Helpers

extension RecordingRoundTripTests {
  /// Round-trips `iterations` events from `make`, and checks each record: a name the domain
  /// lists, a payload that is empty or one canonical JSON object, and the clock's time for
  /// every event but those `isClocked` says are not.
  func checkRoundTrips<Domain: RaspRecordableDomain>(
    _ domain: Domain, seed: UInt64,
    identical: (Domain.State.Event, Domain.State.Event) -> Bool = { _, _ in true },
    isClocked: (Domain.State.Event) -> Bool = { _ in true },
    sourceLocation: SourceLocation = #_sourceLocation,
    make: (inout RandomEvents) -> Domain.State.Event
  ) where Domain.State.Event: Equatable {
    var random = RandomEvents(seed: seed)
    var failures = 0
    for _ in 0..<Self.iterations where failures < 10 {
      let event = make(&random)
      let record = recordOf(domain, event)
      var problems: [String] = []
      if let problem = payloadProblem(record.payload.bytes) { problems.append(problem) }
      if isClocked(event) != (record.time == .clock) { problems.append("time \(record.time)") }
      do {
        let back = try domain.roundTrip(event, clock: Self.clock)
        if back != event || !identical(back, event) { problems.append("came back as \(back)") }
      } catch {
        problems.append("\(error)")
      }
      guard !problems.isEmpty else { continue }
      failures += 1
      let payload = String(decoding: record.payload.bytes, as: UTF8.self)
      Issue.record(
        "\(event)\n  \(record.name) \(payload)\n  \(problems.joined(separator: "; "))",
        sourceLocation: sourceLocation)
    }
  }

  /// What is wrong with a payload, or `nil`: it must be empty, or one JSON object written as
  /// the canonical writer writes it (compact, keys sorted) — but for negative zero, `-0.0`.
  func payloadProblem(_ bytes: [UInt8]) -> String? {
    guard !bytes.isEmpty else { return nil }
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      return "payload is not JSON: \(error)"
    }
    guard case .object = value else { return "payload is not an object" }
    var canonical = JSONWriter()
    canonical.write(value)
    let text = String(decoding: bytes, as: UTF8.self)
    let expected = String(decoding: canonical.bytes, as: UTF8.self)
    guard text != expected, text.replacing("-0.0", with: "0") != expected else { return nil }
    return "payload is not canonical: expected \(expected)"
  }

  /// Expects the names of events from `make` to be exactly those the domain lists.
  func expectEveryName<Domain: RaspRecordableDomain>(
    _ domain: Domain, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: () -> Domain.State.Event
  ) {
    var names: Set<String> = []
    for _ in 0..<500 { names.insert(recordOf(domain, make()).name) }
    #expect(names == Set(domain.events.map(\.name)), sourceLocation: sourceLocation)
  }

  /// Of elements with the same relation (the same bytes), the last, sorted by relation.
  func lastOfEach<Element>(_ elements: [Element], rel: (Element) -> String) -> [Element] {
    var kept: [Element] = []
    for element in elements.reversed()
    where !kept.contains(where: { Array(rel($0).utf8) == Array(rel(element).utf8) }) {
      kept.append(element)
    }
    return kept.sorted { JSONObject.keyPrecedes(rel($0), rel($1)) }
  }
}

/// The record a domain writes for an event.
func recordOf<Domain: RaspRecordableDomain>(_ domain: Domain, _ event: Domain.State.Event)
  -> RaspEventRecord
{
  var record = RaspEventRecord()
  domain.encodeEvent(event, into: &record)
  return record
}

/// The log line a recorder writes for an event: `type`, `ts` (the event's own, or `clock`)
/// and `payload`.
func line<Domain: RaspRecordableDomain>(
  _ domain: Domain, _ event: Domain.State.Event, clock: JSONValue
) -> String {
  let record = recordOf(domain, event)
  var writer = JSONWriter()
  writer.writeRaw(#"{"type":"#)
  writer.writeString(domain.name + "." + record.name)
  switch record.time {
  case .clock:
    writer.writeRaw(#","ts":"#)
    writer.write(clock)
  case .given(let time):
    writer.writeRaw(#","ts":"#)
    writer.write(time)
  case .absent:
    break
  }
  if !record.payload.bytes.isEmpty {
    writer.writeRaw(#","payload":"#)
    writer.writeRaw(record.payload.bytes)
  }
  writer.writeRaw("}")
  return String(decoding: writer.bytes, as: UTF8.self)
}

/// A record's parts as text, for comparing with what the docs show.
struct Recorded: Equatable, CustomStringConvertible {
  var name: String
  var payload: String
  var time: RaspEventRecord.Time = .clock

  var description: String { "\(name) \(payload.isEmpty ? "(no payload)" : payload) \(time)" }
}

/// The record a domain writes for an event, as text.
func recorded<Domain: RaspRecordableDomain>(_ domain: Domain, _ event: Domain.State.Event)
  -> Recorded
{
  let record = recordOf(domain, event)
  return Recorded(
    name: record.name, payload: String(decoding: record.payload.bytes, as: UTF8.self),
    time: record.time)
}

/// The bit patterns of an event's doubles, so that `-0.0` and `0` differ.
func bits(_ event: GeoState.Event) -> [UInt64] {
  switch event {
  case .heading(let heading): [heading.bitPattern]
  case .location(let location, let accuracy):
    [location.latitude.bitPattern, location.longitude.bitPattern]
      + (accuracy.map { [$0.bitPattern] } ?? [])
  }
}

/// The bit patterns of an event's doubles, so that `-0.0` and `0` differ.
func bits(_ event: MotionState.Event) -> [UInt64] {
  guard case .sample(let sample) = event else { return [] }
  let vectors = [sample.acceleration, sample.rotationRate].compactMap { $0 }.flatMap {
    [$0.x, $0.y, $0.z]
  }
  let angles = sample.attitude.map { [$0.roll, $0.pitch, $0.yaw] } ?? []
  return (vectors + angles).map(\.bitPattern)
}
