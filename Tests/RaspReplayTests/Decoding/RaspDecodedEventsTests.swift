import RaspDomains
import Testing

@testable import RaspReplay

/// A column of events decoded ahead: its rows, and the bit of each row whose decoder skipped
/// a field of the payload, across the words that hold the bits.
@Suite struct RaspDecodedEventsTests {
  @Test func holdsItsEventsByRow() {
    let column = RaspDecodedEvents<NavDomain>(capacity: 8)
    #expect(column.count == 0)
    #expect(column.events.capacity >= 8)
    column.events.append(.push("home"))
    column.events.append(.pop)
    #expect(column.count == 2)
    #expect(column.events == [.push("home"), .pop])
    let erased: AnyRaspDecodedEvents = column
    #expect(erased.count == 2)
  }

  @Test func notesSkippedFieldsInAsManyWordsAsTheLastRowNeeds() {
    let column = AnyRaspDecodedEvents()
    #expect(column.skippedFieldBits.isEmpty)
    #expect(!column.hasSkippedField(at: 0))
    let rows = [0, 5, 63, 64, 130]
    for row in rows { column.noteSkippedField(at: row) }
    #expect(column.skippedFieldBits.count == 3)
    #expect((0..<200).filter(column.hasSkippedField(at:)) == rows)
    // Rows before the first and past the last word are rows with no skipped field.
    #expect(!column.hasSkippedField(at: -1))
    #expect(!column.hasSkippedField(at: 64 * 3))
    // Noting a row twice changes nothing.
    column.noteSkippedField(at: 5)
    #expect((0..<200).filter(column.hasSkippedField(at:)) == rows)
  }
}
