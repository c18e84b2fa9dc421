import Rasp
import RaspJSON

/// A domain and its state, with the type erased so that domains of different types can sit
/// side by side in one snapshot. It caches the state's canonical JSON until the state changes.
///
/// Slots are shared between copies of a ``RaspSnapshotState`` until one of them changes, like
/// the storage of an array: ``RaspSnapshotState`` copies a slot before mutating it unless the
/// slot is uniquely referenced.
class RaspDomainSlot {
  /// The domain's name.
  let name: String
  /// The domain's name as UTF-8, for routing events by their type's bytes.
  let nameBytes: [UInt8]
  /// The names of the domain's events, in schema order.
  let eventNames: [RaspEventName]
  /// The names of the domain's events as UTF-8, in schema order.
  let eventNameBytes: [[UInt8]]
  /// The state's canonical JSON, valid while ``isEncodingCurrent``.
  @exclusivity(unchecked) var encoding: [UInt8] = []
  /// Whether ``encoding`` reflects the current state.
  @exclusivity(unchecked) var isEncodingCurrent = false

  init(name: String, eventNames: [String]) {
    self.name = name
    self.nameBytes = Array(name.utf8)
    self.eventNames = eventNames.enumerated().map { RaspEventName(index: $0, string: $1) }
    self.eventNameBytes = eventNames.map { Array($0.utf8) }
  }

  /// The index of the event named `name` in the domain's schema, or `nil`.
  final func eventIndex(of name: RaspTypePart) -> Int? {
    for index in eventNameBytes.indices where name.equals(eventNameBytes[index]) { return index }
    return nil
  }

  /// Decodes and applies one event; overridden by ``TypedRaspDomainSlot``.
  func apply(_ event: RaspLogEvent, eventIndex: Int) throws(RaspEventError) {}

  /// Applies an event decoded ahead by this domain's decoder; overridden.
  func apply(decodedAt row: Int, of column: AnyRaspDecodedEvents) throws(RaspEventError) {}

  /// A decoder for this domain's events, to use on another thread; overridden.
  func makeDecoder() -> RaspDomainDecoder { RaspDomainDecoder() }

  /// Writes the state's JSON into ``encoding``; overridden by ``TypedRaspDomainSlot``.
  func refreshEncoding() {}

  /// A copy with its own state; overridden by ``TypedRaspDomainSlot``.
  func copy() -> RaspDomainSlot { self }

  /// The state's canonical JSON, encoded now if the state changed since the last time.
  final func encodedState() -> [UInt8] {
    if !isEncodingCurrent { refreshEncoding() }
    return encoding
  }
}

/// The slot of a domain of a known type.
final class TypedRaspDomainSlot<Domain: RaspDomain>: RaspDomainSlot {
  let domain: Domain
  // A slot belongs to one snapshot on one thread (copied before it is shared), so its
  // properties go without runtime exclusivity checks, which cost a thread-local lookup per event.
  @exclusivity(unchecked) var state: Domain.State
  /// The class of the columns this domain's decoder makes, looked up once: a cast to the generic
  /// `RaspDecodedEvents<Domain>` looks its metadata up in the runtime's cache on every call,
  /// about 400 instructions, more than applying most events.
  private let columnClass: ObjectIdentifier

  init(domain: Domain, state: Domain.State) {
    self.domain = domain
    self.state = state
    self.columnClass = ObjectIdentifier(RaspDecodedEvents<Domain>.self)
    super.init(name: domain.name, eventNames: domain.events.map(\.name))
  }

  override func apply(_ event: RaspLogEvent, eventIndex: Int) throws(RaspEventError) {
    // For an event whose payload's end is assumed, the payload confirms it once decoded, and
    // throws before the state changes when it ends elsewhere.
    var payload = try RaspPayload(event: event)
    let name = eventNames[eventIndex]
    try domain.apply(name, payload: &payload, context: event.context, to: &state)
    isEncodingCurrent = false
  }

  override func apply(decodedAt row: Int, of column: AnyRaspDecodedEvents) throws(RaspEventError) {
    // `RaspDecodedEvents` is final, so the column is one of this domain's exactly when its
    // class is.
    guard ObjectIdentifier(type(of: column)) == columnClass else {
      throw RaspEventError(offset: nil, reason: .rejected("decoded by another domain"))
    }
    try domain.apply(decodedAt: row, of: unsafeDowncast(column, to: RaspDecodedEvents<Domain>.self), to: &state)
    isEncodingCurrent = false
  }

  override func makeDecoder() -> RaspDomainDecoder {
    TypedRaspDomainDecoder(domain: domain, eventNames: eventNames)
  }

  override func refreshEncoding() {
    var writer = JSONWriter(capacity: 0)
    swap(&writer.bytes, &encoding)
    writer.removeAll()
    domain.encode(state, into: &writer)
    swap(&writer.bytes, &encoding)
    isEncodingCurrent = true
  }

  override func copy() -> RaspDomainSlot {
    let copy = TypedRaspDomainSlot(domain: domain, state: state)
    copy.encoding = encoding
    copy.isEncodingCurrent = isEncodingCurrent
    return copy
  }
}

/// Decodes the events of one domain, away from its state: it holds only the domain, which is
/// `Sendable`, so it can run on another thread than the one applying the events.
class RaspDomainDecoder: @unchecked Sendable {
  /// A new column for this domain's decoded events, with room for `capacity`; overridden.
  func makeColumn(capacity: Int) -> AnyRaspDecodedEvents { AnyRaspDecodedEvents() }

  /// Decodes an event into `column` and returns its row; overridden.
  func decode(_ event: RaspLogEvent, eventIndex: Int, into column: AnyRaspDecodedEvents) throws(RaspEventError)
    -> Int
  { 0 }
}

/// The decoder of a domain of a known type.
final class TypedRaspDomainDecoder<Domain: RaspDomain>: RaspDomainDecoder, @unchecked Sendable {
  let domain: Domain
  let eventNames: [RaspEventName]

  init(domain: Domain, eventNames: [RaspEventName]) {
    self.domain = domain
    self.eventNames = eventNames
  }

  override func makeColumn(capacity: Int) -> AnyRaspDecodedEvents { RaspDecodedEvents<Domain>(capacity: capacity) }

  override func decode(
    _ event: RaspLogEvent, eventIndex: Int, into column: AnyRaspDecodedEvents
  ) throws(RaspEventError) -> Int {
    // Columns come from `makeColumn()` of this decoder, so the cast holds.
    let typed = unsafeDowncast(column, to: RaspDecodedEvents<Domain>.self)
    // The payload confirms an assumed end when `decode` finishes it, before the event is kept.
    var payload = try RaspPayload(event: event)
    try domain.decode(eventNames[eventIndex], payload: &payload, context: event.context, into: typed)
    return typed.events.count - 1
  }
}
