import RaspDomains
import Testing

@testable import RaspReplay

/// The range stage on its own: which items a replay handles, which of them are before
/// `--since`, and after which it stops, for every kind of position.
///
/// Each case walks the same five lines of one input — times 1 to 5 s, each line one event
/// unless marked a batch member — and reads like a marble table: `b` an item handled before
/// `--since`, `h` one handled in the range, `|` the replay ending after the item, `x` the
/// replay stopping before the item, which is left unread.
@Suite struct ReplayRangeTests {
  /// The lines' times, 1 s apart.
  static func time(_ seconds: Int) throws -> RaspTimestamp {
    try RaspTimestamp(rfc3339: "2026-11-22T09:30:0\(seconds)Z")
  }

  /// The marbles of a range over `lines` (each `(line, isMember)`), counting one applied event
  /// per item handled.
  static func marbles(
    _ range: ReplayRange, lines: [(Int, Bool)] = (1...5).map { ($0, false) }
  ) throws -> String {
    var range = range
    var applied = 0
    var marbles = ""
    for (line, isMember) in lines {
      let place = ReplayRange.Place(
        time: try time(line), input: 0, line: line, isMember: isMember)
      switch range.enter(place, applied: applied) {
      case .stop:
        return marbles + "x"
      case .handle(let isBeforeSince):
        applied += 1
        marbles += isBeforeSince ? "b" : "h"
        if range.endsAfter(place, applied: applied) { return marbles + "|" }
      }
    }
    return marbles
  }

  @Test func noPositionIsNoRange() {
    #expect(ReplayRange(since: nil, until: nil) == nil)
  }

  @Test func sinceMarksTheItemsBeforeIt() throws {
    let cases: [(ReplayPosition, String)] = [
      (.event(3), "bbhhh"),
      (.event(1), "hhhhh"),
      (.event(9), "bbbbb"),
      (.line(input: 0, line: 2), "bhhhh"),
      // A position in another input is never reached by this one's lines.
      (.line(input: 1, line: 2), "bbbbb"),
      (.time(try Self.time(4)), "bbbhh"),
    ]
    for (since, expected) in cases {
      let range = try #require(ReplayRange(since: since, until: nil))
      #expect(try Self.marbles(range) == expected, "--since \(since)")
    }
  }

  @Test func untilEndsAfterItsEventOrLineAndBeforeALaterTime() throws {
    let cases: [(ReplayPosition, String)] = [
      (.event(2), "hh|"),
      (.line(input: 0, line: 3), "hhh|"),
      (.line(input: 1, line: 3), "hhhhh"),
      // A time stops before the first line after it: the replay cannot know sooner.
      (.time(try Self.time(2)), "hhx"),
      (.event(0), "x"),
    ]
    for (until, expected) in cases {
      let range = try #require(ReplayRange(since: nil, until: until))
      #expect(try Self.marbles(range) == expected, "--until \(until)")
    }
  }

  @Test func sinceAndUntilTogether() throws {
    let range = try #require(
      ReplayRange(since: .line(input: 0, line: 2), until: .time(try Self.time(4))))
    #expect(try Self.marbles(range) == "bhhhx")
  }

  @Test func aBatchLineEndsAtTheNextLineNotAtItsFirstEvent() throws {
    // Line 2 holds three events; `--until line:2` prints them all and stops before line 3.
    let lines = [(1, false), (2, true), (2, true), (2, true), (3, false)]
    let range = try #require(ReplayRange(since: nil, until: .line(input: 0, line: 2)))
    #expect(try Self.marbles(range, lines: lines) == "hhhhx")
  }

  @Test func sinceOnceReachedStaysReached() throws {
    // Times that go back after `--since` (a log not in order) are still in the range.
    var range = try #require(ReplayRange(since: .time(try Self.time(3)), until: nil))
    let times = [1, 3, 2, 1]
    var marbles = ""
    for (index, seconds) in times.enumerated() {
      let place = ReplayRange.Place(time: try Self.time(seconds), input: 0, line: index + 1)
      guard case .handle(let isBeforeSince) = range.enter(place, applied: index) else {
        Issue.record("stopped at \(index)")
        return
      }
      marbles += isBeforeSince ? "b" : "h"
    }
    #expect(marbles == "bhhh")
  }

  @Test func aLineWithoutATimeIsNeitherPastNorAtATime() throws {
    var range = try #require(
      ReplayRange(since: .time(try Self.time(2)), until: .time(try Self.time(3))))
    let place = ReplayRange.Place(time: nil, input: 0, line: 1)
    #expect(range.enter(place, applied: 0) == .handle(isBeforeSince: true))
  }
}
