import RaspJSON
import Testing

@testable import RaspDomains

/// Reading an envelope with `assumingPayloadEnd`, and the readers that confirm that end: the
/// replay's reading thread takes a payload that ends the line to end at its last byte but one,
/// and leaves matching its braces to the domain's decoder.
@Suite struct RaspAssumedPayloadEndTests {
  /// Reads `line` with `assumingPayloadEnd` and hands the event to `body`.
  private func withEvent<Result>(
    _ line: String, assuming: Bool = true, _ body: (RaspLogEvent) throws -> Result
  ) throws -> Result {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var memo = RaspTimestamp.Memo()
      let event = try RaspLogEvent.parse(buffer, memo: &memo, assumingPayloadEnd: assuming)
      return try body(event)
    }
  }

  @Test func aPayloadThatEndsTheLineAfterTheTypeIsAssumed() throws {
    let line = #"{"ts":"2026-11-22T09:30:00Z","type":"geo.heading","payload":{"heading":90}}"#
    try withEvent(line) { event in
      #expect(event.isPayloadEndAssumed)
      #expect(event.payloadOffset == 60)
      #expect(event.confirmsPayloadEnd(line.utf8.count - 1))
      #expect(!event.confirmsPayloadEnd(line.utf8.count - 2))
      #expect(!event.confirmsPayloadEnd(nil))
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
      #expect(event.confirmsPayloadEnd(nil))
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
      #expect(error?.description == RaspLogEvent.unconfirmedPayloadEnd.description)
    }
  }

  @Test func theDecoderConfirmsTheEndOrThrows() throws {
    let snapshot = RaspSnapshotState(domains: RaspBuiltinDomains.all)
    let decoder = snapshot.makeDecoder()
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#) { event in
      let routed = try #require(snapshot.router.route(event))
      let columns = decoder.makeColumns()
      #expect(try decoder.decode(routed, into: columns) == 0)
    }
    for line in [
      #"{"type":"geo.heading","payload":{"heading":90},"type":{}}"#,  // a second type after it
      #"{"type":"geo.heading","payload":{"heading":90},"x":{}}"#,  // a valid line, but not assumable
      #"{"type":"geo.heading","payload":{"heading":90}}}"#,  // one brace too many
    ] {
      try withEvent(line) { event in
        #expect(event.isPayloadEndAssumed, "\(line)")
        let routed = try #require(snapshot.router.route(event))
        #expect(throws: RaspEventError.self, "\(line)") { try decoder.decode(routed, into: decoder.makeColumns()) }
      }
    }
  }

  @Test func anAssumedEventIsNeverAppliedWithoutItsDecoder() throws {
    var snapshot = RaspSnapshotState(domains: RaspBuiltinDomains.all)
    let before = snapshot.json()
    try withEvent(#"{"type":"geo.heading","payload":{"heading":90}}"#) { event in
      let routed = try #require(snapshot.router.route(event))
      #expect(throws: RaspEventError.self) { try snapshot.apply(event: routed) }
    }
    #expect(snapshot.json() == before)
  }
}
