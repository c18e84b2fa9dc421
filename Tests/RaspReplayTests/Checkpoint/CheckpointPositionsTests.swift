import RaspDomains
import Testing

@testable import RaspReplay

/// When a checkpoint is due: every `interval` events, at the end of a line (never between two
/// events of one line), counted from the last one; and where each input is.
@Suite struct CheckpointPositionsTests {
  private func positions(interval: Int?, events: Int = 0) -> CheckpointPositions {
    CheckpointPositions(
      lines: [0, 0], offsets: [0, 0], readHashes: [nil, nil], times: [nil, nil],
      interval: interval, events: events)
  }

  @Test func isDueEveryIntervalEventsCountedFromTheLast() {
    var checkpoints = positions(interval: 3, events: 10)
    var due: [Int] = []
    for events in 11...25 {
      checkpoints.note(
        line: events, offset: events * 10, time: nil, of: 0, events: events, atLineEnd: true)
      if checkpoints.isDue {
        due.append(events)
        checkpoints.isDue = false
      }
    }
    #expect(due == [13, 16, 19, 22, 25])
  }

  @Test func waitsForTheEndOfALineOfSeveralEvents() {
    var checkpoints = positions(interval: 2)
    // Line 1 holds events 1 to 3; line 2 event 4.
    for events in 1...3 {
      checkpoints.note(
        line: 1, offset: 100, time: nil, of: 0, events: events, atLineEnd: events == 3)
      #expect(checkpoints.isDue == (events == 3), "\(events)")
    }
    checkpoints.isDue = false
    // The next is due 2 events after the one it was yielded at, 3.
    checkpoints.note(line: 2, offset: 150, time: nil, of: 0, events: 4, atLineEnd: true)
    #expect(!checkpoints.isDue)
    checkpoints.note(line: 3, offset: 190, time: nil, of: 0, events: 5, atLineEnd: true)
    #expect(checkpoints.isDue)
  }

  @Test func neverDueWithoutAnInterval() {
    var checkpoints = positions(interval: nil)
    checkpoints.note(line: 1, offset: 10, time: nil, of: 1, events: .max, atLineEnd: true)
    #expect(!checkpoints.isDue)
  }

  @Test func keepsTheLastLineOffsetAndTimeOfEachInput() throws {
    var checkpoints = positions(interval: 100)
    let time = try RaspTimestamp(rfc3339: "2026-11-22T09:30:00Z")
    checkpoints.note(line: 4, offset: 80, time: time, of: 1, events: 1, atLineEnd: true)
    checkpoints.note(line: 9, offset: 300, time: nil, of: 0, events: 2, atLineEnd: true)
    #expect(checkpoints.lines == [9, 4])
    #expect(checkpoints.offsets == [300, 80])
    #expect(checkpoints.times == [nil, time])
  }
}
