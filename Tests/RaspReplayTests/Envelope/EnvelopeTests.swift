import Testing
import RaspDomains
import RaspJSON
import RaspReplay

/// Reads a line's envelope and describes it, or its error as `col <n>: <message>`.
private func envelope(_ line: String) -> String {
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    do throws(RaspEventError) {
      let event = try Envelope.parse(buffer)
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

@Suite struct EnvelopeTests {
  @Test func readsTheEnvelope() {
    #expect(
      envelope(
        #"{"type":"geo.heading","ts":"2026-11-22T09:30:00+01:00","source":"compass","#
          + #""payload":{"heading":90},"extra":[1]}"#)
        == "type=geo.heading domain=geo name=heading payload=84 "
        + "ts=2026-11-22T08:30:00Z source=compass")
    #expect(
      envelope(#" {"payload":null,"ts":null,"source":null,"type":"nav.pop"} "#)
        == "type=nav.pop domain=nav name=pop payload=none ts=none source=none")
    #expect(
      envelope(#"{"type":"lifecycle.launch","ts":1795336200.5}"#)
        == "type=lifecycle.launch domain=lifecycle name=launch payload=none "
        + "ts=2026-11-22T08:30:00.5Z source=none")
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
      "col 9: invalid value for field 'type': "
        + "'geo' is not of the form 'domain.event', such as 'geo.heading'"
    ),
    (
      #"{"type":".heading"}"#,
      "col 9: invalid value for field 'type': "
        + "'.heading' is not of the form 'domain.event', such as 'geo.heading'"
    ),
    (
      #"{"type":"geo."}"#,
      "col 9: invalid value for field 'type': "
        + "'geo.' is not of the form 'domain.event', such as 'geo.heading'"
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
      "col 20: invalid value for field 'ts': 1e20 is too many seconds since 1970 (past the year "
        + "5138): it looks like nanoseconds; read the log with a map file whose \"timeUnit\" is "
        + "\"ns\" (see docs/formats.md)"
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
      let event = try Envelope.parse(buffer)
      #expect(
        event.context.timestamp == (try RaspTimestamp(rfc3339: "2026-11-22T09:30:00.250+01:00")))
    }
  }

  /// Reads `ts` values through one memo, as a log's lines are read: each gives the time, or the
  /// message, that a fresh read of the same line gives.
  private func timesThroughOneMemo(_ times: [String]) -> [(memo: String, fresh: String)] {
    var memo = RaspTimestamp.Memo()
    return times.map { time in
      let bytes = Array(
        (#"{"type":"geo.heading","ts":""# + time + #"","payload":{"heading":1}}"#).utf8)
      return bytes.withUnsafeBufferPointer { buffer in
        func describe(_ read: () throws(RaspEventError) -> Envelope) -> String {
          do throws(RaspEventError) {
            return try read().context.timestamp.map { "\($0)" } ?? "none"
          } catch {
            return "col \((error.offset ?? -1) + 1): \(error)"
          }
        }
        return (
          describe { () throws(RaspEventError) in try Envelope.parse(buffer, memo: &memo) },
          describe { () throws(RaspEventError) in try Envelope.parse(buffer) }
        )
      }
    }
  }

  @Test func aMemoOfTheLastMinuteReadsEveryTimeAsAFreshReadDoes() {
    let times = [
      "2026-11-22T09:30:00.005Z", "2026-11-22T09:30:59.999Z", "2026-11-22T09:30:60Z",
      "2026-11-22T09:30:61Z", "2026-11-22T09:30:5Z", "2026-11-22T09:30:05.Z", "2026-11-22T09:30:05",
      "2026-11-22T09:30:05.1234567891+01:00", "2026-11-22T09:30:05-05:30",
      "2026-11-22T09:30:05+24:00", "2026-11-22T09:30-05Z", "2026-11-22T09:31:00Z",
      "2026-11-22t09:31:00z", "2026-11-22 09:31:00Z", "2026-02-29T09:31:00Z",
      "2026-02-29T09:31:01Z", "2026-11-22T24:00:00Z", "2026-11-22T24:00:01Z",
      "2024-02-29T23:59:59.5Z", "2024-02-29T23:59:58Z", "2026-11-22T09:31:00Z",
    ]
    let read = timesThroughOneMemo(times)
    for (time, result) in zip(times, read) {
      #expect(result.memo == result.fresh, "\(time)")
    }
    #expect(read[1].memo == "2026-11-22T09:30:59.999Z")
    #expect(
      read[3].memo.hasSuffix("time 09:30:61 is out of range"),
      "the minute is known, the second is not")
    #expect(read[7].memo == "2026-11-22T08:30:05.123456789Z")
    #expect(
      read[15].memo.hasSuffix("day 29 does not exist in month 2 of 2026"),
      "a bad date is never remembered")
    #expect(read[17].memo.hasSuffix("time 24:00:01 is out of range"))
  }

  @Test func aMemoReadsTimesBackAcrossMinutesDaysAndYears() throws {
    // Every 7.3 s for a day across a new year, then every 41 hours for two leap years: each
    // written by `description` and read back through one memo.
    let newYear = try RaspTimestamp(rfc3339: "2027-12-31T12:00:00Z").seconds
    var times = (0..<12_000).map {
      RaspTimestamp(
        seconds: newYear + Int64($0) * 73 / 10, nanoseconds: Int32($0 % 10) * 100_000_000)
    }
    times += (0..<1_000).map {
      RaspTimestamp(seconds: newYear + Int64($0) * 41 * 3600 + 59, nanoseconds: 0)
    }
    let read = timesThroughOneMemo(times.map(\.description))
    for (time, result) in zip(times, read)
    where result.memo != "\(time)" || result.fresh != "\(time)" {
      Issue.record("\(time): read back as \(result.memo) through the memo, \(result.fresh) afresh")
      return
    }
  }

  @Test func leavesThePayloadToItsDecoderUntilAskedToCheckIt() throws {
    let bytes = Array(#"{"type":"a.b","payload":{"k":1,"k":2}}"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      let event = try Envelope.parse(buffer)
      #expect(event.payloadOffset == 24)
      #expect(throws: RaspEventError.self) { try event.checkPayload() }
    }
  }
}
