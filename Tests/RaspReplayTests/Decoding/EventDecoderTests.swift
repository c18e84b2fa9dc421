import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The decoding stage the reading thread takes a share of: an event decoded ahead into its
/// domain's column and applied from there must give the snapshot, and the error, that
/// decoding it from its payload when it is applied gives.
@Suite struct EventDecoderTests {
  /// Lines of every built-in domain, good and bad, as a log has them.
  private static let lines = [
    #"{"type":"rest.link","payload":{"rel":"self","href":"/orders/1000"}}"#,
    #"{"type":"geo.location","payload":{"latitude":52.52,"longitude":13.4,"accuracy":21}}"#,
    #"{"type":"nav.push","payload":{"screen":"settings"}}"#,
    #"{"type":"geo.heading","payload":{"heading":36.8}}"#,
    #"{"type":"geo.heading","payload":{"heading":-4}}"#,
    #"{"type":"nav.pop"}"#,
    #"{"type":"nav.pop"}"#,
    #"{"type":"rest.unlink","payload":{"rel":"next"}}"#,
    #"{"type":"rest.response","payload":{"status":200,"links":{"items":"/orders/1/items"}}}"#,
    #"{"type":"nav.present","payload":{"screen":"share"}}"#,
    #"{"type":"nav.present","payload":{"screen":"again"}}"#,
    #"{"type":"nav.dismiss"}"#,
    #"{"type":"nav.selectTab","payload":{"tab":"orders","extra":[1,{"a":2}]}}"#,
    #"{"type":"nav.selectTab","payload":{"tab":""}}"#,
    #"{"type":"data.set","payload":{"key":"n","value":{"deep":[1,2]}}}"#,
    #"{"type":"data.merge","payload":{"key":"n","value":3}}"#,
    #"{"type":"lifecycle.launch"}"#,
    #"{"type":"motion.sample","payload":{"x":1,"y":2,"z":"three"}}"#,
    #"{"type":"geo.heading","payload":{"heading":1,"heading":2}}"#,
  ]

  /// What applying the line's event gave: its JSON after, or the error's column (0 for none)
  /// and text.
  private func outcome(
    of line: [UInt8], to snapshot: inout SnapshotState, decodingAheadWith decoder: EventDecoder?
  ) -> String {
    line.withUnsafeBufferPointer { bytes in
      do {
        let envelope = try Envelope.parse(bytes)
        guard var routed = snapshot.router.route(envelope) else { return "not routed" }
        // Kept alive past the event, as a batch keeps its columns.
        var columns: [AnyRaspDecodedEvents] = []
        if let decoder {
          columns = decoder.makeColumns(sizedLike: [])
          let column = Unmanaged.passUnretained(columns[routed.domainIndex])
          let row = try decoder.decode(routed, into: column)
          routed = SnapshotState.Event(
            envelope: envelope, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex,
            column: column, row: row)
        }
        try withExtendedLifetime(columns) { try snapshot.apply(event: routed) }
        return String(decoding: snapshot.json(), as: UTF8.self)
      } catch let error as RaspEventError {
        return "col \((error.offset ?? -1) + 1): \(error)"
      } catch {
        return "rejected: \(error)"
      }
    }
  }

  @Test func anEventDecodedAheadAppliesAsOneDecodedWhenApplied() {
    var applied = SnapshotState(domains: RaspBuiltinDomains.all)
    var decodedAhead = applied
    let decoder = decodedAhead.makeDecoder()
    var outcomes: [String] = []
    for line in Self.lines.map({ Array($0.utf8) }) {
      let expected = outcome(of: line, to: &applied, decodingAheadWith: nil)
      #expect(outcome(of: line, to: &decodedAhead, decodingAheadWith: decoder) == expected)
      outcomes.append(expected)
    }
    // The lines did what they say: some applied, some were rejected by a reducer, some did
    // not decode.
    #expect(outcomes.filter { $0.hasPrefix("{") }.count == 12)
    #expect(
      outcomes[4]
        == "col 44: invalid value for field 'payload.heading': must be between 0 and 360, "
        + "found -4")
    #expect(outcomes[6] == "col 0: event rejected: cannot pop: the navigation stack is empty")
    #expect(
      outcomes[10]
        == "col 0: event rejected: cannot present 'again': 'share' is already presented")
    #expect(outcomes[13] == "col 42: invalid value for field 'payload.tab': must not be empty")
    #expect(outcomes[15] == "col 51: field 'payload.value' must be an object, found a number")
    #expect(outcomes[17].hasPrefix("col 35: invalid value for field 'payload': must have"))
    #expect(outcomes[18] == "col 46: duplicate key 'heading'")
    #expect(
      String(decoding: applied.json(), as: UTF8.self)
        == String(decoding: decodedAhead.json(), as: UTF8.self))
  }

  @Test func aPayloadThatDoesNotDecodeLeavesTheColumnAsItWas() throws {
    let snapshot = SnapshotState(domains: [GeoDomain(), NavDomain()])
    let decoder = snapshot.makeDecoder()
    let columns = decoder.makeColumns(sizedLike: [])
    #expect(columns.count == 2)
    #expect(columns.map(\.count) == [0, 0])
    let column = Unmanaged.passUnretained(columns[0])
    func decode(_ line: String) throws -> Int {
      try Array(line.utf8).withUnsafeBufferPointer { bytes in
        let routed = try #require(snapshot.router.route(try Envelope.parse(bytes)))
        return try decoder.decode(routed, into: column)
      }
    }
    #expect(try decode(#"{"type":"geo.heading","payload":{"heading":1}}"#) == 0)
    #expect(throws: RaspEventError.self) {
      try decode(#"{"type":"geo.heading","payload":{"heading":"north"}}"#)
    }
    #expect(columns[0].count == 1)
    #expect(try decode(#"{"type":"geo.heading","payload":{"heading":2}}"#) == 1)
    #expect(columns.map(\.count) == [2, 0])
  }

  @Test func aNewBatchsColumnsHaveRoomForAsManyEventsAsTheLastBatchs() throws {
    let snapshot = SnapshotState(domains: [GeoDomain(), NavDomain()])
    let decoder = snapshot.makeDecoder()
    let previous = decoder.makeColumns(sizedLike: [])
    let geo = try #require(previous[0] as? RaspDecodedEvents<GeoDomain>)
    let line = Array(#"{"type":"geo.heading","payload":{"heading":1}}"#.utf8)
    try line.withUnsafeBufferPointer { bytes in
      let routed = try #require(snapshot.router.route(try Envelope.parse(bytes)))
      for _ in 0..<40 { _ = try decoder.decode(routed, into: Unmanaged.passUnretained(geo)) }
    }
    let next = decoder.makeColumns(sizedLike: previous)
    #expect(next.map(\.count) == [0, 0])
    #expect(try #require(next[0] as? RaspDecodedEvents<GeoDomain>).events.capacity >= 40)
    #expect(next[0] !== previous[0])
  }

  @Test func notesTheRowsWhoseDecoderSkippedAFieldOfThePayload() throws {
    let snapshot = SnapshotState(domains: [NavDomain()])
    let decoder = snapshot.makeDecoder()
    let columns = decoder.makeColumns(sizedLike: [])
    let column = Unmanaged.passUnretained(columns[0])
    let lines = [
      #"{"type":"nav.push","payload":{"screen":"a"}}"#,
      #"{"type":"nav.push","payload":{"screen":"b","from":"deep link"}}"#,
      #"{"type":"nav.push","payload":{"screen":"c"}}"#,
    ]
    for line in lines {
      try Array(line.utf8).withUnsafeBufferPointer { bytes in
        let routed = try #require(snapshot.router.route(try Envelope.parse(bytes)))
        _ = try decoder.decode(routed, into: column)
      }
    }
    #expect((0..<3).map { columns[0].hasSkippedField(at: $0) } == [false, true, false])
  }
}
