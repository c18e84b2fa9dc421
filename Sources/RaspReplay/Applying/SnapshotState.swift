import Rasp
import RaspDomains
import RaspJSON

/// The state of several domains at once: what a replay prints after each event.
///
/// A snapshot state is a ``Rasp/RaspState`` whose events are log lines routed to a domain
/// (``Event``). Applying one hands it to that domain's slot, which decodes the payload into the
/// domain's typed event (unless it was decoded ahead) and applies it with the domain's reducer,
/// with rollback: a rejected event leaves the snapshot unchanged. Every snapshot is complete:
/// it holds every domain, changed or not. Domains are kept in name order, the order of their
/// keys in the snapshot's JSON.
///
/// The state does not keep its JSON: ``SnapshotText`` does, for the replay.
///
/// ```swift
/// var pipeline = RaspPipeline(initial: SnapshotState(domains: [GeoDomain(), RestDomain()]))
/// if let routed = pipeline.current.router.route(envelope) {
///   try pipeline.send(routed)
/// }
/// ```
package struct SnapshotState: RaspState {
  /// An event routed to one domain of the snapshot.
  ///
  /// Like its envelope, it is valid only as long as the line's bytes are, and, when it was
  /// decoded ahead, as long as the column it was decoded into.
  package struct Event {
    /// The log line's envelope.
    package let envelope: Envelope
    /// The position of the event's domain in ``SnapshotState/domainNames``.
    package let domainIndex: Int
    /// The position of the event in its domain's schema.
    package let eventIndex: Int
    /// The column the event was decoded into ahead of time, not retained: an event is a value
    /// copied at every stage of a replay, and holding no reference makes it free to copy. Like
    /// the line's bytes, the column must outlive the event.
    let column: Unmanaged<AnyRaspDecodedEvents>?
    /// The event's row in ``column``.
    let row: Int

    /// A routed event, decoded ahead into `row` of `column` (which the caller keeps alive) or
    /// not decoded yet.
    package init(
      envelope: Envelope, domainIndex: Int, eventIndex: Int,
      column: Unmanaged<AnyRaspDecodedEvents>? = nil, row: Int = 0
    ) {
      self.envelope = envelope
      self.domainIndex = domainIndex
      self.eventIndex = eventIndex
      self.column = column
      self.row = row
    }
  }

  private var slots: [RaspDomainSlot]

  /// The domain the last event was applied to, and its slot, not retained: `nil` from the
  /// start of every change until an event is applied. Valid until the snapshot changes again,
  /// for ``SnapshotText/write(applied:to:)`` to encode that domain without a copy of the
  /// snapshot (a copy retains and releases `slots`, two atomic operations a record).
  package private(set) var applied: AppliedDomain?

  /// A domain an event was just applied to: its position and its slot, not retained.
  package struct AppliedDomain {
    /// The domain's position in ``SnapshotState/domainNames``.
    let index: Int
    /// The domain's slot, which the snapshot keeps alive.
    let slot: Unmanaged<RaspDomainSlot>
  }

  /// The initial snapshot of a set of domains.
  ///
  /// A domain whose name repeats an earlier one's is left out; callers check names first.
  ///
  /// - Parameter domains: The domains.
  package init(domains: [any RaspDomain]) {
    var seen = Set<String>()
    let unique = domains.filter { seen.insert($0.name).inserted }
    let sorted = unique.sorted { JSONObject.keyPrecedes($0.name, $1.name) }
    slots = sorted.map(RaspDomainSlot.make)
  }

  /// The names of the domains, in key order.
  package var domainNames: [String] { slots.map(\.name) }

  /// Each domain's name and, by event index, the types of other domains its events stand for
  /// (``RaspDomains/RaspEventSchema/listensTo``), in key order: what ``TypeListeners`` is made
  /// of.
  package var listeningDomains: [(name: String, listensTo: [[String]])] {
    slots.map { ($0.name, $0.eventListensTo) }
  }

  /// How many domains there are.
  package var domainCount: Int { slots.count }

  /// Whether two threads may encode this snapshot at once: every domain is one of rasp's own
  /// (``RaspDomainSlot/encodesConcurrently``).
  package var encodesConcurrently: Bool { slots.allSatisfy(\.encodesConcurrently) }

  /// The name of the domain at `index` in ``domainNames``.
  package func domainName(at index: Int) -> String { slots[index].name }

  /// The position of the domain named `name`, or `nil`.
  package func domainIndex(named name: String) -> Int? {
    slots.firstIndex { $0.name == name }
  }

  /// The router of this snapshot's domains, to keep while the snapshot changes.
  package var router: Router { Router(slots: slots) }

  /// A decoder of this snapshot's domains' events, for use on another thread.
  package func makeDecoder() -> EventDecoder {
    EventDecoder(decoders: slots.map { $0.makeDecoder() })
  }

  /// Where this snapshot's list of domains is in memory, and how many there are, for
  /// a replay to ask for them early (``ReplayStream/domains``).
  package var domainsInMemory: (elements: UnsafeRawPointer?, count: Int) {
    slots.withUnsafeBufferPointer { (UnsafeRawPointer($0.baseAddress), $0.count) }
  }

  /// Whether the decoder of the last event applied to the domain at `index` skipped a field of
  /// its payload itself (``RaspDomainSlot/hasSkippedField``).
  @inline(__always)
  package func hasSkippedField(domain index: Int) -> Bool { slots[index].hasSkippedField }

  /// Applies a routed event to its domain.
  ///
  /// - Parameter event: An event from ``router``.
  /// - Throws: ``RaspDomains/RaspEventError`` for a payload that does not decode or whose
  ///   assumed end is wrong, or a reducer's rejection; the snapshot is then unchanged.
  package mutating func apply(event: Event) throws {
    applied = nil
    let index = event.domainIndex
    if !isKnownUniquelyReferenced(&slots[index]) {
      slots[index] = slots[index].copy()
    }
    // `slots` keeps the slot alive, and the caller the column (see `Event`): the calls go
    // without retaining either, which would cost two atomic operations per event.
    let slot = Unmanaged.passUnretained(slots[index])
    if let column = event.column {
      try slot._withUnsafeGuaranteedRef { slot in
        try column._withUnsafeGuaranteedRef { try slot.apply(decodedAt: event.row, of: $0) }
      }
    } else {
      let envelope = event.envelope
      try slot._withUnsafeGuaranteedRef {
        try $0.apply(
          payloadAt: envelope.payloadOffset, expectedEnd: envelope.expectedPayloadEnd,
          context: envelope.context, eventIndex: event.eventIndex)
      }
    }
    applied = AppliedDomain(index: index, slot: slot)
  }

  /// `true`: each domain decodes before it changes anything, and applies its reducer with
  /// rollback, so the snapshot is updated in place.
  package static var throwsBeforeMutating: Bool { true }

  /// Writes the canonical JSON of one domain's state.
  ///
  /// - Parameters:
  ///   - index: The domain's position in ``domainNames``.
  ///   - writer: Where to write.
  package func encodeState(ofDomainAt index: Int, into writer: inout JSONWriter) {
    // `slots` keeps the slot alive, as in ``apply(event:)``: the call goes without retaining
    // it, two atomic operations for every snapshot written.
    Unmanaged.passUnretained(slots[index])._withUnsafeGuaranteedRef {
      $0.encodeState(into: &writer)
    }
  }

  /// The member `name` of one domain's JSON, when the domain reads it from its typed state
  /// (``RaspDomains/RaspMemberReading``); `nil` when it must be read from the JSON.
  ///
  /// - Parameters:
  ///   - name: A key of the domain's JSON object.
  ///   - index: The domain's position in ``domainNames``.
  /// - Returns: The member, or `nil`.
  package func member(named name: String, ofDomainAt index: Int) -> RaspStateMember? {
    slots[index].member(named: name)
  }

  /// The value of a member of one domain's JSON, read from its typed state: what locating the
  /// member in ``encodeState(ofDomainAt:into:)``'s JSON and parsing it gives.
  ///
  /// - Parameters:
  ///   - member: A member from ``member(named:ofDomainAt:)`` of the same domain.
  ///   - index: The domain's position in ``domainNames``.
  /// - Returns: The member's value, `null` when the JSON has none.
  package func value(of member: RaspStateMember, ofDomainAt index: Int) -> JSONValue {
    slots[index].value(of: member)
  }

  /// Reads a member of one domain's JSON into `value`, in the room of the value it held (an
  /// array's): what ``value(of:ofDomainAt:)`` gives.
  ///
  /// - Parameters:
  ///   - member: A member from ``member(named:ofDomainAt:)`` of the same domain.
  ///   - index: The domain's position in ``domainNames``.
  ///   - value: Any value, replaced by the member's.
  package func read(
    _ member: RaspStateMember, ofDomainAt index: Int, into value: inout JSONValue
  ) {
    slots[index].read(member, into: &value)
  }

  /// Replaces one domain's state with one read back from its JSON: a checkpoint's.
  ///
  /// - Parameters:
  ///   - index: The domain's position in ``domainNames``.
  ///   - value: The state's JSON, as ``encodeState(ofDomainAt:into:)`` wrote it.
  /// - Throws: ``RaspDomains/RaspStateError``; the snapshot is then unchanged.
  package mutating func restoreState(ofDomainAt index: Int, from value: JSONValue)
    throws(RaspStateError)
  {
    applied = nil
    if !isKnownUniquelyReferenced(&slots[index]) {
      slots[index] = slots[index].copy()
    }
    try slots[index].restoreState(from: value)
  }

  /// The canonical JSON of one domain's state.
  package func encodedState(ofDomainAt index: Int) -> [UInt8] {
    var writer = JSONWriter()
    encodeState(ofDomainAt: index, into: &writer)
    return writer.bytes
  }

  /// The snapshot's canonical JSON, every domain encoded now: `{"geo":{…},"rest":{…}}`.
  package func json() -> [UInt8] {
    SnapshotText(self).bytes
  }
}
