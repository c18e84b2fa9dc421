import Testing

@testable import RaspReplay

/// A stream's last event's number (``ReplayStream/EventNumber``): known, or pending in a kernel
/// of a pool until the pool numbers the event, each read back as it was made.
@Suite struct EventNumberTests {
  @Test func aKnownNumberIsItsOwnRecordValue() {
    for number in [0, 1, 7, 1_000_000, Int.max] {
      let known = ReplayStream.EventNumber.known(number)
      #expect(known.state == .known(number))
      #expect(known.recordValue == number)
    }
  }

  @Test func aPendingNumberKeepsItsItemAndIsNeverTakenForAKnownOne() {
    for item in [0, 1, 8_191, Int.max - 1] {
      let pending = ReplayStream.EventNumber.pending(item: item)
      #expect(pending.state == .pending(item: item))
      #expect(pending.recordValue < 0)
      #expect(pending != .known(item))
    }
  }
}
