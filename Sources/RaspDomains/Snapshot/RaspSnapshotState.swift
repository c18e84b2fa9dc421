import Rasp
import RaspJSON

/// The state of several domains at once: what `rasp replay` prints after each event.
///
/// A snapshot state is a ``Rasp/RaspState`` whose events are log lines. Applying one routes it
/// by its type's domain to that domain's slot, which decodes the payload into the domain's typed
/// event and applies it with the domain's reducer — with rollback, so a rejected event leaves
/// the snapshot unchanged. Every snapshot is complete: it holds every domain, changed or not.
///
/// Its JSON is an object keyed by domain name, in key order:
/// `{"geo":{…},"rest":{…}}`. Each domain's JSON is cached and written again only when the
/// domain changed, so writing a snapshot after an event costs little more than copying bytes.
///
/// ```swift
/// var pipeline = RaspPipeline(initial: RaspSnapshotState(domains: [GeoDomain(), RestDomain()]))
/// let event = try RaspLogEvent.parse(lineBytes)
/// if let routed = pipeline.current.route(event) {
///   try pipeline.send(routed)
///   print(String(decoding: pipeline.current.json(), as: UTF8.self))
/// }
/// ```
public struct RaspSnapshotState: RaspState {
  /// An event routed to one domain of the snapshot.
  ///
  /// Like its ``RaspLogEvent``, it is valid only as long as the line's bytes are, and, when it
  /// was decoded ahead, as long as the column it was decoded into.
  ///
  /// ```swift
  /// if let routed = snapshot.route(event) { try pipeline.send(routed) }
  /// ```
  public struct Event {
    /// The log event.
    public let log: RaspLogEvent
    /// The position of the event's domain in ``RaspSnapshotState/domainNames``.
    public let domainIndex: Int
    /// The position of the event in its domain's schema.
    public let eventIndex: Int
    /// The column the event was decoded into ahead of time, not retained: an event is a
    /// value copied at every stage of a replay, and holding no reference makes it free to copy.
    /// Like the line's bytes, the column must outlive the event.
    fileprivate let column: Unmanaged<AnyRaspDecodedEvents>?
    /// The event's row in ``column``.
    fileprivate let row: Int

    /// Where the event was decoded ahead of time, if it was, and its row there.
    ///
    /// ```swift
    /// if let (column, row) = routed.decoded { print(column, row) }
    /// ```
    public var decoded: (column: AnyRaspDecodedEvents, row: Int)? {
      column.map { ($0.takeUnretainedValue(), row) }
    }

    /// Creates a routed event, decoded ahead or not.
    ///
    /// The event does not keep `decoded`'s column alive: keep the columns, as the line's
    /// bytes, until the event is applied.
    ///
    /// ```swift
    /// let event = RaspSnapshotState.Event(log: log, domainIndex: 0, eventIndex: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - log: The log event.
    ///   - domainIndex: The event's domain.
    ///   - eventIndex: The event's position in its domain's schema.
    ///   - decoded: The column and row of the event decoded ahead, or `nil`.
    public init(
      log: RaspLogEvent, domainIndex: Int, eventIndex: Int,
      decoded: (column: AnyRaspDecodedEvents, row: Int)? = nil
    ) {
      self.log = log
      self.domainIndex = domainIndex
      self.eventIndex = eventIndex
      self.column = decoded.map { Unmanaged.passUnretained($0.column) }
      self.row = decoded?.row ?? 0
    }

    /// A routed event decoded ahead into a column that the caller keeps alive, without a
    /// reference to it: the replay's way, which copies no reference per event.
    package init(log: RaspLogEvent, domainIndex: Int, eventIndex: Int, column: Unmanaged<AnyRaspDecodedEvents>, row: Int) {
      self.log = log
      self.domainIndex = domainIndex
      self.eventIndex = eventIndex
      self.column = column
      self.row = row
    }
  }

  /// Decodes events for a snapshot of these domains, on any thread, ahead of applying them.
  ///
  /// ```swift
  /// let decoder = snapshot.makeDecoder()
  /// let columns = decoder.makeColumns()
  /// let row = try decoder.decode(routed, into: columns)
  /// try pipeline.send(RaspSnapshotState.Event(log: routed.log, domainIndex: routed.domainIndex,
  ///                                           eventIndex: routed.eventIndex,
  ///                                           decoded: (columns[routed.domainIndex], row)))
  /// ```
  public struct Decoder: @unchecked Sendable {
    private let decoders: [RaspDomainDecoder]
    /// The same decoders, not retained (``decoders`` keeps them): a call through them costs no
    /// reference counting per event.
    private let unretainedDecoders: [Unmanaged<RaspDomainDecoder>]

    init(decoders: [RaspDomainDecoder]) {
      self.decoders = decoders
      self.unretainedDecoders = decoders.map(Unmanaged.passUnretained)
    }

    /// One empty column per domain, for a batch of events.
    ///
    /// ```swift
    /// let columns = decoder.makeColumns()
    /// ```
    ///
    /// - Returns: The columns, in domain order.
    public func makeColumns() -> [AnyRaspDecodedEvents] {
      decoders.map { $0.makeColumn(capacity: 0) }
    }

    /// One empty column per domain, each with room for as many events as the same domain's
    /// column in `previous` holds: the next batch of a log is likely to be much like the last,
    /// and its columns then grow without copying.
    package func makeColumns(sizedLike previous: [AnyRaspDecodedEvents]) -> [AnyRaspDecodedEvents] {
      decoders.indices.map { index in
        decoders[index].makeColumn(capacity: index < previous.count ? previous[index].count : 0)
      }
    }

    /// Decodes a routed event's payload into its domain's column and returns its row.
    ///
    /// ```swift
    /// let row = try decoder.decode(routed, into: columns)
    /// ```
    ///
    /// - Parameters:
    ///   - event: An event from ``RaspSnapshotState/Router/route(_:)``.
    ///   - columns: Columns from ``makeColumns()``.
    /// - Returns: The event's row in `columns[event.domainIndex]`.
    /// - Throws: ``RaspEventError`` for a payload that does not decode.
    public func decode(_ event: Event, into columns: [AnyRaspDecodedEvents]) throws(RaspEventError) -> Int {
      // `columns` keeps the column alive for the call.
      try decode(event, into: Unmanaged.passUnretained(columns[event.domainIndex]))
    }

    /// Decodes a routed event's payload into its domain's column, which the caller keeps alive,
    /// and returns its row: the replay's way, which retains nothing per event.
    package func decode(_ event: Event, into column: Unmanaged<AnyRaspDecodedEvents>) throws(RaspEventError) -> Int {
      let result = unretainedDecoders[event.domainIndex]._withUnsafeGuaranteedRef { decoder in
        column._withUnsafeGuaranteedRef { column in
          Result { () throws(RaspEventError) in try decoder.decode(event.log, eventIndex: event.eventIndex, into: column) }
        }
      }
      return try result.get()
    }
  }

  /// A decoder of this snapshot's domains' events, for use on another thread.
  ///
  /// ```swift
  /// let decoder = pipeline.current.makeDecoder()
  /// ```
  ///
  /// - Returns: The decoder.
  public func makeDecoder() -> Decoder {
    Decoder(decoders: slots.map { $0.makeDecoder() })
  }

  private var slots: [RaspDomainSlot]
  private let keyPrefixes: [[UInt8]]

  /// Creates the initial snapshot of a set of domains.
  ///
  /// Domains are kept in name order, which is the order of their keys in the JSON. A domain
  /// whose name repeats an earlier one's is left out; callers check names first.
  ///
  /// ```swift
  /// let snapshot = RaspSnapshotState(domains: RaspBuiltinDomains.all)
  /// ```
  ///
  /// - Parameter domains: The domains.
  public init(domains: [any RaspDomain]) {
    var seen = Set<String>()
    let unique = domains.filter { seen.insert($0.name).inserted }
    let sorted = unique.sorted { JSONObject.keyPrecedes($0.name, $1.name) }
    slots = sorted.map { RaspSnapshotState.makeSlot($0) }
    keyPrefixes = sorted.enumerated().map { index, domain in
      var writer = JSONWriter()
      writer.writeRaw(index == 0 ? "{" : ",")
      writer.writeKey(domain.name)
      return writer.bytes
    }
  }

  private static func makeSlot<Domain: RaspDomain>(_ domain: Domain) -> RaspDomainSlot {
    TypedRaspDomainSlot(domain: domain, state: domain.initialState)
  }

  /// The names of the domains, in key order.
  ///
  /// ```swift
  /// snapshot.domainNames   // ["geo", "rest"]
  /// ```
  public var domainNames: [String] { slots.map(\.name) }

  /// The position of the domain named `name`, or `nil`.
  ///
  /// ```swift
  /// snapshot.domainIndex(named: "geo")   // 0
  /// ```
  ///
  /// - Parameter name: A domain name.
  /// - Returns: The domain's position in ``domainNames``.
  public func domainIndex(named name: String) -> Int? {
    slots.firstIndex { $0.name == name }
  }

  /// Finds the domain and event of a log event, or returns `nil` when no domain here defines
  /// its type.
  ///
  /// ```swift
  /// guard let routed = snapshot.route(event) else { unknownTypes += 1; return }
  /// ```
  ///
  /// - Parameter log: A log event.
  /// - Returns: The event routed to its domain.
  public func route(_ log: RaspLogEvent) -> Event? {
    router.route(log)
  }

  /// The event router of this snapshot's domains, to keep while the snapshot changes.
  ///
  /// ```swift
  /// let router = pipeline.current.router
  /// if let routed = router.route(event) { try pipeline.send(routed) }
  /// ```
  public var router: Router { Router(slots: slots) }

  /// Finds the domain and event of log events, for a fixed set of domains.
  ///
  /// ```swift
  /// let routed = router.route(event)
  /// ```
  public struct Router {
    private let domainNames: [RaspNameKey]
    private let eventNames: [[RaspNameKey]]

    init(slots: [RaspDomainSlot]) {
      domainNames = slots.map { RaspNameKey($0.nameBytes) }
      eventNames = slots.map { $0.eventNameBytes.map(RaspNameKey.init) }
    }

    /// The event routed to its domain, or `nil` when no domain defines its type.
    ///
    /// ```swift
    /// guard let routed = router.route(event) else { return }
    /// ```
    ///
    /// - Parameter log: A log event.
    /// - Returns: The routed event.
    public func route(_ log: RaspLogEvent) -> Event? {
      guard let domain = log.domain.nameKey, let name = log.name.nameKey else {
        return routeSlowly(log)
      }
      for index in domainNames.indices where domainNames[index].matches(domain, log.domain) {
        let names = eventNames[index]
        for eventIndex in names.indices where names[eventIndex].matches(name, log.name) {
          return Event(log: log, domainIndex: index, eventIndex: eventIndex)
        }
        return nil
      }
      return nil
    }

    /// Routes an event whose type is written with escapes, by decoded text.
    private func routeSlowly(_ log: RaspLogEvent) -> Event? {
      for index in domainNames.indices where log.domain.equals(domainNames[index].bytes) {
        let names = eventNames[index]
        for eventIndex in names.indices where log.name.equals(names[eventIndex].bytes) {
          return Event(log: log, domainIndex: index, eventIndex: eventIndex)
        }
        return nil
      }
      return nil
    }
  }

  /// Applies a routed event to its domain.
  ///
  /// ```swift
  /// try snapshot.apply(event: routed)
  /// ```
  ///
  /// - Parameter event: An event from ``route(_:)``.
  /// - Throws: ``RaspEventError`` for a payload that does not decode, or a reducer's rejection;
  ///   the snapshot is then unchanged.
  public mutating func apply(event: Event) throws {
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
      try slot._withUnsafeGuaranteedRef { try $0.apply(event.log, eventIndex: event.eventIndex) }
    }
  }

  /// `true`: each domain decodes before it changes anything, and applies its reducer with
  /// rollback, so the snapshot is updated in place.
  ///
  /// ```swift
  /// RaspSnapshotState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }

  /// The canonical JSON of one domain's state.
  ///
  /// ```swift
  /// snapshot.encodedState(ofDomainAt: 0)   // {"accuracy":null,"heading":90,"location":null}
  /// ```
  ///
  /// - Parameter index: The domain's position in ``domainNames``.
  /// - Returns: The state's JSON.
  public func encodedState(ofDomainAt index: Int) -> [UInt8] {
    slots[index].encodedState()
  }

  /// Appends the snapshot's canonical JSON to `writer`, re-encoding only changed domains.
  ///
  /// ```swift
  /// snapshot.write(to: &writer)
  /// ```
  ///
  /// - Parameter writer: Where to write.
  public func write(to writer: inout JSONWriter) {
    guard !slots.isEmpty else {
      writer.writeRaw("{}")
      return
    }
    for index in slots.indices {
      writer.writeRaw(keyPrefixes[index])
      let slot = slots[index]
      if !slot.isEncodingCurrent { slot.refreshEncoding() }
      writer.writeRaw(slot.encoding)
    }
    writer.writeRaw("}")
  }

  /// The snapshot's canonical JSON.
  ///
  /// ```swift
  /// print(String(decoding: snapshot.json(), as: UTF8.self))
  /// ```
  ///
  /// - Returns: The JSON text.
  public func json() -> [UInt8] {
    var writer = JSONWriter()
    write(to: &writer)
    return writer.bytes
  }
}
