import Testing

@testable import RaspReplay

/// What a kernel of a pool notes per list of items: forgotten at the next list, but for what
/// spans the whole replay (its share, the first unknown type, where its unknown fields were).
@Suite struct KernelPartTests {
  @Test func startingAListForgetsTheLastListsNotesOnly() {
    var part = KernelPart(index: 1, count: 3)
    part.startList(ordinalBase: 0)
    part.itemIndex = 7
    part.applied = [2, 7]
    part.touched = [(stream: 4, item: 7)]
    part.seqOffset = 120
    part.countsBefore = [(item: 7, statistics: ReplayStatistics(), firstUnknown: nil)]
    part.firstUnknown = 5
    part.unknownFieldOrdinals = [3, 5]
    part.startList(ordinalBase: 4096)
    #expect(part.ordinalBase == 4096)
    #expect(part.applied.isEmpty)
    #expect(part.touched.isEmpty)
    #expect(part.countsBefore.isEmpty)
    #expect(part.seqOffset == nil)
    // The replay's own, not the list's.
    #expect(part.firstUnknown == 5)
    #expect(part.unknownFieldOrdinals == [3, 5])
    // Room kept for the next list, which is likely as long.
    #expect(part.applied.capacity >= 2)
  }
}
