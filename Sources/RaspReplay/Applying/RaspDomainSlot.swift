import Rasp
import RaspDomains
import RaspJSON

/// A domain and its state, with the type erased, so that domains of different types sit side
/// by side in one snapshot: the replay's handle on a domain.
///
/// Slots are shared between copies of a snapshot until one of them changes, like the storage
/// of an array: the snapshot copies a slot before changing it unless the slot is uniquely
/// referenced.
///
/// ```swift
/// let slot = RaspDomainSlot.make(GeoDomain())
/// try slot.apply(payloadAt: 30, expectedEnd: nil, context: context, eventIndex: 0)
/// ```
package class RaspDomainSlot {
  /// A domain's names, made once and shared by every copy of its slot: a keyed replay copies
  /// a slot for each of 100,000 keys, and each copy would otherwise allocate them again.
  final class Names {
    let name: String
    let nameBytes: [UInt8]
    let eventNames: [RaspEventName]
    let eventNameBytes: [[UInt8]]
    /// The types of other domains each event stands for (``RaspEventSchema/listensTo``).
    let eventListensTo: [[String]]

    init(name: String, eventNames: [String], eventListensTo: [[String]] = []) {
      self.name = name
      self.eventListensTo = eventListensTo
      self.nameBytes = Array(name.utf8)
      self.eventNames = eventNames.enumerated().map { RaspEventName(index: $0, string: $1) }
      self.eventNameBytes = eventNames.map { Array($0.utf8) }
    }
  }

  /// The names, shared with the slot's copies.
  let names: Names
  /// The domain's name.
  package var name: String { names.name }
  /// The domain's name as UTF-8, for routing events by their type's bytes.
  package var nameBytes: [UInt8] { names.nameBytes }
  /// The names of the domain's events, in schema order.
  package var eventNames: [RaspEventName] { names.eventNames }
  /// The names of the domain's events as UTF-8, in schema order.
  package var eventNameBytes: [[UInt8]] { names.eventNameBytes }

  /// The types of other domains, or of none, each of the domain's events stands for, by event
  /// index: patterns of `domain.event` (``RaspEventSchema/listensTo``).
  package var eventListensTo: [[String]] { names.eventListensTo }

  /// Whether the decoder of the last event applied from its payload (not decoded ahead, whose
  /// column says) skipped a field of the payload itself
  /// (``RaspDomains/RaspPayload/hasSkippedField``), for the replay to look for an unknown one.
  /// Like the state, it belongs to one snapshot on one thread, and goes without runtime
  /// exclusivity checks, which cost a thread-local lookup at every event, twice.
  @exclusivity(unchecked) package final var hasSkippedField = false

  init(names: Names) {
    self.names = names
  }

  /// The slot of a domain, in its initial state.
  ///
  /// - Parameter domain: Any domain; one of this package's runs specialized code.
  /// - Returns: The slot.
  package static func make(_ domain: any RaspDomain) -> RaspDomainSlot {
    func slot<Domain: RaspSpecializedDomain>(_ domain: Domain) -> RaspDomainSlot {
      TypedRaspDomainSlot(domain: domain, state: domain.initialState)
    }
    func foreign<Domain: RaspDomain>(_ domain: Domain) -> any RaspSpecializedDomain {
      RaspForeignDomain(domain)
    }
    if let specialized = domain as? any RaspSpecializedDomain { return slot(specialized) }
    return slot(foreign(domain))
  }

  /// Decodes and applies one event, with rollback; overridden.
  ///
  /// - Parameters:
  ///   - offset: Where the payload object starts in the context's line, or `nil`.
  ///   - expectedEnd: Where the payload must end, or `nil` (see ``RaspPayload``).
  ///   - context: The event's context, which holds its line.
  ///   - eventIndex: The event's position in the domain's schema.
  /// - Throws: ``RaspEventError``; the state is then unchanged.
  package func apply(
    payloadAt offset: Int?, expectedEnd: Int?, context: RaspEventContext, eventIndex: Int
  ) throws(RaspEventError) {}

  /// Applies an event decoded ahead by this domain's decoder, with rollback; overridden.
  ///
  /// - Throws: ``RaspEventError``; the state is then unchanged.
  package func apply(decodedAt row: Int, of column: AnyRaspDecodedEvents) throws(RaspEventError) {}

  /// A decoder of this domain's events, to use on another thread; overridden.
  package func makeDecoder() -> RaspDomainDecoder { RaspDomainDecoder() }

  /// Writes the state's canonical JSON; overridden.
  package func encodeState(into writer: inout JSONWriter) {}

  /// The member `name` of the state's JSON, when the domain reads it from its typed state
  /// (``RaspDomains/RaspMemberReading/member(named:)``); overridden.
  package func member(named name: String) -> RaspStateMember? { nil }

  /// The value of a member of the state's JSON, read from the typed state
  /// (``RaspDomains/RaspMemberReading/value(of:in:)``); overridden.
  package func value(of member: RaspStateMember) -> JSONValue { .null }

  /// Reads a member of the state's JSON into `value`, in the room of the value it held
  /// (``RaspDomains/RaspMemberReading/read(_:in:into:)``); overridden.
  package func read(_ member: RaspStateMember, into value: inout JSONValue) { value = .null }

  /// Replaces the state with one read back from its JSON (``RaspDomain/decodeState(_:)``);
  /// overridden.
  ///
  /// - Throws: ``RaspStateError``; the state is then unchanged.
  package func restoreState(from value: JSONValue) throws(RaspStateError) {}

  /// A copy with its own state; overridden.
  package func copy() -> RaspDomainSlot { self }

  /// Whether two threads may encode this slot's state at once
  /// (``RaspSpecializedDomain/encodesConcurrently``); overridden.
  package var encodesConcurrently: Bool { false }
}

/// The slot of a domain of a known type.
final class TypedRaspDomainSlot<Domain: RaspSpecializedDomain>: RaspDomainSlot {
  let domain: Domain
  // A slot belongs to one snapshot on one thread (copied before it is shared), so its state
  // goes without runtime exclusivity checks, which cost a thread-local lookup per event.
  @exclusivity(unchecked) var state: Domain.State
  /// The class of the columns this domain's decoder makes, looked up once: a cast to the
  /// generic `RaspDecodedEvents<Domain>` looks its metadata up at run time on every call.
  private let columnClass: ObjectIdentifier

  init(domain: Domain, state: Domain.State) {
    self.domain = domain
    self.state = state
    self.columnClass = ObjectIdentifier(RaspDecodedEvents<Domain>.self)
    super.init(
      names: Names(
        name: domain.name, eventNames: domain.events.map(\.name),
        eventListensTo: domain.events.map(\.listensTo)))
  }

  /// A copy of a slot: its state, and the names it shares.
  private init(domain: Domain, state: Domain.State, columnClass: ObjectIdentifier, names: Names) {
    self.domain = domain
    self.state = state
    self.columnClass = columnClass
    super.init(names: names)
  }

  override func apply(
    payloadAt offset: Int?, expectedEnd: Int?, context: RaspEventContext, eventIndex: Int
  ) throws(RaspEventError) {
    var payload = RaspPayload(line: context.lineBytes, offset: offset, expectedEnd: expectedEnd)
    try domain.apply(names.eventNames[eventIndex], payload: &payload, context: context, to: &state)
    hasSkippedField = payload.hasSkippedField
  }

  override func apply(decodedAt row: Int, of column: AnyRaspDecodedEvents) throws(RaspEventError) {
    // `RaspDecodedEvents` is final, so the column is one of this domain's exactly when its
    // class is.
    guard ObjectIdentifier(type(of: column)) == columnClass else {
      throw RaspEventError(offset: nil, reason: .rejected("decoded by another domain"))
    }
    let typed = unsafeDowncast(column, to: RaspDecodedEvents<Domain>.self)
    try domain.apply(decodedAt: row, of: typed, to: &state)
  }

  override func makeDecoder() -> RaspDomainDecoder {
    TypedRaspDomainDecoder(domain: domain, eventNames: eventNames)
  }

  override func encodeState(into writer: inout JSONWriter) {
    // Passed by value, as a read: two threads can encode a slot that keys share with the
    // initial state at once (`FinalRuns`, `-j`), and an `inout` access, even one that
    // changes nothing, would be two conflicting accesses.
    domain.encode(state, into: &writer)
  }

  override func member(named name: String) -> RaspStateMember? {
    domain.member(named: name)
  }

  override func value(of member: RaspStateMember) -> JSONValue {
    domain.value(of: member, in: state)
  }

  override func read(_ member: RaspStateMember, into value: inout JSONValue) {
    domain.read(member, in: state, into: &value)
  }

  override func restoreState(from value: JSONValue) throws(RaspStateError) {
    state = try domain.decodeState(value)
  }

  override func copy() -> RaspDomainSlot {
    TypedRaspDomainSlot(domain: domain, state: state, columnClass: columnClass, names: names)
  }

  override var encodesConcurrently: Bool { Domain.encodesConcurrently }
}
