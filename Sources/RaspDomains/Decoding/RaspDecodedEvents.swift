import Rasp

/// Typed events of one domain, decoded ahead of being applied, in the order they were decoded.
///
/// The command line decodes payloads on one thread and applies the events on another; this is
/// where the decoded events of a domain wait in between. Each holds the events of one batch of
/// lines; a line's event is found again by its row.
///
/// ```swift
/// let column = RaspDecodedEvents<GeoDomain>()
/// try GeoDomain().decode(name, payload: &payload, context: .none, into: column)   // row 0
/// try GeoDomain().apply(decodedAt: 0, of: column, to: &state)
/// ```
public final class RaspDecodedEvents<Domain: RaspDomain>: AnyRaspDecodedEvents, @unchecked Sendable {
  /// The decoded events, by row. A column is filled by one thread, then read by another after
  /// a hand-over through a lock, so it goes without runtime exclusivity checks.
  @exclusivity(unchecked) public var events: [Domain.State.Event] = []

  /// Creates an empty column.
  ///
  /// ```swift
  /// let column = RaspDecodedEvents<NavDomain>()
  /// ```
  public override init() {}

  /// An empty column with room for `capacity` events.
  init(capacity: Int) {
    events.reserveCapacity(capacity)
  }

  override package var count: Int { events.count }
}

/// Decoded events of a domain whose type is not known where they are held.
///
/// ```swift
/// let columns: [AnyRaspDecodedEvents] = [RaspDecodedEvents<GeoDomain>(), RaspDecodedEvents<NavDomain>()]
/// ```
public class AnyRaspDecodedEvents: @unchecked Sendable {
  /// Creates a column; use ``RaspDecodedEvents``.
  ///
  /// ```swift
  /// let column: AnyRaspDecodedEvents = RaspDecodedEvents<GeoDomain>()
  /// ```
  public init() {}

  /// How many events the column holds.
  package var count: Int { 0 }
}
