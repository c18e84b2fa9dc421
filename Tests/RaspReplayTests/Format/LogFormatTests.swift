import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Log formats: the presets and map files, the type table that makes foreign types into
/// `domain.event`, the field locator, times in units, and replays of mapped logs checked
/// against the same events in rasp's own format.
@Suite struct LogFormatTests {
  // MARK: Presets

  @Test func thePresetsAreMapFilesThatRead() throws {
    #expect(
      LogFormat.presets.map(\.name) == [
        "rasp", "fsa", "devtools", "cloudevents", "segment", "otel", "kcat", "gpsd",
        "owntracks",
      ])
    for preset in LogFormat.presets {
      let read = try LogFormat(mapFile: Array(preset.text.utf8), name: "other")
      #expect(read.name == preset.name, "the text names its format")
      #expect(read.summary == preset.summary)
      #expect(preset.text.hasSuffix("}\n"))
    }
    #expect(LogFormat.preset(named: "fsa")?.name == "fsa")
    #expect(LogFormat.preset(named: "FSA") == nil)
    // The names a command line accepts are known without reading the map files, and are
    // those of the presets that read; each name gives its own preset.
    #expect(LogFormat.presetNames == LogFormat.presets.map(\.name))
    for preset in LogFormat.presets {
      let named = try #require(LogFormat.preset(named: preset.name))
      #expect(named.name == preset.name)
      #expect(named.text == preset.text)
      #expect(named.isRasp == preset.isRasp)
    }
    #expect(LogFormat.rasp.isRasp)
    #expect(LogFormat.preset(named: "segment")?.isRasp == false)
  }

  @Test func aMapFileWithoutAFormatTakesTheNameItIsGiven() throws {
    let format = try LogFormat(mapFile: Array(#"{"payload": "data"}"#.utf8), name: "mine.json")
    #expect(format.name == "mine.json")
    #expect(format.summary == "Read with the map file 'mine.json'.")
  }

  /// Every problem of a map file, as `line:column: path: reason`.
  private func problems(_ text: String) -> [String] {
    do {
      _ = try LogFormat(mapFile: Array(text.utf8), name: "test")
      return []
    } catch {
      return error.problems.map { "\($0.line):\($0.column): \($0.path ?? "-"): \($0.reason)" }
    }
  }

  @Test func reportsEveryProblemOfAMapFileWithItsPlace() {
    #expect(
      problems(
        """
        {"type": "{a|}", "split": "Last", "rename": [{"from": "a", "to": "b.*"}, 3],
         "drop": [1], "time": "meta.", "timeUnit": 5, "defaultDomain": "a.b", "format": "my format",
         "tipe": "x"}
        """) == [
          "1:10: type: an empty field name",
          "1:27: split: unknown value 'Last'. Did you mean 'last'?",
          "1:46: rename[0]: 'b.*' has more '*' than 'a': each '*' of 'to' stands for the text of "
            + "a '*' of 'from'",
          "1:74: rename[1]: expected {\"from\": …, \"to\": …}, found a number",
          "2:11: drop[0]: expected a string, found a number",
          "2:23: time: 'meta.' is not a field path: the path ends with '.' at column 6",
          "2:44: timeUnit: expected a string, found a number",
          "2:64: defaultDomain: 'a.b' is not a domain name",
          "2:81: format: a format's name is one word, such as 'fsa'",
          "3:2: tipe: unknown key 'tipe'. Did you mean 'type'?",
        ])
    #expect(problems("[]") == ["1:1: -: expected an object, found an array"])
    #expect(problems(#"{"type": ""}"#) == ["1:10: type: it is empty: write a field as '{type}'"])
    #expect(problems(#"{"type": "geo.location", "payload": "."}"#) == [])
    #expect(
      problems(
        #"{"fields": [{"from": "a", "to": "x", "scale": 0}, {"to": "b"}, "#
          + #"{"from": "a", "to": "c"}, 1, {"from": "d", "by": 2}]}"#)
        == [
          "1:47: fields[0].scale: expected a number other than 0, such as 1e-7",
          "1:51: fields[1]: a field needs 'from', and 'to', 'scale', 'absentIs' or 'skipIf'",
          "1:64: fields[2]: 'a' is moved twice",
          "1:90: fields[3]: expected {\"from\": …, \"to\": …}, found a number",
          "1:93: fields[4]: a field needs 'from', and 'to', 'scale', 'absentIs' or 'skipIf'",
          "1:107: fields[4].by: unknown key 'by': a field has 'from', 'to', 'scale', 'absentIs' "
            + "and 'skipIf'",
        ])
    #expect(problems(#"{"type": "}"}"#) == ["1:10: type: '}' without a '{' before it"])
    // One mistake, one message: nothing said again about what follows from it.
    #expect(
      problems(#"{"fields": [{"from": "latE7", "scale": "1e-7"}]}"#) == [
        "1:40: fields[0].scale: expected a number other than 0, such as 1e-7"
      ])
    #expect(
      problems(#"{"events": "batch", "decode": "otlp"}"#) == [
        "1:12: events: 'batch' does not end in '[]': write the array of events as 'batch[]'"
      ])
    #expect(
      problems("{")
        == ["1:2: -: unexpected end of input in an unterminated object, expected a key or '}'"])
    #expect(
      problems(#"{"inherit": ["context"]}"#) == [
        "1:13: inherit: 'inherit' gives the members of 'events' fields of their line: give the "
          + "map an 'events'"
      ])
    #expect(
      problems(#"{"events": "batch[]", "inherit": "context"}"#) == [
        "1:34: inherit: expected an array of strings, found a string"
      ])
    #expect(problems(#"{"events": "batch[]", "inherit": ["context"]}"#) == [])
  }

  @Test func anEventInAStringHasAFormatOfItsOwnAPresetOrAMap() throws {
    func inner(_ text: String) throws -> LogFormat? {
      try LogFormat(mapFile: Array(text.utf8), name: "m").inner?.format
    }
    #expect(try inner(#"{"inner": "payload"}"#)?.isRasp == true, "rasp's own, by default")
    #expect(try inner(#"{"inner": "payload", "innerFormat": "rasp"}"#)?.isRasp == true)
    let fsa = try #require(try inner(#"{"inner": "value", "innerFormat": "fsa"}"#))
    #expect(fsa.name == "fsa" && fsa.separator == Array("/".utf8) && fsa.drops.count == 2)
    let own = try #require(
      try inner(
        #"{"inner": "payload", "innerFormat": {"type": "{kind}", "separator": ":", "#
          + #""payload": ".", "drop": ["debug:*"]}}"#))
    #expect(!own.isRasp && own.separator == Array(":".utf8) && own.drops.count == 1)
    #expect(own.payload.map(\.description) == ["."])
    // The event's format read under the message's field: its paths start there.
    let kafka = try LogFormat(
      mapFile: Array(
        #"{"inner": "value", "innerFormat": {"type": "{kind}", "time": "at"}, "time": "ts"}"#
          .utf8), name: "k")
    let effective = kafka.effective
    #expect(effective.type.paths.map(\.description) == ["value.kind"])
    #expect(effective.time.map(\.description) == ["value.at"])
    #expect(effective.fallbackTime.map(\.description) == ["ts"])
    // Payload fields moved by either map: the event's own, or the message's.
    for map in [
      #"{"inner": "v", "innerFormat": {"fields": [{"from": "a", "to": "b"}]}}"#,
      #"{"inner": "v", "fields": [{"from": "a", "to": "b"}]}"#,
    ] {
      let format = try LogFormat(mapFile: Array(map.utf8), name: "k").effective
      #expect(format.fieldMoves != nil, "\(map)")
    }
  }

  @Test func aMapFileNamedRaspIsStillReadAsAMap() throws {
    let format = try LogFormat(mapFile: Array(LogFormat.rasp.text.utf8), name: "x")
    #expect(format.name == "rasp" && !format.isRasp)
    #expect(LogFormat.rasp.isRasp && LogFormat.preset(named: "rasp")?.isRasp == true)
  }

  @Test func reportsWhatAMapWithAnEventInAStringGetsWrong() {
    // What says how the event is written belongs in its own map, not beside 'inner'.
    #expect(
      problems(#"{"inner": "payload", "drop": ["a"], "type": "{t}"}"#) == [
        "1:30: drop: 'drop' says how the event inside 'payload' is written: put it in the map "
          + "of 'innerFormat' (\"innerFormat\": {\"drop\": …})",
        "1:45: type: 'type' says how the event inside 'payload' is written: put it in the map "
          + "of 'innerFormat' (\"innerFormat\": {\"type\": …})",
      ])
    #expect(
      problems(
        #"{"inner": "payload", "innerFormat": {"tipe": "{t}", "drop": 3, "events": "[]"}}"#)
        == [
          "1:38: innerFormat.tipe: unknown key 'tipe'. Did you mean 'type'?",
          "1:61: innerFormat.drop: expected an array of strings, found a number",
          "1:64: innerFormat.events: 'events' cannot be used inside 'innerFormat': the event in "
            + "the string is one event in plain JSON",
        ])
    #expect(
      problems(
        #"{"inner": "p", "innerFormat": {"fields": [{"from": "a", "to": "b"}]}, "#
          + #""fields": [{"from": "c", "to": "d"}]}"#) == [
          "1:81: fields: 'fields' is given twice: here and in 'innerFormat'"
        ])
    #expect(
      problems(#"{"inner": "payload", "innerFormat": "fs"}"#) == [
        "1:37: innerFormat: unknown format 'fs'. Did you mean 'fsa'?"
      ])
    #expect(
      problems(#"{"inner": "payload", "innerFormat": "otel"}"#) == [
        "1:37: innerFormat: 'otel' is not an inner format: an OTLP request holds many log "
          + "records, not one event"
      ])
    #expect(
      problems(#"{"inner": "payload", "innerFormat": 7}"#) == [
        "1:37: innerFormat: expected a format's name or a map, found a number"
      ])
    #expect(
      problems(#"{"innerFormat": "fsa"}"#) == [
        "1:17: innerFormat: 'innerFormat' is the format of 'inner': give the map an 'inner'"
      ])
  }

  // MARK: Types

  private func table(_ mapFile: String) throws -> TypeTable {
    TypeTable(format: try LogFormat(mapFile: Array(mapFile.utf8), name: "test"))
  }

  /// What a foreign type becomes: `domain.event (dot)`, `dropped` or `invalid: reason`.
  private func intern(_ type: String, in table: TypeTable) -> String {
    switch table.intern(type) {
    case .type(let id): return "\(table.string(id)) (\(table.canonical(id).dot))"
    case .dropped: return "dropped"
    case .invalid(let reason): return "invalid: \(reason)"
    }
  }

  @Test func splitsATypeAtItsFirstSeparatorByDefault() throws {
    let fsa = TypeTable(format: try #require(LogFormat.preset(named: "fsa")))
    #expect(intern("todos/todoAdded", in: fsa) == "todos.todoAdded (5)")
    #expect(intern("users/fetchById/pending", in: fsa) == "users.fetchById/pending (5)")
    #expect(intern("@@INIT", in: fsa) == "dropped")
    #expect(intern("@@redux/INITx.k.3.q.9.f", in: fsa) == "dropped")
    #expect(intern("@@redux/PROBE_UNKNOWN_ACTIONa.b", in: fsa) == "dropped")
    #expect(
      intern("ADD_TODO", in: fsa)
        == "invalid: 'ADD_TODO' has no '/' between a domain and an event: a map file's "
        + "\"defaultDomain\" gives such types one (see docs/formats.md)")
    #expect(
      intern("/x", in: fsa) == "invalid: '/x' has no domain or no event around its separator")
    #expect(intern("x/", in: fsa) == "invalid: 'x/' has no domain or no event around its separator")
  }

  @Test func splitsAtTheLastSeparatorTakingTheSegmentBeforeItAsTheDomain() throws {
    let events = TypeTable(format: try #require(LogFormat.preset(named: "cloudevents")))
    #expect(intern("com.example.cart.add", in: events) == "cart.add (4)")
    #expect(intern("com.github.pull_request.opened", in: events) == "pull_request.opened (12)")
    #expect(intern("mock.test", in: events) == "mock.test (4)")
    #expect(intern("test", in: events).hasPrefix("invalid: 'test' has no '.'"))
    #expect(intern("a..b", in: events).hasPrefix("invalid: 'a..b' has no domain or no event"))
    // A separator of several characters.
    let arrows = try table(#"{"separator": "->", "split": "last"}"#)
    #expect(intern("app->cart->add", in: arrows) == "cart.add (4)")
    #expect(intern("cart->add", in: arrows) == "cart.add (4)")
  }

  @Test func renamesInOrderBeforeSplittingAndGivesLoneTypesTheDefaultDomain() throws {
    let shop = try table(
      #"{"separator": ":", "defaultDomain": "app", "drop": ["debug:*", "*:tick"], "#
        + #""rename": [{"from": "checkout:*", "to": "cart:*"}, {"from": "*:*-v2", "to": "*:*"}, "#
        + #"{"from": "cart:*", "to": "never:*"}]}"#)
    #expect(intern("checkout:paid", in: shop) == "cart.paid (4)", "the first rename that matches")
    #expect(intern("cart:item-added-v2", in: shop) == "cart.item-added (4)")
    #expect(intern("cart:add", in: shop) == "never.add (5)")
    #expect(intern("launched", in: shop) == "app.launched (3)")
    #expect(intern("debug:render", in: shop) == "dropped")
    #expect(intern("clock:tick", in: shop) == "dropped")
    #expect(intern("Order Completed", in: shop) == "app.Order Completed (3)")
  }

  @Test func numbersEachTypeOnceAndKeepsItsBytes() throws {
    let fsa = TypeTable(format: try #require(LogFormat.preset(named: "fsa")))
    guard case .type(let first) = fsa.intern("a/b"), case .type(let second) = fsa.intern("c/d"),
      case .type(let again) = fsa.intern("a/b")
    else {
      Issue.record("expected types")
      return
    }
    #expect(first == 0 && second == 1 && again == 0)
    #expect(Array(fsa.canonical(first).bytes) == Array("a.b".utf8))
    #expect(fsa.string(second) == "c.d")
  }

  @Test func globsMatchWholeTypes() {
    #expect(TypeGlob("a*").match("abc") == ["bc"])
    #expect(TypeGlob("a*").match("ba") == nil)
    #expect(TypeGlob("*c").match("abc") == ["ab"])
    #expect(TypeGlob("a*c*e").match("abcde") == ["b", "d"])
    #expect(TypeGlob("a*a").match("a") == nil, "the pieces do not overlap")
    #expect(TypeGlob("abc").match("abc") == [])
    #expect(TypeGlob("abc").match("abcd") == nil)
    #expect(TypeGlob("*").match("") == [""])
    #expect(TypeGlob.fill("x.*", with: ["y"]) == "x.y")
    #expect(TypeGlob.fill("*.*", with: ["a", "b"]) == "a.b")
  }

  // MARK: Templates

  @Test func aTemplateTakesTheFirstFieldTheLineHas() throws {
    let template = try TypeTemplate("{type}.{event|name|type}")
    #expect(template.paths.map(\.description) == ["type", "event", "name", "type"])
    let track = ["type": "track", "event": "Order Completed"]
    let page = ["type": "page", "name": "Home"]
    let identify = ["type": "identify"]
    func render(_ fields: [String: String]) -> String {
      var indices: [Int] = []
      let result = template.render { index, path in
        indices.append(index)
        return fields[path.description]
      }
      switch result {
      case .success(let type): return "\(type) \(indices)"
      case .failure(let missing): return "missing \(missing.paths.map(\.description)) \(indices)"
      }
    }
    #expect(render(track) == "track.Order Completed [0, 1]")
    #expect(render(page) == "page.Home [0, 1, 2]")
    #expect(render(identify) == "identify.identify [0, 1, 2, 3]")
    #expect(render(["event": "x"]) == "missing [\"type\"] [0]")
  }

  // MARK: Finding fields

  @Test func locatesNestedFieldsInOnePassAndChecksTheWholeLine() throws {
    let locator = FieldLocator(paths: [
      try JSONPath("type"), try JSONPath("meta.time"), try JSONPath("meta"),
      try JSONPath("type"), try JSONPath("a.b.c"),
    ])
    func locate(_ line: String) -> String {
      var found = locator.makeResults()
      let bytes = Array(line.utf8)
      return bytes.withUnsafeBufferPointer { buffer in
        do {
          try locator.locate(in: buffer, into: &found)
        } catch let error as JSONError {
          return "error at \(error.offset): \(error.reason)"
        } catch {
          return "\(error)"
        }
        return found.map { range in
          range.map { String(decoding: buffer[$0], as: UTF8.self) } ?? "-"
        }.joined(separator: " ")
      }
    }
    #expect(
      locate(#"{"meta":{"time":5,"x":[1]},"type":"t","a":{"b":1}}"#)
        == #""t" 5 {"time":5,"x":[1]} "t" -"#)
    #expect(locate(#"{"ty\u0070e":"escaped"}"#) == #""escaped" - - "escaped" -"#)
    #expect(locate(#"{"meta":7}"#) == "- - 7 - -")
    #expect(locate(#" {"a":{"b":{"c":[true]}}} "#) == "- - - - [true]")
    #expect(locate(#"{"type":"a","type":"b"}"#).hasPrefix("error at 12: duplicate key 'type'"))
    #expect(locate(#"{"x":{"y":1,"y":2}}"#).hasPrefix("error at 12: duplicate key 'y'"))
    #expect(locate(#"{"type":"a"} x"#).hasPrefix("error at 13:"))
    #expect(locate(#"["type"]"#).hasPrefix("error at 0:"))
  }

  // MARK: Times

  private func epoch(_ text: String, _ unit: LogFormat.TimeUnit) -> String {
    do throws(EpochTime.Failure) {
      let time = try EpochTime.read(Array(text.utf8)[...], unit: unit)
      return "\(time.seconds).\(time.nanoseconds)"
    } catch {
      return "error: \(error)"
    }
  }

  @Test func readsEpochTimesInEveryUnitExactly() {
    #expect(epoch("1700000000", .s) == "1700000000.0")
    #expect(epoch("1700000000.5", .s) == "1700000000.500000000")
    #expect(epoch("1700000000250", .ms) == "1700000000.250000000")
    #expect(epoch("1700000000250.5", .ms) == "1700000000.250500000")
    #expect(epoch("1700000000000001", .us) == "1700000000.1000")
    #expect(epoch("1700000000000000001", .ns) == "1700000000.1")
    #expect(epoch("1700000000123456789", .ns) == "1700000000.123456789")
    #expect(epoch("-1500", .ms) == "-2.500000000")
    #expect(epoch("0", .ns) == "0.0")
    // Exponents, read as the digits they stand for, exactly.
    #expect(epoch("1e3", .ms) == "1.0")
    #expect(epoch("1.7e12", .ms) == "1700000000.0")
    #expect(epoch("17000000002505E-1", .ms) == "1700000000.250500000")
    #expect(epoch("15e-1", .s) == "1.500000000")
    #expect(epoch("-2.5e0", .s) == "-3.500000000")
    #expect(epoch("0.00017e16", .ns) == "1700.0")
    #expect(epoch("1e-50", .s) == "0.0")
    #expect(epoch("1e41", .s) == "error: is out of range for a time")
    #expect(epoch("1e", .s) == "error: is not a number of seconds")
    func unitless(_ text: String) -> String {
      do throws(EpochTime.Failure) {
        try EpochTime.checkUnitlessSeconds(Array(text.utf8)[...])
        return "seconds"
      } catch {
        return "\(error)".components(separatedBy: ";")[0]
      }
    }
    #expect(unitless("99999999999") == "seconds")
    #expect(unitless("9.9999999999e10") == "seconds")
    #expect(unitless("1.7e9") == "seconds")
    #expect(
      unitless("1.7e12")
        == "is too many seconds since 1970 (past the year 5138): it looks like milliseconds")
    #expect(
      unitless("0.0017e15")
        == "is too many seconds since 1970 (past the year 5138): it looks like milliseconds")
    #expect(
      unitless("-1700000000123")
        == "is too many seconds before 1970 (before the year -1199): it looks like milliseconds")
    #expect(
      unitless("17e17")
        == "is too many seconds since 1970 (past the year 5138): it looks like nanoseconds")
    #expect(epoch("", .s) == "error: is not a number of seconds")
    #expect(epoch("x", .ns) == "error: is not a number of nanoseconds")
    #expect(epoch("99999999999999999999", .ns) == "error: is out of range for a time")
  }

  // MARK: Replays

  /// rasp's own format read as a map file — through the mapped reader, not the envelope
  /// parser built for it.
  private static func raspAsMap() throws -> LogFormat {
    let text = LogFormat.rasp.text.replacingOccurrences(
      of: #""format": "rasp""#, with: #""format": "rasp-as-map""#)
    let format = try LogFormat(mapFile: Array(text.utf8), name: "x")
    #expect(!format.isRasp)
    return format
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .readAhead, .decodeAhead])
  func rasspOwnLogsReadThroughAMapGiveTheSameRecords(
    threading: ReplayConfiguration.Threading
  ) throws {
    // The mapped reader is a second implementation of the envelope: on the example log, and on
    // lines of every kind, the two agree on every record and every count.
    let root = repositoryRoot
    let example = try String(
      contentsOf: root.appendingPathComponent("fixtures/example/events.jsonl"), encoding: .utf8)
    let odd = [
      #"{"type":"geo.heading","payload":{"heading":1},"ts":"2026-11-22T09:30:00Z"}"#,
      #"{"payload":{"heading":2},"type":"geo.heading","source":"compass","extra":[1,{"a":2}]}"#,
      #"{"type":"geo.heading","payload":null}"#,
      #"{"type":"geo.he\u0061ding","payload":{"heading":3}}"#,
      #"{"type":"zzz.event","payload":{"x":1}}"#,
      #"{"type":"geo.heading","ts":1795336200.25,"payload":{"heading":4}}"#,
      "",
      #"  {"type":"nav.push","payload":{"screen":"a"}}  "#,
      #"{"type":"geo.heading","ts":null,"payload":{"heading":5}}"#,
    ].joined(separator: "\n")
    for text in [example, odd] {
      let own = replayFormat([("a", text)], format: .rasp, threading: threading)
      let mapped = replayFormat([("a", text)], format: try Self.raspAsMap(), threading: threading)
      #expect(own.filter { !$0.hasPrefix("skipped") } == mapped.filter { !$0.hasPrefix("skipped") })
      #expect(own.count > 3)
    }
  }

  @Test func rasspOwnLogsThroughAMapMergeByTimeAsTheyDo() throws {
    let a = [
      #"{"type":"geo.heading","ts":"2026-01-01T00:00:01Z","payload":{"heading":1}}"#,
      #"{"type":"geo.heading","ts":"2026-01-01T00:00:03Z","payload":{"heading":3}}"#,
    ].joined(separator: "\n")
    let b = [
      #"{"type":"geo.heading","ts":1767225602,"payload":{"heading":2}}"#,
      #"{"type":"geo.heading","ts":"2026-01-01T00:00:04Z","payload":{"heading":4}}"#,
    ].joined(separator: "\n")
    let own = replayFormat([("a", a), ("b", b)], format: .rasp)
    #expect(own.prefix(4).map { $0.prefix(3) } == ["0:1", "1:1", "0:2", "1:2"])
    #expect(own == replayFormat([("a", a), ("b", b)], format: try Self.raspAsMap()))
  }

  private static func todos() throws -> [any RaspDomain] {
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "todos", "initial": {"texts": []}, "events": [
          {"name": "todoAdded", "ops": [
            {"op": "append", "path": "texts", "from": "payload"},
            {"op": "set", "path": "by", "from": "meta.user", "default": "nobody"}]},
          {"name": "cleared", "ops": [{"op": "clear", "path": "texts"}]}]}]}
        """#.utf8))
    return spec.domains
  }

  @Test func reduxActionsFeedASpecDomainAnyPayloadAndTheLinesOtherFields() throws {
    let log = [
      #"{"type":"@@redux/INITa.b.c"}"#,
      #"{"type":"todos/todoAdded","payload":"Buy milk"}"#,
      #"{"type":"todos/todoAdded","payload":{"text":"x"},"meta":{"user":"ann"}}"#,
      #"{"type":"todos/todoAdded","payload":[1,2],"meta":{"user":null}}"#,
      #"{"type":"todos/cleared","payload":7}"#,
      #"{"type":"geo/heading","payload":"north"}"#,
      #"{"type":"todos/unknown"}"#,
      #"{"type":"ADD_TODO"}"#,
    ].joined(separator: "\n")
    let fsa = try #require(LogFormat.preset(named: "fsa"))
    #expect(
      replayFormat([("a", log)], format: fsa, domains: try Self.todos() + [GeoDomain()]) == [
        #"0:2 {"geo":{"accuracy":null,"heading":null,"location":null},"#
          + #""todos":{"by":"nobody","texts":["Buy milk"]}}"#,
        #"0:3 {"geo":{"accuracy":null,"heading":null,"location":null},"#
          + #""todos":{"by":"ann","texts":["Buy milk",{"text":"x"}]}}"#,
        #"0:4 {"geo":{"accuracy":null,"heading":null,"location":null},"#
          + #""todos":{"by":null,"texts":["Buy milk",{"text":"x"},[1,2]]}}"#,
        #"0:5 {"geo":{"accuracy":null,"heading":null,"location":null},"#
          + #""todos":{"by":null,"texts":[]}}"#,
        "skipped 6:33 field 'payload' must be an object, found a string",
        "skipped 8:9 invalid value for field 'type': 'ADD_TODO' has no '/' between a domain "
          + "and an event: a map file's \"defaultDomain\" gives such types one (see "
          + "docs/formats.md)",
        "end: 8 read, 4 applied, 2 skipped, 1 unknown, 0 other, 1 dropped, 0 blank",
      ])
  }

  @Test func aDomainsErrorNamesTheTimeAndPayloadAsTheLogWritesThem() throws {
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "todos", "initial": {}, "events": [
          {"name": "todoAdded", "ops": [
            {"op": "set", "path": "at", "from": "ts"},
            {"op": "set", "path": "text", "from": "payload.text"}]}]}]}
        """#.utf8))
    let log = [
      #"{"type":"todos/todoAdded","payload":{"text":"a"},"meta":{"timestamp":5}}"#,
      #"{"type":"todos/todoAdded","payload":{"text":"b"}}"#,
      #"{"type":"todos/todoAdded","payload":{},"meta":{"timestamp":6}}"#,
    ].joined(separator: "\n")
    let fsa = try #require(LogFormat.preset(named: "fsa"))
    #expect(
      replayFormat([("a", log)], format: fsa, domains: spec.domains) == [
        #"0:1 {"todos":{"at":5,"text":"a"}}"#,
        "skipped 2:1 missing required field 'meta.timestamp'",
        "skipped 3:37 missing required field 'payload.text'",
        "end: 3 read, 1 applied, 2 skipped, 0 unknown, 0 other, 0 dropped, 0 blank",
      ])
  }

  @Test func mappedTimesInMillisecondsMergeSeveralLogs() throws {
    let map = try LogFormat(
      mapFile: Array(
        #"{"type": "{event}", "separator": ":", "payload": "data", "time": "at", "timeUnit": "ms"}"#
          .utf8), name: "ms")
    let a = [
      #"{"event":"geo:heading","at":1767225600001,"data":{"heading":1}}"#,
      #"{"event":"geo:heading","at":"1767225600003","data":{"heading":3}}"#,
    ].joined(separator: "\n")
    let b = [
      #"{"event":"geo:heading","at":1767225600002,"data":{"heading":2}}"#,
      #"{"event":"geo:heading","at":1767225600002.5,"data":{"heading":4}}"#,
      #"{"event":"geo:heading","at":true,"data":{"heading":5}}"#,
    ].joined(separator: "\n")
    let outcomes = replayFormat([("a", a), ("b", b)], format: map, domains: [GeoDomain()])
    #expect(
      outcomes.map { $0.prefix(14) } == [
        // The bad line comes in its log's order, after the time of the line before it.
        "0:1 {\"geo\":{\"a", "1:1 {\"geo\":{\"a", "1:2 {\"geo\":{\"a", "skipped 3:29 i",
        "0:2 {\"geo\":{\"a", "end: 5 read, 4",
      ])
    #expect(
      outcomes[3]
        == "skipped 3:29 invalid value for field 'at': true is not a number of milliseconds")
  }

  @Test func timesInAUnitReadRFC3339StringsAndExponentsToo() throws {
    // JavaScript's Date.now() and toISOString() side by side, in Redux actions.
    let fsa = try #require(LogFormat.preset(named: "fsa"))
    let a = [
      #"{"type":"geo/heading","payload":{"heading":1},"meta":{"timestamp":1767225600001}}"#,
      #"{"type":"geo/heading","payload":{"heading":4},"meta":{"timestamp":1.767225600004e12}}"#,
    ].joined(separator: "\n")
    let b = [
      #"{"type":"geo/heading","payload":{"heading":2},"meta":{"time":"2026-01-01T00:00:00.002Z"}}"#,
      #"{"type":"geo/heading","payload":{"heading":3},"#
        + #""meta":{"timestamp":"2026-01-01T00:00:00.003+00:00"}}"#,
      #"{"type":"geo/heading","payload":{"heading":5},"meta":{"timestamp":"soon"}}"#,
    ].joined(separator: "\n")
    let outcomes = replayFormat([("a", a), ("b", b)], format: fsa, domains: [GeoDomain()])
    // The bad line comes in its log's order, after the time of the line before it.
    #expect(
      outcomes.map { $0.prefix(4) } == ["0:1 ", "1:1 ", "1:2 ", "skip", "0:2 ", "end:"])
    #expect(
      outcomes[3]
        == "skipped 3:67 invalid value for field 'meta.timestamp': 'soon' is neither a number of "
        + "milliseconds nor an RFC 3339 time")
  }

  @Test func aTypeFieldThatIsNullIsAbsent() throws {
    // analytics-python sends a page or screen call made without a name with "name": null.
    let log = [
      #"{"type":"page","name":null,"category":null,"properties":{},"messageId":"m1"}"#,
      #"{"type":"screen","name":null,"properties":{}}"#,
      #"{"type":"page","properties":{}}"#,
      #"{"type":"track","event":null,"name":"Home","properties":{}}"#,
      #"{"type":"page","name":"Home","properties":{}}"#,
    ].joined(separator: "\n")
    // Each call type a domain, which counts its events by name.
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [
          {"name": "page", "initial": {"names": []}, "events": [
            {"name": "page", "ops": [{"op": "append", "path": "names", "from": "type"}]},
            {"name": "Home", "ops": [{"op": "append", "path": "names", "from": "type"}]}]},
          {"name": "screen", "initial": {"names": []}, "events": [
            {"name": "screen", "ops": [{"op": "append", "path": "names", "from": "type"}]}]},
          {"name": "track", "initial": {"names": []}, "events": [
            {"name": "Home", "ops": [{"op": "append", "path": "names", "from": "type"}]}]}]}
        """#.utf8))
    let format = try #require(LogFormat.preset(named: "segment"))
    let described = replayFormat([("a", log)], format: format, domains: spec.domains)
    #expect(
      described.last?.hasPrefix("end: 5 read, 5 applied, 0 skipped, 0 unknown") == true,
      "\(described)")
    #expect(
      described.dropLast().last
        == #"0:5 {"page":{"names":["page.page","page.page","page.Home"]},"#
        + #""screen":{"names":["screen.screen"]},"track":{"names":["track.Home"]}}"#)
  }

  @Test func reportsWhatAMapGetsWrongInKeepEmitAndTheFieldsThatSkip() {
    #expect(
      problems(
        #"{"keep": 3, "emit": {"type": "a.b"}, "skipTo": "<", "ignoreLines": ["{*"]}"#) == [
          "1:10: keep: expected an array of types or an object of fields and values, found a "
            + "number",
          "1:21: emit: expected an array of events, such as [{\"type\": \"geo.location\"}], found "
            + "an object",
          "1:48: skipTo: unknown value '<': use '{' or '['",
          "1:68: ignoreLines: a pattern of 'ignoreLines' matches lines that start JSON",
        ])
    #expect(
      problems(
        #"{"type": "{t}", "emit": [{"typ": "a.b"}, {"type": "a.{"}, 2, "#
          + #"{"type": "a.b", "fields": [{"from": "x", "absentIs": "omit"}]}]}"#) == [
          "1:10: type: each entry of 'emit' has its own 'type': leave it out here",
          "1:26: emit[0]: an event of 'emit' needs its 'type', such as \"geo.location\"",
          "1:27: emit[0].typ: unknown key 'typ'. Did you mean 'type'?",
          "1:51: emit[1].type: '{' without a '}' after it",
          "1:59: emit[2]: expected {\"type\": …}, found a number",
          "1:115: emit[3].fields[0].absentIs: unknown value 'omit': use 'missing' or 'skip'",
        ])
    #expect(
      problems(#"{"events": "batch[]", "emit": [{"type": "a.b"}], "keep": {"a": []}}"#) == [
        "1:12: events: a map has 'emit' or 'events', not both",
        "1:64: keep.a: an empty list keeps no line",
      ])
    #expect(
      problems(#"{"keep": ["a.*"], "drop": ["b.*"]}"#) == [
        "1:10: keep: a map has 'keep' or 'drop' as lists of types, not both"
      ])
    #expect(problems(#"{"keep": {"class": ["TPV", "SKY"], "mode": 3}}"#) == [])
    #expect(problems(#"{"fields": [{"from": "cog", "skipIf": -1}]}"#) == [])
  }

  @Test func keepsLinesByTheirTypeOrTheirFieldsAndCountsTheOthers() throws {
    let byType = try LogFormat(
      mapFile: Array(#"{"keep": ["geo.heading"]}"#.utf8), name: "m")
    let byField = try LogFormat(
      mapFile: Array(#"{"keep": {"meta.kind": ["a", 1]}}"#.utf8), name: "m")
    let log = [
      #"{"type":"geo.heading","payload":{"heading":1},"meta":{"kind":"a"}}"#,
      #"{"type":"geo.location","payload":{"latitude":1,"longitude":2},"meta":{"kind":1.0}}"#,
      #"{"type":"geo.heading","payload":{"heading":3},"meta":{"kind":"b"}}"#,
      #"{"type":"geo.heading","payload":{"heading":4}}"#,
    ].joined(separator: "\n")
    let heading = { (value: Int) in
      #"{"geo":{"accuracy":null,"heading":\#(value),"location":null}}"#
    }
    #expect(
      replayFormat([("a", log)], format: byType, domains: [GeoDomain()]) == [
        "0:1 " + heading(1), "0:3 " + heading(3), "0:4 " + heading(4),
        "end: 4 read, 3 applied, 0 skipped, 0 unknown, 0 other, 1 dropped, 0 blank",
      ])
    #expect(
      replayFormat([("a", log)], format: byField, domains: [GeoDomain()]) == [
        "0:1 " + heading(1),
        #"0:2 {"geo":{"accuracy":null,"heading":1,"location":{"latitude":1,"longitude":2}}}"#,
        "end: 4 read, 2 applied, 0 skipped, 0 unknown, 0 other, 2 dropped, 0 blank",
      ])
  }

  @Test func aLineMakesTheEventsOfEmitInOrderEachSkippedWhenItsFieldIsNot() throws {
    let format = try LogFormat(
      mapFile: Array(
        #"""
        {"payload": ".", "ignoreLines": ["$*"], "skipTo": "{", "emit": [
          {"type": "geo.location", "fields": [{"from": "lat", "to": "latitude",
            "absentIs": "skip"}, {"from": "lon", "to": "longitude"}]},
          {"type": "geo.heading", "fields": [{"from": "cog", "to": "heading",
            "skipIf": -1}]}]}
        """#.utf8), name: "m")
    let log = [
      #"t1 * {"lat":1,"lon":2,"cog":90}"#,
      #"$GPRMC,,V"#,
      #"{"lon":2,"cog":-1.0}"#,
      #"{"lat":3,"lon":4,"cog":null}"#,
      #"no event here"#,
    ].joined(separator: "\n")
    let location = #"{"latitude":1,"longitude":2}"#
    #expect(
      replayFormat([("a", log)], format: format, domains: [GeoDomain()]) == [
        #"0:1 {"geo":{"accuracy":null,"heading":null,"location":\#(location)}}"#,
        #"0:1 {"geo":{"accuracy":null,"heading":90,"location":\#(location)}}"#,
        #"0:4 {"geo":{"accuracy":null,"heading":90,"location":{"latitude":3,"longitude":4}}}"#,
        "skipped 4:24 at emit[1]: field 'cog' must be a number, found null",
        "skipped 5:1 an event must be a JSON object, found text without a '{'",
        "end: 5 read, 3 applied, 2 skipped, 0 unknown, 0 other, 3 dropped, 0 blank, "
          + "3 batches of 6",
      ])
  }

  @Test func aMapWhosePayloadIsTheEventNamesItsFieldsAlone() throws {
    let format = try LogFormat(
      mapFile: Array(#"{"type": "{event}", "separator": ":", "payload": "."}"#.utf8), name: "m")
    let log = #"{"event":"geo:heading","heading":"x"}"#
    let described = replayFormat([("a", log)], format: format, domains: [GeoDomain()])
    #expect(
      described.first == "skipped 1:34 field 'heading' must be a number, found a string",
      "\(described)")
  }

  // MARK: Payload fields

  /// The payload of `event` rewritten by `moves`, or the error with its column.
  private func moved(
    _ event: String, _ moves: [PayloadFieldMoves.Move], payload: String = "data"
  ) -> String {
    let bytes = Array(event.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      var output: [UInt8] = []
      do throws(RaspEventError) {
        try PayloadFieldMoves(moves).rewrite(buffer, payloadAt: 0, named: payload, into: &output)
      } catch {
        return "col \((error.offset ?? -1) + 1): \(error)"
      }
      return String(decoding: output, as: UTF8.self)
    }
  }

  @Test func renamesAndScalesPayloadFieldsExactly() {
    let takeout: [PayloadFieldMoves.Move] = [
      .init(from: "latitudeE7", to: "latitude", scale: 1e-7),
      .init(from: "longitudeE7", to: "longitude", scale: 1e-7),
      .init(from: "acc", to: "accuracy", scale: nil),
      .init(from: "speedKmh", to: "speedKmh", scale: 1 / 3.6),
    ]
    // The coordinates as written in decimal, which multiplying by 1e-7 would miss
    // (134051120 × 1e-7 is 13.405111999999999 in doubles).
    #expect(134_051_120 * 1e-7 != 13.405112)
    #expect(
      moved(#"{"latitudeE7":525203970,"longitudeE7":-134051120,"acc":12,"x":[1,{"y":2}]}"#, takeout)
        == #"{"latitude":52.520397,"longitude":-13.405112,"accuracy":12,"x":[1,{"y":2}]}"#)
    #expect(moved(#"{"speedKmh":36}"#, takeout) == #"{"speedKmh":10}"#)
    #expect(moved("{}", takeout) == "{}")
    #expect(
      moved(#"{"latitudeE7":"52"}"#, takeout)
        == "col 15: field 'data.latitudeE7' must be a number to scale, found a string")
    #expect(
      moved(#"{"latitude":1,"latitudeE7":2}"#, takeout)
        == "col 15: invalid value for field 'data.latitudeE7': the map's 'fields' gives the "
        + "payload a second 'latitude'")
    // A payload that is the event itself (`"payload": "."`) names its fields alone.
    #expect(
      moved(#"{"latitudeE7":"52"}"#, takeout, payload: ".")
        == "col 15: field 'latitudeE7' must be a number to scale, found a string")
    #expect(RaspEventError.field(".heading", under: "data") == "data.heading")
    #expect(RaspEventError.field("[0]", under: "data") == "data[0]")
    #expect(RaspEventError.field("", under: "data") == "data")
    #expect(RaspEventError.field(".heading", under: ".") == "heading")
    #expect(RaspEventError.field("[0]", under: ".") == "[0]")
    #expect(RaspEventError.field("", under: ".") == ".")
    #expect(PayloadFieldMoves.scaled(7, by: 1e-3) == 0.007)
    #expect(PayloadFieldMoves.scaled(7, by: 2) == 14)
    // Scaled past the largest double, a value is a bad line, not a null.
    let kilo: [PayloadFieldMoves.Move] = [.init(from: "v", to: "value", scale: 1000)]
    #expect(moved(#"{"v":1e305}"#, kilo) == #"{"value":1e+308}"#)
    #expect(
      moved(#"{"v":1e306}"#, kilo)
        == "col 6: invalid value for field 'data.v': scaled by the map's 1000, it is too large "
        + "for a JSON number")
  }

  // MARK: Selecting an event's field

  @Test func selectsAFieldOfEachEventsLineWhenItChanges() throws {
    let log = [
      #"{"type":"geo/heading","payload":{"heading":1},"meta":{"user":"ann"}}"#,
      #"{"type":"geo/heading","payload":{"heading":2},"meta":{"user":"ann","x":1}}"#,
      #"{"type":"zzz/ignored","meta":{"user":"bob"}}"#,
      #"{"type":"geo/heading","payload":{"heading":3},"meta":{ "user" : { "b":1, "a":[ 2 ] }}}"#,
      #"{"type":"geo/heading","payload":{"heading":4}}"#,
    ].joined(separator: "\n")
    for isFinal in [false, true] {
      var configuration = ReplayConfiguration(domains: [GeoDomain()])
      configuration.format = try #require(LogFormat.preset(named: "fsa"))
      configuration.selection = try JSONPath("event.meta.user")
      configuration.isFinal = isFinal
      var replay = Replay(memory: log, name: "a", configuration: configuration)
      var records: [String] = []
      replay.forEachOutcome { outcome, bytes in
        guard case .record(let record) = outcome, let bytes else { return }
        records.append("\(record.line ?? 0) " + String(decoding: bytes, as: UTF8.self))
      }
      // The value as canonical JSON, printed when it changes; an ignored event changes nothing.
      #expect(
        records
          == (isFinal ? ["5 null"] : [#"1 "ann""#, #"4 {"a":[2],"b":1}"#, "5 null"]),
        "final: \(isFinal)")
    }
  }
}
