import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// A domain of the given names and events, whose events only count: what the router sees of
/// a domain is its names.
fileprivate struct NamesDomain: RaspDomain {
  var name: String
  var events: [RaspEventSchema]
  var summary: String { "Names to route." }
  var initialState: TallyState { TallyState() }

  /// A domain whose events are named `eventNames`.
  init(name: String, eventNames: [String]) {
    self.init(
      name: name,
      events: eventNames.map {
        RaspEventSchema(name: $0, summary: "An event.", fields: [], acceptsOtherFields: true)
      })
  }

  init(name: String, events: [RaspEventSchema]) {
    self.name = name
    self.events = events
  }

  /// A domain whose names are longer than the eight bytes the router compares as one
  /// integer, and alike in their first eight: the router must tell them apart by their
  /// lengths and the rest of their bytes.
  static func longNames(_ name: String) -> NamesDomain {
    NamesDomain(name: name, eventNames: ["eventnumberone", "eventnumbertwo", "eventnumber", "ev"])
  }

  /// A domain with an event that stands only for another domain's types, and so has no name
  /// of its own, before one that has.
  static let listener = NamesDomain(
    name: "listener",
    events: [
      RaspEventSchema(
        name: "", summary: "A heading.", fields: [], acceptsOtherFields: true,
        listensTo: ["geo.heading"]),
      RaspEventSchema(name: "own", summary: "Its own.", fields: [], acceptsOtherFields: true),
    ])

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> TallyState.Event {
    while try payload.nextField() != nil { try payload.skip() }
    return name.index
  }

  func encode(_ state: TallyState, into writer: inout JSONWriter) {
    writer.writeInteger(Int64(state.count))
  }
}

fileprivate struct TallyState: RaspState, Sendable {
  typealias Event = Int
  var count = 0
  mutating func apply(event: Int) throws { count += 1 }
}

/// The routing stage on its own: which domain and event a line's type names, compared by
/// length, first eight bytes and the rest, or by its decoded text when it is written with
/// escapes; and types a map file made.
@Suite struct RouterTests {
  /// The domains, in the snapshot's order: `geo`, `listener`, `longdomainname` and
  /// `longdomainnamf` (alike but for their last byte), `nav`.
  private static var snapshot: SnapshotState {
    SnapshotState(domains: [
      NavDomain(), NamesDomain.longNames("longdomainnamf"), GeoDomain(),
      NamesDomain.longNames("longdomainname"), NamesDomain.listener,
    ])
  }

  /// Where `router` routes the line's type: `domain.event (domain index, event index)`, or
  /// `nil`.
  private func route(_ line: String, with router: Router = snapshot.router) throws -> String? {
    try Array(line.utf8).withUnsafeBufferPointer { bytes throws -> String? in
      let envelope = try Envelope.parse(bytes)
      guard let routed = router.route(envelope) else { return nil }
      let names = router.typeNames[routed.domainIndex]
      return "\(names[routed.eventIndex]) (\(routed.domainIndex), \(routed.eventIndex))"
    }
  }

  @Test func numbersTheTypesByDomainInTheSnapshotsOrderAndEventInTheSchemas() {
    #expect(
      Self.snapshot.domainNames == [
        "geo", "listener", "longdomainname", "longdomainnamf", "nav",
      ])
    let names = Self.snapshot.router.typeNames
    #expect(names[1] == ["listener.", "listener.own"])
    #expect(
      names[2] == [
        "longdomainname.eventnumberone", "longdomainname.eventnumbertwo",
        "longdomainname.eventnumber", "longdomainname.ev",
      ])
    #expect(
      names[4] == [
        "nav.push", "nav.pop", "nav.popToRoot", "nav.replace", "nav.selectTab", "nav.present",
        "nav.dismiss",
      ])
  }

  @Test func tellsNamesAlikeInTheirFirstEightBytesByTheirLengthAndTheRest() throws {
    #expect(
      try route(#"{"type":"longdomainname.eventnumberone"}"#)
        == "longdomainname.eventnumberone (2, 0)")
    #expect(
      try route(#"{"type":"longdomainname.eventnumbertwo"}"#)
        == "longdomainname.eventnumbertwo (2, 1)")
    #expect(
      try route(#"{"type":"longdomainname.eventnumber"}"#) == "longdomainname.eventnumber (2, 2)")
    #expect(try route(#"{"type":"longdomainname.ev"}"#) == "longdomainname.ev (2, 3)")
    #expect(
      try route(#"{"type":"longdomainnamf.eventnumbertwo"}"#)
        == "longdomainnamf.eventnumbertwo (3, 1)")
    // The same first eight bytes, another length or another byte after them.
    #expect(try route(#"{"type":"longdomainname.eventnumberthree"}"#) == nil)
    #expect(try route(#"{"type":"longdomainname.eventnumbertwx"}"#) == nil)
    #expect(try route(#"{"type":"longdomainname.eventnum"}"#) == nil)
    #expect(try route(#"{"type":"longdomainnamg.eventnumberone"}"#) == nil)
    #expect(try route(#"{"type":"longdomain.eventnumberone"}"#) == nil)
    #expect(try route(#"{"type":"e.ev"}"#) == nil)
  }

  @Test func routesShortNamesByTheirBytesAlone() throws {
    #expect(try route(#"{"type":"geo.heading","payload":{"heading":1}}"#) == "geo.heading (0, 0)")
    #expect(try route(#"{"type":"nav.push"}"#) == "nav.push (4, 0)")
    #expect(try route(#"{"type":"geo.headin"}"#) == nil)
    #expect(try route(#"{"type":"ge.heading"}"#) == nil)
    #expect(try route(#"{"type":"motion.sample"}"#) == nil)
  }

  @Test func anEventWithNoNameOfItsOwnIsNoType() throws {
    // `listener.` is no type a line can have, but the router must not take the empty name
    // for one: an envelope made as if it were.
    let line = Array(#"{"type":"listener."}"#.utf8)
    let routed = line.withUnsafeBufferPointer { bytes in
      Self.snapshot.router.route(
        Envelope(
          line: bytes, type: JSONRawString(start: 9, end: 18, hasEscapes: false), dot: 17,
          payloadOffset: nil, timestamp: nil, timestampRange: nil, isEpochSeconds: false,
          source: nil))
    }
    #expect(routed == nil)
    #expect(try route(#"{"type":"listener.own"}"#) == "listener.own (1, 1)")
    // The heading it stands for is geo's.
    #expect(try route(#"{"type":"geo.heading"}"#) == "geo.heading (0, 0)")
  }

  @Test func routesATypeWrittenWithEscapesByItsText() throws {
    #expect(
      try route(#"{"type":"longdomainname.eventnumber\u0074wo"}"#)
        == "longdomainname.eventnumbertwo (2, 1)")
    #expect(
      try route(#"{"type":"\u006congdomainnamf.ev"}"#) == "longdomainnamf.ev (3, 3)")
    #expect(try route(#"{"type":"g\u0065o.heading"}"#) == "geo.heading (0, 0)")
    #expect(try route(#"{"type":"listener.\u006fwn"}"#) == "listener.own (1, 1)")
    #expect(try route(#"{"type":"longdomainname.eventnumber\u0074wx"}"#) == nil)
    #expect(try route(#"{"type":"n\u0061v.nothing"}"#) == nil)
    #expect(try route(#"{"type":"m\u006ftion.sample"}"#) == nil)
  }

  @Test func routesEveryTypeOfManyDomainsAsALinearSearchOfTheirNamesWould() throws {
    // Forty domains of twelve events, named alike (the same first eight bytes, lengths
    // around eight, one byte apart), so that many types share the router's slots or their
    // first probes; and a domain that names one event twice.
    var domains: [any RaspDomain] = (0..<40).map { number in
      NamesDomain(
        name: number.isMultiple(of: 2) ? "d\(number)" : "domainnamealike\(number)",
        eventNames: (0..<12).map { ["e\($0)", "eventname\($0)", "eventnam\($0)"][$0 % 3] })
    }
    domains.append(NamesDomain(name: "twice", eventNames: ["same", "other", "same"]))
    let snapshot = SnapshotState(domains: domains)
    let router = snapshot.router
    let names = router.typeNames
    // The model: the first domain and event whose names are the type's parts.
    func expected(_ type: String) -> String? {
      for (domainIndex, events) in names.enumerated() {
        for (eventIndex, name) in events.enumerated() where name == type {
          return "\(type) (\(domainIndex), \(eventIndex))"
        }
      }
      return nil
    }
    var types = names.flatMap { $0 }
    // Unknown types beside them: another event of a domain, a domain's name with another's
    // event, a byte more or less.
    types += names.flatMap { events in
      events.flatMap {
        [$0 + "x", String($0.dropLast()), $0.replacingOccurrences(of: ".", with: ".z")]
      }
    }
    types += ["d0.eventname1", "domainnamealike1.e0", "d2.e12", "twice.none"]
    for type in types {
      #expect(try route(#"{"type":"\#(type)"}"#, with: router) == expected(type), "\(type)")
    }
    #expect(names.joined().count == 40 * 12 + 3)
    for type in names.joined() {
      #expect(try route(#"{"type":"\#(type)"}"#, with: router) != nil, "\(type)")
    }
    #expect(try route(#"{"type":"twice.same"}"#, with: router) == "twice.same (40, 0)")
  }

  /// Routes the foreign type `type`, made by the CloudEvents preset into `domain.event`,
  /// as a line read with the map would be; and names it as messages do.
  private func routeMapped(
    _ type: String, with table: TypeTable?
  ) throws -> (routed: String?, name: String?) {
    let lookup = TypeTable(format: try #require(LogFormat.preset(named: "cloudevents")))
    guard case .type(let id) = (table ?? lookup).intern(type) else { return (nil, nil) }
    let router = Self.snapshot.router.mapping(with: table)
    let line = Array(#"{"type":"x"}"#.utf8)
    return line.withUnsafeBufferPointer { bytes in
      let envelope = Envelope(
        line: bytes, mappedType: id, typeRange: 8..<11, payloadOffset: nil, timestamp: nil,
        timestampRange: nil, source: nil)
      let name = table == nil ? nil : router.typeName(of: envelope)
      guard let routed = router.route(envelope) else { return (nil, name) }
      let names = router.typeNames[routed.domainIndex]
      return ("\(names[routed.eventIndex]) (\(routed.domainIndex), \(routed.eventIndex))", name)
    }
  }

  @Test func routesTheTypesAMapFileMadeByTheirTablesBytes() throws {
    let table = TypeTable(format: try #require(LogFormat.preset(named: "cloudevents")))
    let long = try routeMapped("com.example.longdomainname.eventnumbertwo", with: table)
    #expect(long.routed == "longdomainname.eventnumbertwo (2, 1)")
    #expect(long.name == "longdomainname.eventnumbertwo")
    let geo = try routeMapped("io.rasp.geo.heading", with: table)
    #expect(geo.routed == "geo.heading (0, 0)")
    let unknown = try routeMapped("io.rasp.geo.altitude", with: table)
    #expect(unknown.routed == nil)
    #expect(unknown.name == "geo.altitude")
  }

  @Test func aMappedTypeIsRoutedOnlyWithItsTable() throws {
    // A router that was handed no table routes no mapped type.
    #expect(try routeMapped("io.rasp.geo.heading", with: nil).routed == nil)
  }

  @Test func aMappedTypeOfNoDomainIsLeftToItsListeners() throws {
    let table = TypeTable(
      format: try #require(LogFormat.preset(named: "cloudevents")), listenedTypes: ["HEADING"])
    let routed = try routeMapped("HEADING", with: table)
    #expect(routed.routed == nil)
    #expect(routed.name == "HEADING")
  }
}
