import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Reading an envelope with `assumingPayloadEnd`, and the readers that confirm that end: the
/// replay's reading thread takes a payload that ends the line to end at its last byte but one,
/// and leaves matching its braces to the domain's decoder.
@Suite struct AssumedPayloadEndTests {
  /// Reads `line` with `assumingPayloadEnd` and hands the event to `body`.
  private func withEvent<Result>(
    _ line: String, assuming: Bool = true, _ body: (Envelope) throws -> Result
  ) throws -> Result {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var memo = RaspTimestamp.Memo()
      let event = try Envelope.parse(buffer, memo: &memo, assumingPayloadEnd: assuming)
      return try body(event)
    }
  }

  @Test func aPayloadThatEndsTheLineAfterTheTypeIsAssumed() throws {
    let line = #"{"ts":"2026-11-22T09:30:00Z","type":"geo.heading","payload":{"heading":90}}"#
    try withEvent(line) { event in
      #expect(event.isPayloadEndAssumed)
      #expect(event.payloadOffset == 60)
      #expect(event.expectedPayloadEnd == line.utf8.count - 1)
    }
  }

  @Test func otherLinesAreNotAssumed() throws {
    for line in [
      #"{"type":"geo.heading","payload":{"heading":90},"ts":1}"#,  // the payload is not last
      #"{"payload":{"heading":{}},"type":"geo.heading"}"#,  // the type comes after it
      #"{"type":"nav.pop"}"#,
    ] {
      try withEvent(line) { event in #expect(!event.isPayloadEndAssumed, "\(line)") }
    }
    // Without `assumingPayloadEnd`, as through the public `parse`, never.
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#, assuming: false) { event in
      #expect(!event.isPayloadEndAssumed)
      #expect(event.expectedPayloadEnd == nil)
    }
  }

  @Test func checkingThePayloadConfirmsItsEnd() throws {
    try withEvent(#"{"type":"zzz.event","payload":{"a":[1,{"b":"}"}]}}"#) { event in
      #expect(event.isPayloadEndAssumed)
      #expect(throws: Never.self) { try event.checkPayload() }
    }
    // The payload ends before the line's last byte but one: another member follows.
    try withEvent(#"{"type":"zzz.event","payload":{"a":1},"b":{}}"#) { event in
      #expect(event.isPayloadEndAssumed)
      let error = #expect(throws: RaspEventError.self) { try event.checkPayload() }
      #expect(error?.description == RaspPayload.unconfirmedEnd.description)
    }
  }

  @Test func theDecoderConfirmsTheEndOrThrows() throws {
    let snapshot = SnapshotState(domains: RaspBuiltinDomains.all)
    let decoder = snapshot.makeDecoder()
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#) { event in
      let routed = try #require(snapshot.router.route(event))
      let columns = decoder.makeColumns(sizedLike: [])
      #expect(try decoder.decode(routed, into: .passUnretained(columns[routed.domainIndex])) == 0)
    }
    for line in misleadingLines {
      try withEvent(line) { event in
        #expect(event.isPayloadEndAssumed, "\(line)")
        let routed = try #require(snapshot.router.route(event))
        let columns = decoder.makeColumns(sizedLike: [])
        #expect(throws: RaspEventError.self, "\(line)") {
          try decoder.decode(routed, into: .passUnretained(columns[routed.domainIndex]))
        }
        #expect(columns[routed.domainIndex].count == 0, "\(line): nothing kept")
      }
    }
  }

  /// The lines whose assumed payload end is wrong: a payload reader must not confirm it.
  private let misleadingLines = [
    #"{"type":"geo.heading","payload":{"heading":90},"type":{}}"#,  // a second type after it
    #"{"type":"geo.heading","payload":{"heading":90},"x":{}}"#,  // a valid line, but not assumable
    #"{"type":"geo.heading","payload":{"heading":90}}}"#,  // one brace too many
  ]

  @Test func anAssumedEventIsAppliedOnlyWhenItsPayloadConfirmsTheEnd() throws {
    var snapshot = SnapshotState(domains: RaspBuiltinDomains.all)
    let before = snapshot.json()
    for line in misleadingLines {
      try withEvent(line) { event in
        #expect(event.isPayloadEndAssumed, "\(line)")
        let routed = try #require(snapshot.router.route(event))
        let error = #expect(throws: RaspEventError.self, "\(line)") {
          try snapshot.apply(event: routed)
        }
        #expect(error?.description == RaspPayload.unconfirmedEnd.description, "\(line)")
      }
      #expect(snapshot.json() == before, "\(line)")
    }
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#) { event in
      #expect(event.isPayloadEndAssumed)
      let routed = try #require(snapshot.router.route(event))
      try snapshot.apply(event: routed)
    }
    #expect(
      snapshot.encodedState(ofDomainAt: try #require(snapshot.domainIndex(named: "geo")))
        == Array(#"{"accuracy":null,"heading":90,"location":null}"#.utf8))
  }

  @Test func aPayloadReaderConfirmsTheEndWhenItFinishes() throws {
    for line in misleadingLines {
      try withEvent(line) { event in
        var payload = RaspPayload(
          line: event.line, offset: event.payloadOffset, expectedEnd: event.expectedPayloadEnd)
        #expect(throws: RaspEventError.self, "\(line)") { try payload.finish() }
      }
    }
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#) { event in
      var payload = RaspPayload(
        line: event.line, offset: event.payloadOffset, expectedEnd: event.expectedPayloadEnd)
      try payload.finish()
      #expect(payload.endOffset == event.line.count - 1)
    }
    // Read without assuming, the payload of a misleading line ends where it ends.
    try withEvent(misleadingLines[1], assuming: false) { event in
      var payload = RaspPayload(
        line: event.line, offset: event.payloadOffset, expectedEnd: event.expectedPayloadEnd)
      try payload.finish()
    }
  }

  @Test func anEventDecodedAheadIsAppliedFromItsColumn() throws {
    var snapshot = SnapshotState(domains: RaspBuiltinDomains.all)
    let decoder = snapshot.makeDecoder()
    let columns = decoder.makeColumns(sizedLike: [])
    let geo = try #require(snapshot.domainIndex(named: "geo"))
    for heading in [90, 180] {
      try withEvent(#"{"type":"geo.heading","payload":{"heading":\#(heading)}}"#) { event in
        let routed = try #require(snapshot.router.route(event))
        let row = try decoder.decode(routed, into: .passUnretained(columns[geo]))
        let decoded = SnapshotState.Event(
          envelope: event, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex,
          column: .passUnretained(columns[geo]), row: row)
        try snapshot.apply(event: decoded)
        #expect(
          snapshot.encodedState(ofDomainAt: geo)
            == Array(#"{"accuracy":null,"heading":\#(heading),"location":null}"#.utf8))
      }
    }
    // A column of another domain is refused, and the snapshot is unchanged.
    let before = snapshot.json()
    try withEvent(#"{"type":"geo.heading","payload":{"heading":1}}"#) { event in
      let routed = try #require(snapshot.router.route(event))
      let row = try decoder.decode(routed, into: .passUnretained(columns[geo]))
      let other = (geo + 1) % columns.count
      let wrong = SnapshotState.Event(
        envelope: event, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex,
        column: .passUnretained(columns[other]), row: row)
      #expect(throws: RaspEventError.self) { try snapshot.apply(event: wrong) }
    }
    #expect(snapshot.json() == before)
  }
}
