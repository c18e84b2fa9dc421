import Testing
import RaspDomains
import RaspJSON

/// Reads a line's envelope and describes it, or its error as `col <n>: <message>`.
private func envelope(_ line: String) -> String {
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    do throws(RaspEventError) {
      let event = try RaspLogEvent.parse(buffer)
      try event.checkPayload()
      var parts = [
        "type=\(event.type)", "domain=\(event.domain.string)", "name=\(event.name.string)",
      ]
      parts.append("payload=\(event.payloadOffset.map(String.init) ?? "none")")
      parts.append("ts=\(event.context.timestamp.map { "\($0)" } ?? "none")")
      parts.append("source=\(event.context.source ?? "none")")
      return parts.joined(separator: " ")
    } catch {
      return "col \((error.offset ?? -1) + 1): \(error)"
    }
  }
}

@Suite struct RaspLogEventTests {
  @Test func readsTheEnvelope() {
    #expect(
      envelope(
        #"{"type":"geo.heading","ts":"2026-11-22T09:30:00+01:00","source":"compass","payload":{"heading":90},"extra":[1]}"#
      )
        == "type=geo.heading domain=geo name=heading payload=84 ts=2026-11-22T08:30:00Z source=compass"
    )
    #expect(
      envelope(#" {"payload":null,"ts":null,"source":null,"type":"nav.pop"} "#)
        == "type=nav.pop domain=nav name=pop payload=none ts=none source=none")
    #expect(
      envelope(#"{"type":"lifecycle.launch","ts":1795336200.5}"#)
        == "type=lifecycle.launch domain=lifecycle name=launch payload=none ts=2026-11-22T08:30:00.5Z source=none"
    )
  }

  @Test func splitsTheTypeAtItsFirstDot() {
    #expect(envelope(#"{"type":"data.a.b"}"#).hasPrefix("type=data.a.b domain=data name=a.b "))
    #expect(envelope(#"{"type":"n\u0061v.push"}"#).hasPrefix("type=nav.push domain=nav name=push "))
  }

  @Test(arguments: [
    (
      #"{"type":"geo.heading""#,
      "col 22: unexpected end of input in an unterminated object, expected ',' or '}'"
    ),
    ("", "col 1: unexpected end of input, expected an event object"),
    ("[1]", "col 1: an event must be a JSON object, found an array"),
    (#"{"payload":{}}"#, "col 1: missing required field 'type'"),
    (#"{"type":1}"#, "col 9: field 'type' must be a string such as 'geo.heading', found a number"),
    (
      #"{"type":"geo"}"#,
      "col 9: invalid value for field 'type': 'geo' is not of the form 'domain.event', such as 'geo.heading'"
    ),
    (
      #"{"type":".heading"}"#,
      "col 9: invalid value for field 'type': '.heading' is not of the form 'domain.event', such as 'geo.heading'"
    ),
    (
      #"{"type":"geo."}"#,
      "col 9: invalid value for field 'type': 'geo.' is not of the form 'domain.event', such as 'geo.heading'"
    ),
    (#"{"type":"a.b","payload":1}"#, "col 25: field 'payload' must be an object, found a number"),
    (
      #"{"type":"a.b","ts":"noon"}"#,
      "col 20: invalid value for field 'ts': not an RFC 3339 time: expected 4 digits for the year"
    ),
    (
      #"{"type":"a.b","ts":[]}"#,
      "col 20: field 'ts' must be an RFC 3339 string or a number of seconds, found an array"
    ),
    (
      #"{"type":"a.b","ts":1e20}"#,
      "col 20: invalid value for field 'ts': epoch seconds out of range: must be between -9000000000000 and 9000000000000"
    ),
    (#"{"type":"a.b","source":1}"#, "col 24: field 'source' must be a string, found a number"),
    (#"{"type":"a.b","type":"a.b"}"#, "col 15: duplicate key 'type'"),
    (#"{"type":"a.b","x":1,"x":2}"#, "col 21: duplicate key 'x'"),
    (#"{"type":"a.b","payload":{"k":1,"k":2}}"#, "col 32: duplicate key 'k'"),
  ])
  func reportsEnvelopeErrorsAtTheirPlace(_ line: String, _ message: String) {
    #expect(envelope(line) == message)
  }

  @Test func readsATimeWrittenWithEscapes() throws {
    let bytes = Array(#"{"type":"a.b","ts":"\u0032026-11-22T09:30:00.250\u002B01:00"}"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      let event = try RaspLogEvent.parse(buffer)
      #expect(event.context.timestamp == (try RaspTimestamp(rfc3339: "2026-11-22T09:30:00.250+01:00")))
    }
  }

  @Test func leavesThePayloadToItsDecoderUntilAskedToCheckIt() throws {
    let bytes = Array(#"{"type":"a.b","payload":{"k":1,"k":2}}"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      let event = try RaspLogEvent.parse(buffer)
      #expect(event.payloadOffset == 24)
      #expect(throws: RaspEventError.self) { try event.checkPayload() }
    }
  }
}
