import Testing
import Rasp
import RaspDomains
import RaspJSON

/// A user-defined domain, as a package that embeds rasp would write one.
fileprivate struct CounterState: RaspState, Equatable, Sendable {
  enum Event: Sendable { case add(Int) }
  var count = 0
  mutating func apply(event: Event) {
    if case .add(let amount) = event { count += amount }
  }
}

fileprivate struct CounterDomain: RaspDomain {
  var name: String { "counter" }
  var summary: String { "Counts taps." }
  var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "tap", summary: "Adds `by` (default 1).",
        fields: [
          RaspFieldSchema(name: "by", type: "integer", isRequired: false, summary: "How much.")
        ])
    ]
  }
  var initialState: CounterState { CounterState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CounterState.Event {
    var by: Int64 = 1
    while let field = try payload.nextField() {
      if field == "by" { by = try payload.integer() } else { try payload.skip() }
    }
    return .add(Int(by))
  }

  func encode(_ state: CounterState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"count\":")
    writer.writeInteger(Int64(state.count))
    writer.writeRaw("}")
  }
}

@Suite struct RaspDomainTests {
  @Test func aUserDomainSitsBesideTheBuiltInOnes() {
    var replay = LogReplay([CounterDomain(), GeoDomain()])
    #expect(replay.pipeline.current.domainNames == ["counter", "geo"])
    #expect(replay.send(#"{"type":"counter.tap"}"#) == #"{"count":1}"#)
    #expect(replay.send(#"{"type":"counter.tap","payload":{"by":41}}"#) == #"{"count":42}"#)
    #expect(
      replay.send(#"{"type":"counter.tap","payload":{"by":0.5}}"#)
        == "col 39: invalid value for field 'payload.by': must be an integer, found 0.5")
  }

  @Test func eventNamesCompareWithLiterals() {
    let name = RaspEventName(index: 2, string: "popToRoot")
    #expect(name == "popToRoot")
    #expect(!(name == "pop"))
    #expect(!(name == "popToRooT"))
    #expect("\(name)" == "popToRoot")
    switch name {
    case "pop": Issue.record("matched a prefix")
    case "popToRoot": break
    default: Issue.record("did not match")
    }
  }

  @Test func schemasCompareByValue() {
    let field = RaspFieldSchema(
      name: "rel", type: "string", isRequired: true, summary: "The relation.")
    #expect(
      RaspEventSchema(name: "unlink", summary: "s.", fields: [field])
        == RaspEventSchema(name: "unlink", summary: "s.", fields: [field]))
  }

  @Test func decodesAnEventFromItsPayloadsTextAsAReplayWould() throws {
    let geo = GeoDomain()
    guard
      case .heading(let heading) = try geo.decodeEvent("heading", payloadJSON: #"{"heading":90}"#)
    else {
      Issue.record("expected a heading")
      return
    }
    #expect(heading == 90)
    // The error a replay would give, with its offset counted in the payload's text.
    let error = #expect(throws: RaspEventError.self) {
      try geo.decodeEvent("heading", payloadJSON: #" {"heading":"x"}"#)
    }
    #expect(error?.offset == 12)
    #expect(error?.description == "field 'payload.heading' must be a number, found a string")
    // Checked to its end, as a replay checks it: a duplicate key the decoder skipped.
    #expect(throws: RaspEventError.self) {
      try geo.decodeEvent("heading", payloadJSON: #"{"heading":1,"x":1,"x":2}"#)
    }
    let unknown = #expect(throws: RaspEventError.self) {
      try geo.decodeEvent("altitude", payloadJSON: "{}")
    }
    #expect(unknown?.description == "unknown event type 'geo.altitude'")
    #expect(throws: Never.self) { try NavDomain().decodeEvent("pop", payloadJSON: "null") }
  }
}
