import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// An assertion whose members an event left as they were is not evaluated again, and still
/// reports what evaluating it would: a violation at the first event after which it is false,
/// even one that changed nothing it reads (the first of a key's stream), none while it stays
/// false, and under `find --every` each event after which it holds.
@Suite struct AssertionObserverTests {
  /// Headings and locations of two keys, as a marble table: a location event changes nothing
  /// that `.geo.heading` reads.
  ///
  /// ```
  /// line     1    2    3    4    5    6    7    8
  /// ann      loc  loc  310       loc  10   loc  320
  /// bob                     loc
  /// ```
  static let log =
    [
      #"{"user":"ann","type":"geo.location","payload":{"latitude":1,"longitude":2}}"#,
      #"{"user":"ann","type":"geo.location","payload":{"latitude":1,"longitude":3}}"#,
      #"{"user":"ann","type":"geo.heading","payload":{"heading":310}}"#,
      #"{"user":"bob","type":"geo.location","payload":{"latitude":5,"longitude":5}}"#,
      #"{"user":"ann","type":"geo.location","payload":{"latitude":1,"longitude":4}}"#,
      #"{"user":"ann","type":"geo.heading","payload":{"heading":10}}"#,
      #"{"user":"ann","type":"geo.location","payload":{"latitude":1,"longitude":5}}"#,
      #"{"user":"ann","type":"geo.heading","payload":{"heading":320}}"#,
    ].joined(separator: "\n") + "\n"

  static let assertions = [
    "--assert", ".geo.heading != null",
    "--assert", ".geo.heading == null or .geo.heading < 300",
  ]

  /// Each violation of a JSON report as `assertion@line`, in order.
  static func violations(_ run: CommandRun) throws -> [String] {
    let report = try JSONParser.parse(run.standardOutput)
    guard case .array(let violations)? = report["violations"] else {
      Issue.record("no violations in \(run.standardOutput) \(run.standardError)")
      return []
    }
    return violations.map { violation in
      guard case .string(let text)? = violation["assertion"],
        case .number(let line)? = violation["line"]
      else { return "?" }
      return "\(text)@\(line)"
    }
  }

  @Test func aViolationIsReportedOnceThoughLaterEventsChangeNothingItReads() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log)
    let run = CommandRun.run(
      ["check", "--format", "json", "--max-failures", "10"] + Self.assertions
        + ["events.jsonl"], in: directory.path)
    #expect(run.status == 1)
    #expect(
      try Self.violations(run) == [
        ".geo.heading != null@1", ".geo.heading == null or .geo.heading < 300@3",
        ".geo.heading == null or .geo.heading < 300@8",
      ])
  }

  @Test func aKeysFirstEventIsCheckedThoughItChangesNothingItReads() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log)
    let run = CommandRun.run(
      ["check", "--format", "json", "--max-failures", "10", "--key-by", "user"]
        + Self.assertions + ["events.jsonl"], in: directory.path)
    #expect(run.status == 1)
    #expect(
      try Self.violations(run) == [
        ".geo.heading != null@1", ".geo.heading == null or .geo.heading < 300@3",
        ".geo.heading != null@4", ".geo.heading == null or .geo.heading < 300@8",
      ])
  }

  @Test func findEveryListsEachEventAfterWhichItHoldsThoughItChangedNothing() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.log)
    let run = CommandRun.run(
      ["find", "--every", ".geo.heading > 300", "events.jsonl"], in: directory.path)
    let lines = try run.standardOutput.split(separator: "\n").map { record in
      try JSONParser.parse(Array(record.utf8))["line"]
    }
    #expect(lines == [3, 4, 5, 8])
  }

  /// Headings between nav events, which no assertion over `geo` reads: the kernel does not tell
  /// the observer of them, and the report still numbers and counts every event.
  ///
  /// ```
  /// line  1     2     3    4     5    6    7
  /// geo               310             320
  /// nav   push  push       pop   pop       push
  /// ```
  static let mixedLog =
    [
      #"{"type":"nav.push","payload":{"screen":"a"}}"#,
      #"{"type":"nav.push","payload":{"screen":"b"}}"#,
      #"{"type":"geo.heading","payload":{"heading":310}}"#,
      #"{"type":"nav.pop"}"#,
      #"{"type":"nav.pop"}"#,
      #"{"type":"geo.heading","payload":{"heading":320}}"#,
      #"{"type":"nav.push","payload":{"screen":"c"}}"#,
    ].joined(separator: "\n") + "\n"

  /// The JSON report of `check` with `arguments` over ``mixedLog``, as `assertion@line`s, the
  /// events counted, and the whole report.
  static func checkMixed(_ arguments: [String]) throws -> (
    violations: [String], events: JSONValue?, report: String
  ) {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.mixedLog)
    let run = CommandRun.run(
      ["check", "--format", "json", "--max-failures", "10"] + arguments + ["events.jsonl"],
      in: directory.path)
    #expect(run.status == 1)
    let report = try JSONParser.parse(run.standardOutput)
    return (try violations(run), report["events"], run.standardOutput)
  }

  @Test func anAssertionOverOneDomainNumbersAndCountsTheEventsOfTheOthers() throws {
    let result = try Self.checkMixed(["--assert", ".geo.heading == null or .geo.heading < 300"])
    #expect(result.violations == [".geo.heading == null or .geo.heading < 300@3"])
    #expect(result.events == 7)
    #expect(result.report.contains(#""seq":3"#))
  }

  @Test func anAssertionOnTheEventIsToldOfTheEventsOfEveryDomain() throws {
    let result = try Self.checkMixed([
      "--assert", ".geo.heading == null or .geo.heading < 300",
      "--assert", #"$event.type != "nav.pop""#,
    ])
    #expect(
      result.violations == [
        ".geo.heading == null or .geo.heading < 300@3", #"$event.type != "nav.pop"@4"#,
      ])
    #expect(result.events == 7)
  }

  @Test func theReportIsTheSameWhetherTheObserverIsToldOfEveryEventOrNot() throws {
    // A final assertion, or `--applied-lines`, has the observer told of every event.
    let assertions = [
      "--assert", ".geo.heading == null or .geo.heading < 300",
      "--assert", ".nav.stack | length < 2",
    ]
    let told = try Self.checkMixed(assertions)
    #expect(
      told.violations == [
        ".nav.stack | length < 2@2", ".geo.heading == null or .geo.heading < 300@3",
      ])
    #expect(told.events == 7)
    for extra in [["--applied-lines"], ["--assert-final", ".nav.stack | length < 9"]] {
      let toldAll = try Self.checkMixed(assertions + extra)
      #expect(toldAll.violations == told.violations, "with \(extra)")
      #expect(toldAll.events == told.events, "with \(extra)")
    }
    #expect(try Self.checkMixed(["-j", "1"] + assertions).report == told.report)
  }

  /// ``mixedLog`` with a `nav.push` whose `screen` is a number: a bad line, when decoded.
  static let logWithABadNavPayload = mixedLog.replacingOccurrences(
    of: #""screen":"c""#, with: #""screen":7"#)

  @Test func eventsOfDomainsNoAssertionReadsArePassedOverUnlessStrict() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.logWithABadNavPayload)
    let check = ["check", "--stats", "--assert", ".geo.heading == null or .geo.heading < 330"]
    // No assertion reads nav: its events are numbered and counted, not decoded.
    let passing = CommandRun.run(check + ["events.jsonl"], in: directory.path)
    #expect(passing.status == 0)
    #expect(passing.standardError.contains("5 of domains the expressions do not read, not decoded"))
    // `--strict` decodes every event: the bad payload is a bad line, as for `rasp replay`.
    let strict = CommandRun.run(check + ["--strict", "events.jsonl"], in: directory.path)
    #expect(strict.status == 2)
    #expect(strict.standardError.contains("events.jsonl:7:"))
    // An assertion that reads nav decodes its events.
    let readingNav = CommandRun.run(
      check + ["--assert", ".nav.stack | length < 9", "events.jsonl"], in: directory.path)
    #expect(readingNav.status == 2)
    #expect(!readingNav.standardError.contains("not decoded"))
  }

  @Test func theReportIsTheSameWhetherOtherDomainsArePassedOverOrNot() throws {
    let assertions = ["--assert", ".geo.heading == null or .geo.heading < 300"]
    let passedOver = try Self.checkMixed(assertions)
    let decoded = try Self.checkMixed(assertions + ["--strict"])
    #expect(passedOver.report == decoded.report)
    #expect(passedOver.violations == [".geo.heading == null or .geo.heading < 300@3"])
    // `find` as well: the event found, numbered as ever.
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.mixedLog)
    let find = ["find", ".geo.heading >= 300", "events.jsonl"]
    let found = CommandRun.run(find, in: directory.path)
    #expect(found.status == 0)
    #expect(found.standardOutput.contains(#""seq":3"#))
    #expect(
      CommandRun.run(find + ["--strict"], in: directory.path).standardOutput
        == found.standardOutput)
  }
}
