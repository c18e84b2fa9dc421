import RaspDomains
import RaspJSON

/// Decodes the events of one domain away from its state, into columns of typed events.
///
/// It holds only the domain, which is `Sendable`, so it runs on another thread than the one
/// that applies the events: the replay's reading thread decodes a share of the lines ahead.
///
/// ```swift
/// let decoder = RaspDomainSlot.make(GeoDomain()).makeDecoder()
/// let column = decoder.makeColumn(capacity: 64)
/// let row = try decoder.decode(payloadAt: 30, expectedEnd: nil, context: context, eventIndex: 0,
///                              into: column)
/// ```
package class RaspDomainDecoder: @unchecked Sendable {
  /// A new column for this domain's decoded events, with room for `capacity`; overridden.
  package func makeColumn(capacity: Int) -> AnyRaspDecodedEvents { AnyRaspDecodedEvents() }

  /// Decodes an event into the next row of `column`, and returns the row; overridden.
  ///
  /// - Parameters:
  ///   - offset: Where the payload object starts in the context's line, or `nil`.
  ///   - expectedEnd: Where the payload must end, or `nil` (see ``RaspPayload``).
  ///   - context: The event's context, which holds its line.
  ///   - eventIndex: The event's position in the domain's schema.
  ///   - column: A column this decoder made.
  /// - Returns: The event's row in `column`.
  /// - Throws: ``RaspEventError`` for a payload that does not decode; `column` is unchanged.
  package func decode(
    payloadAt offset: Int?, expectedEnd: Int?, context: RaspEventContext, eventIndex: Int,
    into column: AnyRaspDecodedEvents
  ) throws(RaspEventError) -> Int { 0 }
}

/// The decoder of a domain of a known type.
final class TypedRaspDomainDecoder<Domain: RaspSpecializedDomain>: RaspDomainDecoder,
  @unchecked Sendable
{
  let domain: Domain
  let eventNames: [RaspEventName]

  init(domain: Domain, eventNames: [RaspEventName]) {
    self.domain = domain
    self.eventNames = eventNames
  }

  override func makeColumn(capacity: Int) -> AnyRaspDecodedEvents {
    RaspDecodedEvents<Domain>(capacity: capacity)
  }

  override func decode(
    payloadAt offset: Int?, expectedEnd: Int?, context: RaspEventContext, eventIndex: Int,
    into column: AnyRaspDecodedEvents
  ) throws(RaspEventError) -> Int {
    // Columns come from `makeColumn(capacity:)` of this decoder, so the cast holds.
    let typed = unsafeDowncast(column, to: RaspDecodedEvents<Domain>.self)
    var payload = RaspPayload(line: context.lineBytes, offset: offset, expectedEnd: expectedEnd)
    let row = try domain.decode(
      eventNames[eventIndex], payload: &payload, context: context, into: typed)
    if payload.hasSkippedField { typed.noteSkippedField(at: row) }
    return row
  }
}
