import Rasp
import RaspDomains

/// Typed events of one domain, decoded ahead of being applied, in the order they were decoded:
/// one column of a batch of lines.
///
/// The replay decodes a share of the payloads on its reading thread and applies the events on
/// another; the decoded events wait here in between, and a line's event is found again by its
/// row. A column is filled by one thread and read by the other after a hand-over through a
/// lock, so it goes without runtime exclusivity checks.
///
/// ```swift
/// let column = RaspDecodedEvents<GeoDomain>(capacity: 16)
/// let row = try GeoDomain().decode(name, payload: &payload, context: .none, into: column)  // 0
/// try GeoDomain().apply(decodedAt: row, of: column, to: &state)
/// ```
package final class RaspDecodedEvents<Domain: RaspDomain>: AnyRaspDecodedEvents,
  @unchecked Sendable
{
  /// The decoded events, by row.
  @exclusivity(unchecked) package var events: [Domain.State.Event] = []

  /// An empty column with room for `capacity` events.
  package init(capacity: Int) {
    events.reserveCapacity(capacity)
  }

  override package var count: Int { events.count }
}

/// Decoded events of a domain whose type is not known where they are held.
package class AnyRaspDecodedEvents: @unchecked Sendable {
  /// A bit for each row, set for an event whose decoder skipped a field of the payload itself
  /// (``RaspDomains/RaspPayload/hasSkippedField``); as many words as the last such row needs.
  @exclusivity(unchecked) package final var skippedFieldBits: [UInt64] = []

  /// Notes that the decoder of the event at `row` skipped a field of the payload itself.
  package final func noteSkippedField(at row: Int) {
    let word = row >> 6
    while skippedFieldBits.count <= word { skippedFieldBits.append(0) }
    skippedFieldBits[word] |= 1 << UInt64(row & 63)
  }

  /// Whether the decoder of the event at `row` skipped a field of the payload itself.
  @inline(__always)
  package final func hasSkippedField(at row: Int) -> Bool {
    let word = row >> 6
    guard row >= 0, word < skippedFieldBits.count else { return false }
    return skippedFieldBits[word] & (1 << UInt64(row & 63)) != 0
  }

  package init() {}

  /// How many events the column holds.
  package var count: Int { 0 }
}
