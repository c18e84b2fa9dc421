import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// A domain the way another package writes one: its keys out of order, and from a count of
/// `brokenFrom` on, JSON that does not read back.
fileprivate struct CounterDomain: RaspDomain {
  struct State: RaspState, Sendable {
    struct Underflow: Error, CustomStringConvertible {
      var description: String { "the count cannot go below 0" }
    }
    var count = 0
    mutating func apply(event: Int) throws {
      guard count + event >= 0 else { throw Underflow() }
      count += event
    }
  }

  var brokenFrom = Int.max
  var name: String { "counter" }
  var summary: String { "Counts." }
  var events: [RaspEventSchema] {
    [RaspEventSchema(name: "add", summary: "Adds 'by'.", fields: [], acceptsOtherFields: true)]
  }
  var initialState: State { State() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> Int {
    var by: Int64 = 1
    while let field = try payload.nextField() {
      if field == "by" { by = try payload.integer() } else { try payload.skip() }
    }
    return Int(by)
  }

  func encode(_ state: State, into writer: inout JSONWriter) {
    writer.writeRaw(#"{"z":1,"count":"#)
    writer.writeInteger(Int64(state.count))
    if state.count < brokenFrom { writer.writeRaw("}") }
  }
}

/// The replay's handle on a domain of any type: what it applies, from the payload or from a
/// column decoded ahead, what it writes, and how its copies share names but not state; for
/// this package's domains and for one of another package's (``RaspForeignDomain``).
@Suite struct RaspDomainSlotTests {
  private func json(_ slot: RaspDomainSlot) -> String {
    var writer = JSONWriter()
    slot.encodeState(into: &writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Applies the payload of `line` (a whole event) to `slot`'s event `index`: `nil`, or the
  /// error's text.
  private func apply(_ line: String, to slot: RaspDomainSlot, event index: Int = 0) -> String? {
    Array(line.utf8).withUnsafeBufferPointer { bytes in
      do throws(RaspEventError) {
        let envelope = try Envelope.parse(bytes)
        try slot.apply(
          payloadAt: envelope.payloadOffset, expectedEnd: nil, context: envelope.context,
          eventIndex: index)
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  /// Decodes the payload of `line` with the slot's decoder and applies it from the column.
  private func applyDecoded(_ line: String, to slot: RaspDomainSlot) -> String? {
    let decoder = slot.makeDecoder()
    let column = decoder.makeColumn(capacity: 1)
    return Array(line.utf8).withUnsafeBufferPointer { bytes in
      do throws(RaspEventError) {
        let envelope = try Envelope.parse(bytes)
        let row = try decoder.decode(
          payloadAt: envelope.payloadOffset, expectedEnd: nil, context: envelope.context,
          eventIndex: 0, into: column)
        try slot.apply(decodedAt: row, of: column)
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  @Test func namesTheDomainAndItsEventsInSchemaOrder() {
    let slot = RaspDomainSlot.make(GeoDomain())
    #expect(slot.name == "geo")
    #expect(slot.nameBytes == Array("geo".utf8))
    #expect(slot.eventNames.map(\.string) == ["heading", "location"])
    #expect(slot.eventNames.map(\.index) == [0, 1])
    #expect(slot.eventNameBytes == slot.eventNames.map { Array($0.string.utf8) })
  }

  @Test func aCopyHasItsOwnStateAndSharesItsNames() {
    let slot = RaspDomainSlot.make(NavDomain())
    #expect(apply(#"{"type":"nav.push","payload":{"screen":"home"}}"#, to: slot) == nil)
    let copy = slot.copy()
    #expect(copy !== slot)
    #expect(copy.names === slot.names)
    #expect(apply(#"{"type":"nav.push","payload":{"screen":"cart"}}"#, to: copy) == nil)
    #expect(json(slot) == #"{"modal":null,"stack":["home"],"tab":null}"#)
    #expect(json(copy) == #"{"modal":null,"stack":["home","cart"],"tab":null}"#)
  }

  @Test func aRejectedEventLeavesTheStateAsItWas() {
    let slot = RaspDomainSlot.make(NavDomain())
    #expect(apply(#"{"type":"nav.pop"}"#, to: slot, event: 1)?.hasPrefix("event rejected") == true)
    #expect(
      apply(#"{"type":"nav.push","payload":{"screen":7}}"#, to: slot)
        == "field 'payload.screen' must be a string, found a number")
    #expect(json(slot) == #"{"modal":null,"stack":[],"tab":null}"#)
  }

  @Test func notesWhetherTheLastPayloadHadAFieldItSkipped() {
    let slot = RaspDomainSlot.make(NavDomain())
    #expect(apply(#"{"type":"nav.push","payload":{"screen":"a","x":1}}"#, to: slot) == nil)
    #expect(slot.hasSkippedField)
    #expect(apply(#"{"type":"nav.push","payload":{"screen":"b"}}"#, to: slot) == nil)
    #expect(!slot.hasSkippedField)
  }

  @Test func appliesOnlyColumnsItsOwnDomainsDecoderMade() {
    let nav = RaspDomainSlot.make(NavDomain())
    let geo = RaspDomainSlot.make(GeoDomain())
    let decoder = geo.makeDecoder()
    let column = decoder.makeColumn(capacity: 1)
    let line = Array(#"{"type":"geo.heading","payload":{"heading":1}}"#.utf8)
    let row = line.withUnsafeBufferPointer { bytes in
      let envelope = try? Envelope.parse(bytes)
      return try? decoder.decode(
        payloadAt: envelope?.payloadOffset, expectedEnd: nil,
        context: envelope?.context ?? .none, eventIndex: 0, into: column)
    }
    #expect(row == 0)
    // A row of geo's, applied to nav: refused, not read as one of nav's events.
    let refused = #expect(throws: RaspEventError.self) { try nav.apply(decodedAt: 0, of: column) }
    #expect(refused.map { "\($0)" } == "event rejected: decoded by another domain")
    #expect(json(nav) == #"{"modal":null,"stack":[],"tab":null}"#)
    #expect(applyDecoded(#"{"type":"nav.push","payload":{"screen":"a"}}"#, to: nav) == nil)
    #expect(json(nav) == #"{"modal":null,"stack":["a"],"tab":null}"#)
  }

  @Test func readsMembersFromTheTypedStateAndRestoresAState() throws {
    let slot = RaspDomainSlot.make(NavDomain())
    #expect(apply(#"{"type":"nav.push","payload":{"screen":"a"}}"#, to: slot) == nil)
    let stack = try #require(slot.member(named: "stack"))
    #expect(slot.value(of: stack) == .array([.string("a")]))
    #expect(slot.member(named: "nothing") == nil)
    let saved = try JSONParser.parse(#"{"modal":"m","stack":["x","y"],"tab":"t"}"#)
    try slot.restoreState(from: saved)
    #expect(json(slot) == #"{"modal":"m","stack":["x","y"],"tab":"t"}"#)
    #expect(throws: RaspStateError.self) { try slot.restoreState(from: .array([])) }
    #expect(json(slot) == #"{"modal":"m","stack":["x","y"],"tab":"t"}"#)
  }

  @Test func thisPackagesDomainsEncodeConcurrentlyAnotherPackagesDoNot() {
    #expect(RaspBuiltinDomains.all.allSatisfy { RaspDomainSlot.make($0).encodesConcurrently })
    #expect(!RaspDomainSlot.make(CounterDomain()).encodesConcurrently)
  }

  @Test func anotherPackagesDomainIsWrittenCanonicallyAndReadFromItsJSON() {
    let slot = RaspDomainSlot.make(CounterDomain())
    #expect(json(slot) == #"{"count":0,"z":1}"#)
    #expect(apply(#"{"type":"counter.add","payload":{"by":2}}"#, to: slot) == nil)
    #expect(applyDecoded(#"{"type":"counter.add","payload":{"by":3}}"#, to: slot) == nil)
    #expect(json(slot) == #"{"count":5,"z":1}"#)
    #expect(slot.member(named: "count") == nil)
    #expect(
      apply(#"{"type":"counter.add","payload":{"by":-6}}"#, to: slot)
        == "event rejected: the count cannot go below 0")
    #expect(json(slot) == #"{"count":5,"z":1}"#)
  }

  @Test func anEventAfterWhichAForeignDomainWritesInvalidJSONIsRefused() {
    let domain = CounterDomain(brokenFrom: 2)
    for applying in [apply(_:to:event:), { line, slot, _ in applyDecoded(line, to: slot) }] {
      let slot = RaspDomainSlot.make(domain)
      #expect(applying(#"{"type":"counter.add"}"#, slot, 0) == nil)
      let refused = applying(#"{"type":"counter.add"}"#, slot, 0)
      #expect(
        refused
          == "event rejected: the domain 'counter' wrote its state as invalid JSON "
          + "(unexpected end of input in an unterminated object, expected ',' or '}' at byte "
          + "17); its encode(_:into:) must write one JSON value")
      #expect(json(slot) == #"{"count":1,"z":1}"#)
    }
    #expect(CounterDomain().initialStateProblem == nil)
    #expect(
      CounterDomain(brokenFrom: 0).initialStateProblem?
        .hasPrefix("the domain 'counter' wrote its state as invalid JSON") == true)
    #expect(GeoDomain().initialStateProblem == nil)
  }
}
