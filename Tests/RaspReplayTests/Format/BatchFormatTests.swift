import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Lines that hold several events (CloudEvents and Segment batches, OTLP requests) and events
/// held as JSON text in a string (Kafka messages): how they are found, counted, and how their
/// errors point back at the original line's columns.
@Suite struct BatchFormatTests {
  private func format(_ name: String) throws -> LogFormat {
    try #require(LogFormat.preset(named: name))
  }

  private static func heading(_ value: Int) -> String {
    #"{"geo":{"accuracy":null,"heading":\#(value),"location":null}}"#
  }

  // MARK: Paths

  @Test func readsEventsPathsAndNamesTheirMembers() throws {
    let otlp = try EventsPath("resourceLogs[].scopeLogs[].logRecords[]")
    #expect(otlp.levels == [["resourceLogs"], ["scopeLogs"], ["logRecords"]])
    #expect(otlp.member((0, 1, 2)) == "resourceLogs[0].scopeLogs[1].logRecords[2]")
    #expect(try EventsPath("[]").member((3, -1, -1)) == "[3]")
    #expect(try EventsPath("data.items[]").member((0, -1, -1)) == "data.items[0]")
    #expect(try EventsPath(#"["a.b"][]"#).member((1, -1, -1)) == #"["a.b"][1]"#)
    func reason(_ text: String) -> String {
      do {
        _ = try EventsPath(text)
        return "ok"
      } catch {
        return error.description
      }
    }
    #expect(
      reason("batch") == "'batch' does not end in '[]': write the array of events as 'batch[]'")
    #expect(reason("a[]b[]") == "'a[]b[]' needs a '.' after each '[]' but the last")
    #expect(reason("a[][]") == "'a[][]' has '[][]': an array of arrays")
    #expect(reason("[][]") == "'[][]' has '[][]': an array of arrays")
    #expect(reason("a[].b[].c[].d[]") == "'a[].b[].c[].d[]' goes through more than 3 arrays")
  }

  /// What the splitter finds in `line`: `single`, the members as `indices text`, or the error.
  private func split(_ path: String, _ line: String) throws -> [String] {
    let splitter = EventSplitter(path: try EventsPath(path))
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      var members: [EventSplitter.Member] = []
      do throws(EventSplitter.Failure) {
        guard case .members = try splitter.split(buffer, into: &members) else {
          return ["single"]
        }
      } catch {
        return ["error at \(error.error.offset ?? -1) \(error.indices): \(error.error)"]
      }
      return members.map { member in
        let text = String(decoding: buffer[member.range], as: UTF8.self)
        let problem = member.problem.map { " (\($0))" } ?? ""
        return "\(member.indices) \(text)\(problem)"
      }
    }
  }

  @Test func findsTheEventsOfABatchLineAndTakesOtherLinesForOneEvent() throws {
    #expect(try split("[]", #"{"type":"a.b"}"#) == ["single"])
    #expect(
      try split("[]", #" [ {"a":1} , 2, {"b":[]} ] "#) == [
        #"(0, -1, -1) {"a":1}"#,
        "(1, -1, -1) 2 (an event must be a JSON object, found a number)",
        #"(2, -1, -1) {"b":[]}"#,
      ])
    #expect(try split("[]", "[]") == [])
    #expect(try split("batch[]", #"{"type":"track"}"#) == ["single"])
    #expect(try split("batch[]", #"{"batch":null}"#) == ["single"])
    #expect(try split("batch[]", #"{"context":{},"batch":[{"x":1}]}"#) == [#"(0, -1, -1) {"x":1}"#])
    #expect(
      try split("batch[]", #"{"batch":{"x":1}}"#)
        == ["error at 9 (-1, -1, -1): field 'batch' must be an array of events, found an object"])
    #expect(
      try split("a[].b[]", #"{"a":[{"b":[{"n":1},{"n":2}]},{"c":0},{"b":[{"n":3}]}]}"#) == [
        #"(0, 0, -1) {"n":1}"#, #"(0, 1, -1) {"n":2}"#, #"(2, 0, -1) {"n":3}"#,
      ])
    // The walk checks what it passes: syntax, and duplicate keys.
    #expect(try split("[]", "[{},").first?.hasPrefix("error at 4") == true)
    #expect(
      try split("batch[]", #"{"batch":[],"batch":[]}"#)
        == ["error at 12 (-1, -1, -1): duplicate key 'batch'"])
  }

  // MARK: Places

  @Test func mapsAPlaceInAnUnescapedStringBackToTheLine() {
    // The string's pieces, each escaped as JSON writes it: the raw offset of each piece's
    // first byte must come back for the text offset of its first byte.
    let pieces: [(text: String, raw: String)] = [
      ("{", "{"), ("\"", #"\""#), ("a", "a"), ("\n", #"\n"#), ("é", #"\u00e9"#), ("b", "b"),
      ("€", #"\u20AC"#), ("😀", #"\ud83d\ude00"#), ("é", "é"), ("\\", #"\\"#), ("}", "}"),
    ]
    let prefix = #"{"key":"k","payload":""#
    var raw = prefix
    var expectations: [(text: Int, raw: Int)] = []
    var text = 0
    for piece in pieces {
      expectations.append((text, raw.utf8.count - prefix.utf8.count))
      raw += piece.raw
      text += piece.text.utf8.count
    }
    raw += #""}"#
    let line = Array(raw.utf8)
    let start = prefix.utf8.count - 1  // the opening quote
    var origin = EventOrigin()
    origin.place = .unescaped
    origin.start = Int32(start)
    origin.length = Int32(text)
    origin.rawLength = Int32(line.count - 1 - start)
    line.withUnsafeBufferPointer { line in
      for expectation in expectations {
        #expect(
          origin.lineOffset(of: start + expectation.text, in: line)
            == start + 1 + expectation.raw, "text offset \(expectation.text)")
      }
      #expect(origin.lineOffset(of: 3, in: line) == 3, "before the string")
      // The end of the text — where JSON cut short is reported — is the closing quote.
      #expect(origin.lineOffset(of: start + text, in: line) == line.count - 2)
    }
  }

  // MARK: Batches

  @Test(arguments: [ReplayConfiguration.Threading.single, .readAhead, .decodeAhead])
  func appliesEachMemberOfABatchAndCountsTheLineOnce(
    threading: ReplayConfiguration.Threading
  ) throws {
    func event(_ id: Int, _ heading: String) -> String {
      #"{"specversion":"1.0","id":"\#(id)","source":"/c","type":"com.x.geo.heading","#
        + #""data":{"heading":\#(heading)}}"#
    }
    let log = [
      "[" + event(1, "1") + "," + event(2, "\"x\"") + "," + event(3, "3") + "]",
      "[]",
      "",
      event(4, "4"),
      "[" + event(5, "5") + "]",
    ].joined(separator: "\n")
    // Where the bad heading is, found independently in the line as written.
    let first = log.prefix { $0 != "\n" }
    let column =
      first.distance(
        from: first.startIndex, to: first.range(of: #""x""#)?.lowerBound ?? first.startIndex) + 1
    #expect(column > 100)
    #expect(
      replayFormat(
        [("a", log)], format: try format("cloudevents"), domains: [GeoDomain()],
        threading: threading) == [
          "0:1 " + Self.heading(1),
          "skipped 1:\(column) at [1]: field 'data.heading' must be a number, found a string",
          "0:1 " + Self.heading(3),
          "0:4 " + Self.heading(4),
          "0:5 " + Self.heading(5),
          "end: 5 read, 4 applied, 1 skipped, 0 unknown, 0 other, 0 dropped, 1 blank, "
            + "3 batches of 4",
        ])
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .decodeAhead])
  func readsBatchesLargerThanABatchOfLines(threading: ReplayConfiguration.Threading) throws {
    // One line of 5000 events, more than a batch of lines holds, between two lines.
    let member = #"{"type":"track","event":"x","properties":{}}"#
    let line = #"{"batch":["# + Array(repeating: member, count: 5000).joined(separator: ",") + "]}"
    let log = [#"{"type":"track","event":"x"}"#, line, #"{"type":"track","event":"y"}"#]
      .joined(separator: "\n")
    let outcomes = replayFormat(
      [("a", log)], format: try format("segment"), domains: [GeoDomain()], threading: threading)
    #expect(
      outcomes == [
        "end: 3 read, 0 applied, 0 skipped, 5002 unknown, 0 other, 0 dropped, 0 blank, "
          + "1 batches of 5000"
      ])
  }

  /// Segment's HTTP API: a batch's `context` (and `integrations`) "will be merged with any
  /// context inside each of the items in the batch" — analytics-go puts its library there.
  @Test(arguments: [ReplayConfiguration.Threading.single, .decodeAhead])
  func eachCallOfABatchGetsTheBatchsContextUnderItsOwn(
    threading: ReplayConfiguration.Threading
  ) throws {
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "track", "initial": {}, "events": [
          {"name": "Played", "ops": [
            {"op": "set", "path": "source", "from": "source", "default": null},
            {"op": "set", "path": "device", "from": "context.device", "default": null},
            {"op": "increment", "path": "plays", "from": "payload.plays"}]}]}]}
        """#.utf8))
    let calls = [
      // No context of its own: the batch's.
      #"{"type":"track","event":"Played","properties":{"plays":1}}"#,
      // Its own context, merged over the batch's at every depth.
      #"{"type":"track","context":{"library":{"version":"9"},"device":{"id":"d2"}},"#
        + #""event":"Played","properties":{"plays":2}}"#,
      // A context that is not an object stays as it is.
      #"{"type":"track","event":"Played","context":"x","properties":{"plays":3}}"#,
      // A bad payload after the context: its column is the line's.
      #"{"type":"track","context":{"device":{"id":"d4"}},"event":"Played","#
        + #""properties":{"plays":"four"}}"#,
    ]
    let line =
      #"{"batch":["# + calls.joined(separator: ",") + #"],"context":{"library":"#
      + #"{"name":"analytics-go","version":"3.0.0"},"device":{"type":"phone"}},"#
      + #""integrations":{"All":true}}"#
    let bad = try #require(line.range(of: #""four""#))
    let column = line.distance(from: line.startIndex, to: bad.lowerBound) + 1
    let outcomes = replayFormat(
      [("a", line)], format: try format("segment"), domains: spec.domains, threading: threading)
    #expect(
      outcomes.dropLast() == [
        #"0:1 {"track":{"device":{"type":"phone"},"plays":1,"source":"analytics-go"}}"#,
        #"0:1 {"track":{"device":{"id":"d2","type":"phone"},"plays":3,"source":"analytics-go"}}"#,
        #"0:1 {"track":{"device":null,"plays":6,"source":null}}"#,
        "skipped 1:\(column) at batch[3]: field 'properties.plays' must be a number, found a "
          + "string",
      ])
  }

  /// Each call gets a copy of its batch's context: a batch whose copies would take more than
  /// 64 MiB is one bad line, not gigabytes of memory.
  @Test func aBatchWhoseContextCopiesWouldBeTooLargeIsABadLine() throws {
    let context = #"{"device":{"name":""# + String(repeating: "x", count: 30_000) + #""}}"#
    let calls = Array(
      repeating: #"{"type":"track","event":"Played","properties":{}}"#, count: 3_000)
    let line = #"{"batch":["# + calls.joined(separator: ",") + #"],"context":"# + context + "}"
    let column = try #require(line.range(of: #""context":{"#)).upperBound.utf16Offset(in: line)
    #expect(
      replayFormat([("a", line)], format: try format("segment"), domains: [GeoDomain()]) == [
        "skipped 1:\(column) invalid value for field 'context': merged into each of the line's "
          + "3000 events, the line's 'context' (\(context.utf8.count) bytes) would make more than "
          + "67108864 bytes",
        "end: 1 read, 0 applied, 1 skipped, 0 unknown, 0 other, 0 dropped, 0 blank",
      ])
  }

  @Test func aMemberSplicedWithItsLinesFieldsKeepsItsBytesAroundThem() throws {
    let line = Array(
      (#"{"batch":[{"a":1,"context":{"x":{"y":1}},"b":2},{},{"context":3}],"#
        + #""context":{"x":{"z":2}},"other":0}"#).utf8)
    try line.withUnsafeBufferPointer { line in
      let shared = LineClassifier.sharedFields(["context", "missing"], of: line)
      #expect(shared.map(\.field) == ["context"])
      func member(_ text: String) throws -> Range<Int> {
        let start = try #require(
          String(decoding: line, as: UTF8.self).utf8.firstRange(of: text.utf8))
        let offset = String(decoding: line, as: UTF8.self).utf8.distance(
          from: String(decoding: line, as: UTF8.self).utf8.startIndex, to: start.lowerBound)
        return offset..<offset + text.utf8.count
      }
      let first = try member(#"{"a":1,"context":{"x":{"y":1}},"b":2}"#)
      let spliced = try #require(LineClassifier.splicing(shared, into: first, of: line))
      #expect(
        String(decoding: spliced.event, as: UTF8.self)
          == #"{"a":1,"context":{"x":{"y":1,"z":2}},"b":2}"#)
      var origin = EventOrigin()
      origin.place = .spliced
      origin.start = Int32(first.lowerBound)
      origin.splice = Int32(spliced.splice)
      origin.length = Int32(spliced.length)
      origin.rawLength = Int32(spliced.rawLength)
      // `"a"` before the span, the span itself, and `"b"` after it, each back in the line.
      #expect(origin.lineOffset(of: 1, in: line) == first.lowerBound + 1)
      #expect(origin.lineOffset(of: 20, in: line) == first.lowerBound + 17)
      let after = spliced.event.count - 4
      #expect(spliced.event[after] == UInt8(ascii: "\""))
      #expect(origin.lineOffset(of: after, in: line) == first.upperBound - 4)
      let empty = try #require(
        LineClassifier.splicing(shared, into: try member("{}"), of: line))
      #expect(String(decoding: empty.event, as: UTF8.self) == #"{"context":{"x":{"z":2}}}"#)
      #expect(LineClassifier.splicing(shared, into: try member(#"{"context":3}"#), of: line) == nil)
    }
  }

  @Test func readsOpenTelemetryEventsAndDropsPlainLogRecords() throws {
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "browser", "initial": {}, "events": [
          {"name": "page_view", "ops": [
            {"op": "set", "path": "url", "from": "payload.url"},
            {"op": "set", "path": "service", "from": "source"},
            {"op": "set", "path": "scope", "from": "scope.name"}]}]}]}
        """#.utf8))
    let record = { (name: String, time: String, url: String) in
      #"{"timeUnixNano":"\#(time)","eventName":"\#(name)","body":{"kvlistValue":{"values":["#
        + #"{"key":"url","value":{"stringValue":"\#(url)"}}]}}}"#
    }
    let line =
      #"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":"#
      + #"{"stringValue":"shop"}}]},"scopeLogs":[{"scope":{"name":"web"},"logRecords":["#
      + record("browser.page_view", "1700000000000000001", "/a") + ","
      + #"{"timeUnixNano":"1700000000000000002","body":{"stringValue":"plain"}},"#
      + record("browser.page_view", "0", "/b") + "]}]}]}"
    #expect(
      replayFormat([("a", line)], format: try format("otel"), domains: spec.domains) == [
        #"0:1 {"browser":{"scope":"web","service":"shop","url":"/a"}}"#,
        #"0:1 {"browser":{"scope":"web","service":"shop","url":"/b"}}"#,
        "end: 1 read, 2 applied, 0 skipped, 0 unknown, 0 other, 1 dropped, 0 blank, "
          + "1 batches of 3",
      ])
  }

  // MARK: Kafka messages

  private static func message(_ offset: Int, ts: Int64?, payload: String?) -> String {
    var line = #"{"topic":"t","partition":0,"offset":\#(offset),"key":"k""#
    if let ts { line += #","tstype":"create","ts":\#(ts)"# }
    if let payload {
      var writer = JSONWriter()
      writer.writeString(payload)
      line += #","payload":"# + String(decoding: writer.bytes, as: UTF8.self)
    } else {
      line += #","payload":null"#
    }
    return line + "}"
  }

  @Test func readsTheEventInAKafkaMessagesPayloadWithTheMessagesTimeForOneWithout() throws {
    // Two partitions, merged by time: the events' own times where they have one, the
    // message's (milliseconds) where not.
    let a = [
      Self.message(
        0, ts: 1_767_225_600_001, payload: #"{"type":"geo.heading","payload":{"heading":1}}"#),
      Self.message(
        1, ts: 1_767_225_600_000,
        payload: #"{"type":"geo.heading","ts":"2026-01-01T00:00:00.004Z","#
          + #""payload":{"heading":4}}"#),
    ].joined(separator: "\n")
    let b = [
      Self.message(
        0, ts: 1_767_225_600_002, payload: #"{"type":"geo.heading","payload":{"heading":2}}"#),
      Self.message(1, ts: nil, payload: nil),
      Self.message(
        2, ts: 1_767_225_600_003, payload: #"{"type":"geo.heading","payload":{"heading":3}}"#),
    ].joined(separator: "\n")
    #expect(
      replayFormat([("a", a), ("b", b)], format: try format("kcat"), domains: [GeoDomain()]) == [
        "0:1 " + Self.heading(1), "1:1 " + Self.heading(2), "1:3 " + Self.heading(3),
        "0:2 " + Self.heading(4),
        "end: 5 read, 4 applied, 0 skipped, 0 unknown, 0 other, 1 dropped, 0 blank",
      ])
  }

  /// kcat writes `"payload":null,"payload_error":"…"` for a value it could not decode
  /// (`-s value=avro`, kcat's json.c): a value lost, not a tombstone.
  @Test func aPayloadKcatCouldNotDecodeIsABadLineNotATombstone() throws {
    let error = "Avro/Schema-registry message deserialization: Invalid CP1 magic byte 123"
    let line =
      #"{"topic":"t","partition":0,"offset":3,"key":"k","payload":null,"payload_error":""#
      + error + #""}"#
    let column = try #require(line.range(of: #""Avro"#)).lowerBound.utf16Offset(in: line) + 1
    #expect(
      replayFormat(
        [("a", line + "\n" + Self.message(4, ts: nil, payload: nil))], format: try format("kcat"),
        domains: [GeoDomain()]) == [
          "skipped 1:\(column) invalid value for field 'payload': the consumer could not decode "
            + "it: \(error)",
          "end: 2 read, 0 applied, 1 skipped, 0 unknown, 0 other, 1 dropped, 0 blank",
        ])
  }

  @Test func pointsErrorsInAKafkaPayloadAtTheOriginalLinesColumns() throws {
    let lines = [
      Self.message(0, ts: 1, payload: "not json"),
      Self.message(1, ts: 1, payload: #"{"type":"geo.heading","payload":{"heading":"é"}}"#),
      Self.message(2, ts: 1, payload: #"{"type":"geo.heading","payload":{"heading":1},}"#),
      #"{"topic":"t","payload":7}"#,
      #"{"topic":"t","payload":" \t "}"#,
      #"{"topic":"t","payload":""}"#,
      #"{"topic":"t","payload":"{\"type\":\"geo.heading\",\"payload\":{"}"#,
      #"{"topic":"t","key":"k"}"#,
      #"{"topic":"t","payload":{"type":"geo.heading","payload":{"heading":1}}}"#,
    ]
    // The columns, found independently in the lines as written.
    func column(_ line: String, _ marker: String) -> Int {
      guard let range = line.range(of: marker) else { return -1 }
      return line[..<range.lowerBound].count + 1
    }
    let outcomes = replayFormat([("a", lines.joined(separator: "\n"))], format: try format("kcat"))
    #expect(
      outcomes == [
        "skipped 1:\(column(lines[0], "not json")) invalid value for field 'payload': the string "
          + "holds no JSON event: invalid literal 'not': strings must be in double quotes",
        "skipped 2:\(column(lines[1], #"\"é"#)) field 'payload.payload.heading' must be a "
          + "number, found a string",
        "skipped 3:\(column(lines[2], "},}") + 1) invalid value for field 'payload': the string "
          + "holds no JSON event: trailing comma before '}'",
        "skipped 4:\(column(lines[3], "7")) field 'payload' must be a string holding an event's "
          + "JSON, or an object, found a number",
        // Nothing in the string, or JSON cut short: said so, inside the string.
        "skipped 5:\(column(lines[4], " \\t")) invalid value for field 'payload': the string "
          + "holds no JSON event: it is empty",
        "skipped 6:\(column(lines[5], #""}"#)) invalid value for field 'payload': the "
          + "string holds no JSON event: it is empty",
        "skipped 7:\(column(lines[6], #"{"}"#) + 1) invalid value for field 'payload': the "
          + "string holds no JSON event: unexpected end of input in an unterminated object, "
          + "expected a key or '}'",
        // A line that is no message at all.
        "skipped 8:1 missing required field 'payload'",
        // A payload kcat printed as JSON already.
        #"0:9 {"geo":{"accuracy":null,"heading":1,"location":null},"#
          + #""nav":{"modal":null,"stack":[],"tab":null}}"#,
        "end: 9 read, 1 applied, 8 skipped, 0 unknown, 0 other, 0 dropped, 0 blank",
      ])
  }

  @Test func aSpecReadsTheEventsOwnFieldsBeforeTheMessages() throws {
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "todos", "initial": {}, "events": [
          {"name": "todoAdded", "ops": [
            {"op": "set", "path": "by", "from": "meta.user"},
            {"op": "set", "path": "key", "from": "key"},
            {"op": "set", "path": "offset", "from": "offset"}]}]}]}
        """#.utf8))
    // The same action in a string (read through the map), as JSON kcat decoded, and in a
    // string of rasp's own lines (read quickly), with a 'key' of its own.
    let action = #"{"type":"todos/todoAdded","payload":{},"meta":{"user":"ann"}}"#
    let own = #"{"type":"todos.todoAdded","meta":{"user":"bob"},"key":"own"}"#
    let fsaMessages = [
      Self.message(3, ts: 1, payload: action),
      #"{"topic":"t","offset":4,"key":"k","payload":\#(action)}"#,
    ].joined(separator: "\n")
    let fsa = try LogFormat(
      mapFile: Array(#"{"inner": "payload", "innerFormat": "fsa", "time": "ts"}"#.utf8), name: "k")
    #expect(
      replayFormat([("a", fsaMessages)], format: fsa, domains: spec.domains) == [
        #"0:1 {"todos":{"by":"ann","key":"k","offset":3}}"#,
        #"0:2 {"todos":{"by":"ann","key":"k","offset":4}}"#,
        "end: 2 read, 2 applied, 0 skipped, 0 unknown, 0 other, 0 dropped, 0 blank",
      ])
    #expect(
      replayFormat(
        [("a", Self.message(5, ts: 1, payload: own))], format: try format("kcat"),
        domains: spec.domains) == [
          #"0:1 {"todos":{"by":"bob","key":"own","offset":5}}"#,
          "end: 1 read, 1 applied, 0 skipped, 0 unknown, 0 other, 0 dropped, 0 blank",
        ])
  }

  @Test func showsTheMessageWithItsPayloadInPlaceAsTheEvent() throws {
    var configuration = ReplayConfiguration(domains: [GeoDomain()])
    configuration.format = try format("kcat")
    configuration.includesEvent = true
    configuration.selection = try JSONPath("geo.heading")
    let line = Self.message(7, ts: 5, payload: #"{"type":"geo.heading","payload":{"heading":9}}"#)
    var replay = Replay(memory: line, name: "a", configuration: configuration)
    var records: [String] = []
    replay.forEachOutcome { _, bytes in
      if let bytes { records.append(String(decoding: bytes, as: UTF8.self)) }
    }
    #expect(
      records == [
        #"{"event":{"key":"k","offset":7,"partition":0,"payload":{"payload":{"heading":9},"#
          + #""type":"geo.heading"},"topic":"t","ts":5,"tstype":"create"},"file":"a","line":1,"#
          + #""seq":1,"value":9}"#
      ])
  }
}
