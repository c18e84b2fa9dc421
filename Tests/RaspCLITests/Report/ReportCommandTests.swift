import Foundation
import RaspCLI
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp report` in-process: where the page goes, what it refuses, and that the same log gives
/// the same bytes.
@Suite struct ReportCommandTests {
  static let example = Repository.path("fixtures/example/events.jsonl")

  func run(_ arguments: [String], terminal: Bool = false, in directory: String? = nil) -> (
    status: Int32, output: String, errors: String
  ) {
    let output = RaspMemoryOutput(isTerminal: terminal)
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output,
      standardError: errors, variables: [:], workingDirectory: directory)
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    return (status, output.text, errors.text)
  }

  @Test func writesThePageToStandardOutputWhenItIsNotATerminal() {
    let result = run(["report", Self.example])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("<!DOCTYPE html>"))
    #expect(result.output.hasSuffix("</html>\n"))
    #expect(result.errors.isEmpty)
  }

  @Test func refusesToWriteThePageToATerminal() {
    let result = run(["report", Self.example], terminal: true)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.errors.hasPrefix("rasp: error: the report is an HTML page, not for a terminal"))
    #expect(result.errors.contains("Usage: rasp report"))
    #expect(run(["report", "-o", "-", Self.example], terminal: true).status == 0)
  }

  @Test func writesTheFileThatOutputNames() throws {
    let directory = try TemporaryDirectory()
    let result = run(["report", Self.example, "-o", "page.html"], in: directory.path)
    #expect(result.status == 0)
    #expect(result.output.isEmpty)
    let page = String(decoding: directory.bytes("page.html") ?? [], as: UTF8.self)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  @Test func isTheSameByteForByteEachTime() {
    let first = run(["report", Self.example]).output
    let second = run(["report", Self.example]).output
    #expect(first == second)
  }

  @Test func refusesToOverwriteALog() throws {
    let directory = try TemporaryDirectory()
    try "{\"type\":\"nav.pop\"}\n".write(
      toFile: directory.file("a.jsonl"), atomically: true, encoding: .utf8)
    let result = run(["report", "a.jsonl", "-o", "a.jsonl"], in: directory.path)
    #expect(result.status == 64)
    #expect(result.errors.hasPrefix("rasp: error: option '-o a.jsonl' would overwrite the log"))
  }

  @Test func refusesASelectionOfSeveralValues() {
    let result = run(["report", "--select", "nav.stack[]", Self.example])
    #expect(result.status == 64)
    #expect(result.errors.contains("'[]' in '--select nav.stack[]'"))
  }

  @Test func refusesTheOptionsThatShapePrintedLines() {
    for option in ["--final", "--pretty", "--with-event", "--changes-only"] {
      let result = run(["report", option, Self.example])
      #expect(result.status == 64, "\(option)")
      #expect(result.errors.hasPrefix("rasp: error: unknown option '\(option)'"), "\(option)")
    }
  }

  @Test func namesAMissingLogAndWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let result = run(["report", "missing.jsonl", "-o", "page.html"], in: directory.path)
    #expect(result.status == 2)
    #expect(result.errors.contains("missing.jsonl"))
    #expect(directory.bytes("page.html") == nil)
  }

  @Test func reportsBadLinesAndStillWritesThePage() throws {
    let directory = try TemporaryDirectory()
    try "{\"type\":\"lifecycle.launch\"}\n{\"type\":\n{\"type\":\"lifecycle.launch\"}\n".write(
      toFile: directory.file("bad.jsonl"), atomically: true, encoding: .utf8)
    let result = run(["report", "bad.jsonl", "-o", "page.html"], in: directory.path)
    #expect(result.status == 2)
    #expect(result.errors.hasPrefix("bad.jsonl:2:"))
    let page = String(decoding: directory.bytes("page.html") ?? [], as: UTF8.self)
    #expect(page.contains("bad.jsonl:2:"))
  }

  @Test func escapesWhatWouldEndTheScriptElement() {
    let json = Array(#"{"a":"</script><!--&\#u{2028}\#u{2029}"}"#.utf8)
    let safe = String(decoding: ReportDocument.scriptSafe(json), as: UTF8.self)
    #expect(safe == #"{"a":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029"}"#)
    #expect((try? JSONParser.parse(Array(safe.utf8))) == (try? JSONParser.parse(json)))
  }

  @Test func hashesAsSHA256Does() {
    // FIPS 180-2's examples.
    #expect(
      SHA256.base64Digest(of: Array("abc".utf8)) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    #expect(SHA256.base64Digest(of: []) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(SHA256.base64Digest(of: long) == "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=")
  }

  struct NoData: Error {}

  /// The data of the report of `arguments` (after `report`), once the command succeeded.
  func reportData(_ arguments: [String], in directory: String? = nil) throws -> JSONValue {
    let result = run(["report"] + arguments, in: directory)
    #expect(result.status == 0, "\(result.errors)")
    return try Self.data(of: result.output)
  }

  /// The report's data, as its page reads it.
  static func data(of page: String) throws -> JSONValue {
    let start = #"<script type="application/json" id="rasp-data">"#
    guard let open = page.range(of: start),
      let close = page[open.upperBound...].range(of: "</script>")
    else { throw NoData() }
    return try JSONParser.parse(String(page[open.upperBound..<close.lowerBound]))
  }

  /// Each event's type and time in the data: `[type, dt, …]` per event, from `start`.
  static func typesAndTimes(_ data: JSONValue) -> [(String, Int64)] {
    guard case .array(let types)? = data["types"], case .array(let events)? = data["events"],
      case .number(let start)? = data["start"]
    else { return [] }
    var time = start.integerValue ?? 0
    return events.map { event in
      guard case .array(let members) = event, case .number(let type) = members[0],
        case .number(let delta) = members[1],
        case .string(let name) = types[Int(type.integerValue ?? 0)]
      else { return ("?", 0) }
      time += delta.integerValue ?? 0
      return (name, time)
    }
  }

  @Test func readsEachEventsTypeAndTimeAsTheReplayReadThem() throws {
    let folder = Repository.path("fixtures/format-map")
    let data = try reportData([
      "--map", "\(folder)/shop.map.json", "--spec", "\(folder)/shop.json",
      "\(folder)/events.jsonl",
    ])
    #expect(data["hasTimes"] == .bool(true))
    // The log's own lines, read by hand: the map names `event` the type (`cart:` → `cart.`,
    // `app` by default), `at` the time in milliseconds, and drops `debug:*`.
    let lines = try String(contentsOfFile: "\(folder)/events.jsonl", encoding: .utf8)
      .split(separator: "\n").map { try JSONParser.parse(String($0)) }
    let expected: [(String, Int64)] = lines.compactMap { line in
      guard case .string(let event)? = line["event"], !event.hasPrefix("debug:"),
        case .number(let at)? = line["at"]
      else { return nil }
      let type =
        event.contains(":")
        ? event.replacingOccurrences(of: ":", with: ".")
          .replacingOccurrences(of: "checkout.", with: "cart.") : "app." + event
      return (type, at.integerValue ?? 0)
    }
    let shown = Self.typesAndTimes(data)
    #expect(shown.map(\.0) == expected.map(\.0))
    #expect(shown.map(\.1) == expected.map(\.1))
  }

  @Test func readsACloudEventsTypeAndTime() throws {
    let directory = try TemporaryDirectory()
    let lines = [("1", "2026-01-05T10:00:00Z", 90), ("2", "2026-01-05T10:00:02.5Z", 91)].map {
      id, time, heading in
      #"{"specversion":"1.0","id":"\#(id)","source":"/phone","type":"geo.heading","#
        + #""time":"\#(time)","data":{"heading":\#(heading)}}"#
    }
    try directory.write("ce.jsonl", lines.joined(separator: "\n") + "\n")
    let shown = Self.typesAndTimes(
      try reportData(["--log-format", "cloudevents", "ce.jsonl"], in: directory.path))
    // 2026-01-05T10:00:00Z is 1,767,607,200 s after the epoch.
    #expect(shown.map(\.0) == ["geo.heading", "geo.heading"])
    #expect(shown.map(\.1) == [1_767_607_200_000, 1_767_607_202_500])
  }

  /// The lines of a fixture's log, parsed.
  static func lines(_ path: String) throws -> [JSONValue] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map { try JSONParser.parse(String($0)) }
  }

  @Test func readsAReduxActionsTypeAsTheReplayReadIt() throws {
    let folder = Repository.path("fixtures/format-fsa")
    let data = try reportData([
      "--log-format", "fsa", "--spec", "\(folder)/redux.json", "\(folder)/actions.jsonl",
    ])
    // By hand: an action's `todos/todoAdded` is the event `todos.todoAdded`; the fsa format
    // drops Redux's own `@@redux/*`, and the spec defines every other action of the log.
    let expected = try Self.lines("\(folder)/actions.jsonl").compactMap { line -> String? in
      guard case .string(let type)? = line["type"], !type.hasPrefix("@@redux/") else {
        return nil
      }
      return type.replacingOccurrences(of: "/", with: ".")
    }
    #expect(expected.count == 13)
    #expect(Self.typesAndTimes(data).map(\.0) == expected)
  }

  @Test func readsASegmentCallsTypeAndTimeAsTheReplayReadThem() throws {
    let folder = Repository.path("fixtures/format-segment")
    let data = try reportData([
      "--log-format", "segment", "--spec", "\(folder)/segment.json", "\(folder)/calls.jsonl",
    ])
    #expect(data["hasTimes"] == .bool(true))
    // By hand, as docs/formats.md says Segment's calls are read: a track call is the event
    // `track.<its event>`, a page or screen call `<call>.<its name>`, any other `<call>.<call>`;
    // the time is the call's `timestamp`.
    let dates = ISO8601DateFormatter()
    dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let expected = try Self.lines("\(folder)/calls.jsonl").map { line -> (String, Int64) in
      guard case .string(let call)? = line["type"], case .string(let stamp)? = line["timestamp"],
        let date = dates.date(from: stamp)
      else { return ("?", 0) }
      let name: String
      switch (call, line["event"], line["name"]) {
      case ("track", .string(let event)?, _): name = event
      case ("page", _, .string(let page)?), ("screen", _, .string(let page)?): name = page
      default: name = call
      }
      return ("\(call).\(name)", Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
    #expect(expected.contains { $0.0 == "track.Course Clicked" })
    let shown = Self.typesAndTimes(data)
    #expect(shown.map(\.0) == expected.map(\.0))
    #expect(shown.map(\.1) == expected.map(\.1))
  }

  @Test func marksTheViolationsOfItsAssertions() throws {
    // In the example log the stack first holds two screens at event 10 (by hand: pushes at
    // 4 and 10, the pop at 17 leaves one); the final tab is "orders".
    let result = run([
      "report", "--assert", ".nav.stack | length < 2", "--assert-final", ".nav.tab == null",
      Self.example,
    ])
    #expect(result.status == 1, "\(result.errors)")
    #expect(result.output.hasPrefix("<!DOCTYPE html>"))
    #expect(result.errors.contains("rasp: 2 violations of 2 assertions over 20 events"))
    let assertions = try Self.data(of: result.output)["assertions"]
    #expect(assertions?["count"] == .number(JSONNumber(2)))
    #expect(assertions?["total"] == .number(JSONNumber(2)))
    guard case .array(let violations)? = assertions?["violations"] else {
      Issue.record("no violations in the data")
      return
    }
    #expect(violations.count == 2)
    #expect(violations.first?["seq"] == .number(JSONNumber(10)))
    #expect(violations.first?["final"] == .bool(false))
    #expect(violations.last?["final"] == .bool(true))
    if case .string(let text)? = violations.first?["text"] {
      #expect(text.hasPrefix("assertion failed: .nav.stack | length < 2 (event 10, "))
    }
    // The same violations `rasp check` reports.
    let check = run([
      "check", "--assert", ".nav.stack | length < 2", "--assert-final", ".nav.tab == null",
      "--max-failures", "0", "--format", "json", Self.example,
    ])
    let checked = try JSONParser.parse(check.output)["violations"]
    #expect(
      checked.map { value -> JSONValue in
        guard case .array(let list) = value else { return value }
        return .array(list)
      }
        == .array(
          violations.map { violation -> JSONValue in
            guard case .object(var members) = violation else { return violation }
            members["text"] = nil
            return .object(members)
          }))
    let holds = run(["report", "--assert", ".nav.stack | length < 9", Self.example])
    #expect(holds.status == 0)
    #expect(holds.errors.contains("rasp: 1 assertion holds over 20 events"))
    let none = try Self.data(of: run(["report", Self.example]).output)["assertions"]
    #expect(none == .null)
  }

  @Test func refusesABadAssertionAndWritesNothing() {
    let result = run(["report", "--assert", ".nav.stak == 1", Self.example])
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains("did you mean"), "\(result.errors)")
  }
}
