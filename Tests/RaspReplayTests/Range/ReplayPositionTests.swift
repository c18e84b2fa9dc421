import RaspDomains
import Testing

@testable import RaspReplay

/// Reading a position of `--since`, `--until` and `--at`: a time in RFC 3339 or since the epoch
/// with a unit, a line of an input, or an event's number.
@Suite struct ReplayPositionTests {
  let names = ["a.jsonl", "dir/b.jsonl"]

  @Test func aTimeIsRFC3339OrAnEpochWithAUnit() throws {
    let time = RaspTimestamp(seconds: 1_795_339_801, nanoseconds: 250_000_000)
    #expect(try ReplayPosition("2026-11-22T09:30:01.25Z", inputNames: names) == .time(time))
    #expect(try ReplayPosition("2026-11-22T10:30:01.25+01:00", inputNames: names) == .time(time))
    #expect(try ReplayPosition("1795339801250ms", inputNames: names) == .time(time))
    #expect(try ReplayPosition("1795339801250000us", inputNames: names) == .time(time))
    #expect(try ReplayPosition("1795339801250000000ns", inputNames: names) == .time(time))
    #expect(
      try ReplayPosition("1795339801s", inputNames: names)
        == .time(RaspTimestamp(seconds: 1_795_339_801, nanoseconds: 0)))
  }

  @Test func aTimeWithoutAZoneAndADateAloneAreInUTC() throws {
    let time = RaspTimestamp(seconds: 1_795_339_801, nanoseconds: 250_000_000)
    #expect(try ReplayPosition("2026-11-22T09:30:01.25", inputNames: names) == .time(time))
    #expect(try ReplayPosition("2026-11-22 09:30:01.25", inputNames: names) == .time(time))
    // 1,795,305,600 s is 2026-11-22T00:00:00Z: 20,779 days after 1970-01-01 (date -u -d @…).
    #expect(
      try ReplayPosition("2026-11-22", inputNames: names)
        == .time(RaspTimestamp(seconds: 1_795_305_600, nanoseconds: 0)))
    // Not a line of an input called '2026-11-22T09:30', as it was read before.
    #expect(
      try ReplayPosition("2026-11-22T09:30:03", inputNames: ["2026-11-22T09:30"])
        == .time(RaspTimestamp(seconds: 1_795_339_803, nanoseconds: 0)))
    #expect(ReplayPosition.utcForm(of: "2026-11-22") == "2026-11-22T00:00:00Z")
    #expect(ReplayPosition.utcForm(of: "2026-11-22T09:30:03") == "2026-11-22T09:30:03Z")
    #expect(ReplayPosition.utcForm(of: "2026-11-22T09:30:03Z") == nil)
    #expect(ReplayPosition.utcForm(of: "2026-11-22T09:30:03+01:00") == nil)
    #expect(ReplayPosition.utcForm(of: "events.jsonl:12") == nil)
  }

  @Test func aLineNamesAnInputOrTheOnlyOne() throws {
    #expect(try ReplayPosition("dir/b.jsonl:12", inputNames: names) == .line(input: 1, line: 12))
    #expect(try ReplayPosition("line:3", inputNames: ["-"]) == .line(input: 0, line: 3))
    #expect(throws: ReplayPositionError.self) { try ReplayPosition("line:3", inputNames: names) }
    #expect(throws: ReplayPositionError.self) { try ReplayPosition("c.jsonl:3", inputNames: names) }
    #expect(throws: ReplayPositionError.self) { try ReplayPosition("a.jsonl:0", inputNames: names) }
  }

  @Test func anEventIsItsNumberFromOne() throws {
    #expect(try ReplayPosition("#1", inputNames: names) == .event(1))
    #expect(try ReplayPosition("#120", inputNames: names) == .event(120))
    for text in ["#0", "#", "#-1", "#1.5", "# 2"] {
      #expect(throws: ReplayPositionError.self) { try ReplayPosition(text, inputNames: names) }
    }
  }

  @Test func anythingElseSaysWhatIsExpected() {
    for text in [
      "yesterday", "", "12", "12m", "-5s", "2026-11", "2026-11-31", "2026-11-22T25:00:00Z", "s",
      "1.5e3x",
    ] {
      do {
        _ = try ReplayPosition(text, inputNames: names)
        Issue.record("'\(text)' was read")
      } catch {
        #expect(error.description == ReplayPosition.expected, "'\(text)'")
      }
    }
  }
}
