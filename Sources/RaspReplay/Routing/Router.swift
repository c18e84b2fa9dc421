import RaspDomains

/// Finds the domain and event of an envelope's type, for a fixed set of domains: the replay's
/// routing stage.
///
/// A name is compared by its length and its first eight bytes as one integer, then the rest,
/// so that routing an event costs a few integer comparisons. The names are kept flat — their
/// lengths and heads in arrays of plain values, the bytes beyond the first eight in one array —
/// so that routing retains nothing.
///
/// ```swift
/// let router = snapshot.router
/// guard let routed = router.route(envelope) else { unknownTypes += 1; return }
/// ```
package struct Router {
  /// A name, prepared for comparing.
  private struct Key {
    let count: Int
    let head: UInt64
    /// Where its bytes beyond the first eight are in ``tails``.
    let tailStart: Int
    /// For a domain: where its events' keys start in ``eventKeys``, and how many there are.
    let firstEvent: Int
    let eventCount: Int

    /// The key of no name, which no part of a type matches: no part is -1 bytes long.
    static let nothing = Key(count: -1, head: 0, tailStart: 0, firstEvent: 0, eventCount: 0)
  }

  private let domainKeys: [Key]
  private let eventKeys: [Key]
  /// Every name's bytes beyond the first eight, one after another.
  private let tails: [UInt8]
  /// Every name's bytes, by domain, for types written with escapes.
  private let names: [(domain: [UInt8], events: [[UInt8]])]
  /// The types a map file made, for lines read with one.
  private(set) var table: TypeTable?

  init(slots: [RaspDomainSlot]) {
    var tails: [UInt8] = []
    func key(_ bytes: [UInt8], firstEvent: Int = 0, eventCount: Int = 0) -> Key {
      var head: UInt64 = 0
      for (index, byte) in bytes.prefix(8).enumerated() { head |= UInt64(byte) << (8 * index) }
      defer { tails.append(contentsOf: bytes.dropFirst(8)) }
      return Key(
        count: bytes.count, head: head, tailStart: tails.count, firstEvent: firstEvent,
        eventCount: eventCount)
    }
    var domainKeys: [Key] = []
    var eventKeys: [Key] = []
    for slot in slots {
      domainKeys.append(
        key(slot.nameBytes, firstEvent: eventKeys.count, eventCount: slot.eventNameBytes.count))
      for name in slot.eventNameBytes {
        // An event that stands only for other domains' types has no name, and no type of its
        // own to route (`cart.` is no type).
        eventKeys.append(name.isEmpty ? .nothing : key(name))
      }
    }
    self.domainKeys = domainKeys
    self.eventKeys = eventKeys
    self.tails = tails
    self.names = slots.map { ($0.nameBytes, $0.eventNameBytes) }
  }

  /// The event routed to its domain, or `nil` when no domain here defines its type.
  ///
  /// - Parameter envelope: A line's envelope.
  /// - Returns: The routed event, not decoded yet.
  package func route(_ envelope: Envelope) -> SnapshotState.Event? {
    var domainPart = envelope.domain
    var namePart = envelope.name
    if let id = envelope.mappedType {
      guard let table else { return nil }
      let (bytes, dot) = table.canonical(id)
      // A type of no domain (`ADD_TODO`), kept for the domains that listen to it.
      guard dot >= 0 else { return nil }
      domainPart = EventTypePart(line: bytes, start: 0, end: dot)
      namePart = EventTypePart(line: bytes, start: dot + 1, end: bytes.count)
    }
    guard let domain = domainPart.nameKey, let name = namePart.nameKey else {
      return routeSlowly(envelope)
    }
    return tails.withUnsafeBufferPointer { tails -> SnapshotState.Event? in
      @inline(__always) func matches(
        _ key: Key, _ found: (count: Int, head: UInt64), _ part: EventTypePart
      )
        -> Bool
      {
        key.count == found.count && key.head == found.head
          && part.tailEquals(UnsafeBufferPointer(rebasing: tails[key.tailStart...]))
      }
      for domainIndex in domainKeys.indices
      where matches(domainKeys[domainIndex], domain, domainPart) {
        let first = domainKeys[domainIndex].firstEvent
        for eventIndex in 0..<domainKeys[domainIndex].eventCount
        where matches(eventKeys[first + eventIndex], name, namePart) {
          return SnapshotState.Event(
            envelope: envelope, domainIndex: domainIndex, eventIndex: eventIndex)
        }
        return nil
      }
      return nil
    }
  }

  /// The types routed, `domain.event`, by domain and event index, as ``route(_:)`` numbers
  /// them.
  var typeNames: [[String]] {
    names.map { domain, events in
      events.map { String(decoding: domain + [UInt8(ascii: ".")] + $0, as: UTF8.self) }
    }
  }

  /// The same router, for lines whose types a map file made into the entries of `table`.
  func mapping(with table: TypeTable?) -> Router {
    var router = self
    router.table = table
    return router
  }

  /// A domain's error about an event read with a map file, naming the payload and the time as
  /// the line does: `data.heading` rather than `payload.heading` for a CloudEvent,
  /// `timeUnixNano` rather than `ts` for an OpenTelemetry log record.
  func namingPayload(in error: RaspEventError, of envelope: Envelope) -> RaspEventError {
    guard let table, envelope.mappedType != nil else { return error }
    let paths = table.format.payload
    var name = paths.first?.description ?? "payload"
    if paths.count > 1 {
      // Which of the alternatives the event has.
      let locator = FieldLocator(paths: paths)
      var found = locator.makeResults()
      if (try? locator.locate(in: envelope.line, into: &found)) != nil,
        let index = found.firstIndex(where: { $0 != nil })
      {
        name = paths[index].description
      }
    }
    return error.renamingPayload(to: name).renamingTime(to: table.format.time.first?.description)
  }

  /// An envelope's type, `domain.event`, for messages.
  func typeName(of envelope: Envelope) -> String {
    if let id = envelope.mappedType, let table { return table.string(id) }
    return envelope.type
  }

  /// Routes an event whose type is written with escapes, by its decoded text.
  private func routeSlowly(_ envelope: Envelope) -> SnapshotState.Event? {
    for domainIndex in names.indices where envelope.domain.equals(names[domainIndex].domain) {
      let events = names[domainIndex].events
      for eventIndex in events.indices
      where !events[eventIndex].isEmpty && envelope.name.equals(events[eventIndex]) {
        return SnapshotState.Event(
          envelope: envelope, domainIndex: domainIndex, eventIndex: eventIndex)
      }
      return nil
    }
    return nil
  }
}
