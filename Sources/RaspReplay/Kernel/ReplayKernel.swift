import Rasp
import RaspDomains
import RaspJSON
import RaspPrefetch

/// Applies items, one at a time and in order, and writes the record each calls for: the
/// routing, decoding, applying and output stages of a replay.
///
/// ``Replay`` feeds it items from its inputs; for each, the kernel either routes its envelope
/// to a domain, decodes the payload (unless the reading thread did) and applies the event to
/// the snapshot through the core's ``Rasp/RaspPipeline``, or counts and reports the line.
/// Then it writes the record the configuration asks for — the snapshot, a selected value, a
/// diff, with or without the event — straight into the output, from ``SnapshotText``.
///
/// This is also the one place where an event whose payload's end was assumed is read again,
/// carefully, when anything about it fails (see ``AssumedPayloadEnd``).
struct ReplayKernel {
  let configuration: ReplayConfiguration
  /// The inputs' names, for diagnostics and `--with-event`.
  let inputNames: [String]
  /// The streams: the one stream of a replay; in a keyed replay, the stream before any event,
  /// then each key's, key `n` at `n + 1`.
  let streams: ReplayStreams
  /// The stream the kernel works on, in ``streams``.
  var streamPointer: UnsafeMutablePointer<ReplayStream>
  /// The current stream's snapshot, text, selection and last event: the only one, or the
  /// current key's in a keyed replay. Worked on in place (``ReplayStreams``).
  private var stream: ReplayStream {
    unsafeAddress { UnsafePointer(streamPointer) }
    unsafeMutableAddress { streamPointer }
  }
  /// The stream each key starts with.
  let initialStream: ReplayStream
  /// The number of the key whose stream is the current one; -1 before the first event.
  var currentKey = -1
  /// The keys and their streams, in a keyed replay (`--key-by`).
  var keys: ReplayKeys?
  /// Whether the replay is keyed: asked of ``keys`` for every event, `keys != nil` would copy
  /// them, arrays and all, first.
  let isKeyed: Bool
  /// The keys' numbers in the order `--final` prints them, once it does, and how many it has.
  private var finalOrder: [Int]?
  private var finalPosition = 0
  /// The plain `--final` records of a keyed replay on one kernel, written on two threads.
  private var finalRuns = FinalRuns()
  private var writesFinalRuns = false
  /// Whether the event being applied has no key (its key is `null`), to count it once applied.
  private var isWithoutKey = false
  /// Whether a key's `--final` record is being written, its snapshot encoded once.
  private var isWritingKeyFinal = false
  /// The share of the keys this kernel handles, when it is one of several (``KernelPool``).
  var part: KernelPart?
  /// Whether the kernel is one of several: asked of ``part`` for every event, `part != nil`
  /// would copy it, lists and all, first.
  private let isPart: Bool
  let router: Router
  /// The router of the domains left out, to tell their events from unknown ones.
  private let excludedRouter: Router
  /// The payload fields each routed type defines, by domain and event index as the router
  /// numbers them; empty for a type that defines none (it reads its payload whole) or
  /// accepts others (a REST response), and outside `--strict` for a spec domain's. A field
  /// not among them is an error under `--strict`, and otherwise a warning
  /// (``ReplayStatistics/unknownFields``).
  private let payloadFields: PayloadFieldTable
  /// The type and field of each unknown payload field noted (``noteUnknownField(_:of:item:)``),
  /// `type` NUL `field`: each is noted once.
  private var unknownFieldsNoted: Set<String> = []
  /// The domain the selection starts with, or `nil` for the whole snapshot.
  private let selectedDomain: Int?
  /// Whether the selection is a field of each event's line (`event.meta.user`), not of the
  /// snapshot.
  private let selectsEvent: Bool
  /// What becomes of each type's events under `--drop` and `--hide`, when either is given.
  private let typeFilter: TypeFilter?
  /// Whether ``typeFilter`` is given: asked of it for every event, `typeFilter != nil` would
  /// copy it first.
  private let filtersTypes: Bool
  /// Whether some type is hidden, which makes no record plain.
  private let hidesTypes: Bool
  /// Where records start and reading stops (`--since`, `--until`, `--at`), when given.
  private var range: ReplayRange?
  /// Whether ``range`` is given: asked for every item.
  private let hasRange: Bool
  /// Whether the last item handed to ``handle(_:of:columns:writer:)`` was left unread: it is
  /// past `--until`, which ended the replay before it.
  private(set) var isItemLeftUnread = false
  /// Whether the item being handled is before `--since`.
  private var isBeforeSince = false
  /// How many events were applied.
  private(set) var seq = 0
  /// How many records were yielded, for a checkpoint.
  private(set) var records = 0
  /// The batch of the item being handled, for the origins of events that are not simply their
  /// lines (not retained: the caller keeps it).
  private var currentBatch: Unmanaged<ReplayBatch>?
  /// The counts.
  private(set) var statistics = ReplayStatistics()
  /// How the replay ends, once it must.
  private(set) var ending: ReplaySummary.Ending?

  init(
    configuration: ReplayConfiguration, inputNames: [String], types: TypeTable?,
    part: KernelPart? = nil
  ) {
    self.configuration = configuration
    self.part = part
    isPart = part != nil
    self.inputNames = inputNames
    let snapshot = SnapshotState(domains: configuration.domains)
    var stream = ReplayStream(pipeline: RaspPipeline(initial: snapshot))
    router = snapshot.router.mapping(with: types)
    excludedRouter = SnapshotState(domains: configuration.excludedDomains).router
      .mapping(with: types)
    // Outside `--strict`, a payload field no schema has is a warning only where it is likely
    // a mistake: not in a spec's events, whose fields are those its operations read, not a
    // schema (a Redux action's payload, Segment's properties have others); and only in a
    // payload the log wrote as one, not in a whole record that a map takes for the payload
    // (`"payload": "."`, whose other fields are the envelope's) or whose fields it renames.
    let format = configuration.format
    let isPayloadAsWritten =
      format.fieldMoves == nil && !format.payload.contains { $0.components.isEmpty }
    let checkedDomains =
      configuration.isStrict
      ? configuration.domains
      : isPayloadAsWritten ? configuration.domains.filter { !($0 is RaspSpecDomain) } : []
    payloadFields = Self.payloadFields(
      of: router.typeNames, in: checkedDomains, keyPath: configuration.keyPath)
    typeFilter = TypeFilter(
      dropping: configuration.droppedTypes.map(TypeGlob.init),
      hiding: configuration.hiddenTypes.map(TypeGlob.init), typeNames: router.typeNames)
    range = ReplayRange(since: configuration.since, until: configuration.at ?? configuration.until)
    hasRange = range != nil
    filtersTypes = typeFilter != nil
    hidesTypes = typeFilter?.hidesSome ?? false
    if let path = configuration.selection {
      selectedDomain = path.firstKey.flatMap { snapshot.domainIndex(named: $0) }
      stream.selector = RaspSelector { (value: [UInt8]) in value }
      selectsEvent = selectedDomain == nil && path.firstKey == ReplayConfiguration.eventRoot
    } else {
      selectedDomain = nil
      selectsEvent = false
    }
    if configuration.emit == .diff {
      var initial = SnapshotText(snapshot)
      var spare = JSONWriter()
      if let path = configuration.selection {
        stream.differ = RecordDiffer(
          initialValue: selectsEvent
            ? Array("null".utf8)
            : Self.selectedBytes(
              path, domain: selectedDomain, text: &initial, snapshot, spare: &spare))
      } else {
        stream.differ = RecordDiffer(
          initialDomains: snapshot.domainNames.indices.map {
            initial.domain(at: $0, of: snapshot, spare: &spare)
          },
          names: snapshot.domainNames)
      }
    }
    if configuration.keyPath != nil {
      // Each key's stream starts as a copy of this one: with its text made here, once, and
      // shared until a key changes it, a new key's first record encodes only the domain its
      // event changed, not every domain, and allocates no text of its own from scratch.
      stream.text = SnapshotText(snapshot)
    }
    initialStream = stream
    streams = ReplayStreams(first: stream)
    streamPointer = streams.pointer(to: 0)
    keys = configuration.keyPath.map { ReplayKeys(path: $0) }
    isKeyed = configuration.keyPath != nil
    keepsLastEvent =
      (configuration.checkpointInterval != nil || configuration.checkpointsAtEnd)
      && !configuration.isFinal
    isObserved = configuration.stateObserver != nil
    isPlain =
      !configuration.isFinal && configuration.selection == nil && configuration.emit != .diff
      && !configuration.includesEvent && configuration.keyPath == nil && !hidesTypes
      && configuration.since == nil
  }

  /// The snapshot before any event, which the reading thread makes its decoder from.
  var pipeline: RaspPipeline<SnapshotState> { initialStream.pipeline }

  /// Handles one item: counts it, applies its event, and writes its record to `writer`.
  ///
  /// The item is read where it is, in its batch: a copy of a whole item (141 bytes) just before
  /// reading its fields back stalls the processor on every line.
  ///
  /// - Returns: What to yield for it: a record, a bad line, a notice; `nil` for nothing.
  @inline(__always)
  mutating func handle(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if hasRange { return handleInRange(item, of: batch, columns: columns, writer: &writer) }
    return handleItem(item, of: batch, columns: columns, writer: &writer)
  }

  /// Handles one item of a replay with `--since` or `--until`: stops before an item past
  /// `--until`, uncounted, and after the event or line at it; marks the events before
  /// `--since`, whose records are not written.
  @inline(never)
  private mutating func handleInRange(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter
  ) -> ReplayOutcome? {
    let pointee = item.pointee
    if pointee.isNotice { return handleItem(item, of: batch, columns: columns, writer: &writer) }
    let place = ReplayRange.Place(
      time: pointee.time, input: pointee.input, line: pointee.lineNumber,
      isMember: pointee.isMember)
    if let time = pointee.time { statistics.noteTime(time) }
    guard case .handle(let beforeSince)? = range?.enter(place, applied: seq) else {
      isItemLeftUnread = true
      return stopAtUntil()
    }
    isItemLeftUnread = false
    isBeforeSince = beforeSince
    let outcome = handleItem(item, of: batch, columns: columns, writer: &writer)
    isBeforeSince = false
    // Stopped at once after the event or line at `--until`, not at the next line, which a
    // followed file may not have yet.
    if ending == nil, range?.endsAfter(place, applied: seq) == true { _ = stopAtUntil() }
    return outcome
  }

  /// Takes the counts of events applied and records yielded from a checkpoint, so that `seq`
  /// goes on from them, and counts the keys it brought.
  mutating func restoreCount(events: Int, records: Int) {
    seq = events
    self.records = records
    if isKeyed { statistics.keys = keys?.count ?? 0 }
  }

  /// Ends the replay at `--until` (or `--at`): nothing more is read.
  private mutating func stopAtUntil() -> ReplayOutcome? {
    if ending == nil {
      ending = .completed
      statistics.stoppingOption = configuration.at == nil ? "--until" : "--at"
    }
    return nil
  }

  /// Handles one item, in or out of a range.
  @inline(__always)
  private mutating func handleItem(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter
  ) -> ReplayOutcome? {
    currentBatch = batch
    if isPart, !ownsItem(item) { return nil }
    switch item.pointee.kind {
    case .decoded(let envelope, let domainIndex, let eventIndex, let row):
      countLine(of: item)
      let routed = SnapshotState.Event(
        envelope: envelope, domainIndex: domainIndex, eventIndex: eventIndex,
        column: columns[domainIndex], row: row)
      return apply(routed, item: item, writer: &writer)
    case .event(let envelope):
      countLine(of: item)
      return handle(envelope, item: item, writer: &writer)
    case .blank:
      statistics.read += 1
      statistics.blank += 1
      return nil
    case .dropped:
      countLine(of: item)
      statistics.dropped += 1
      return ignoring(item.pointee, "dropped by the log format '\(configuration.format.name)'")
    case .notice, .problem, .emptyBatch:
      return handleOther(item.pointee, of: batch.takeUnretainedValue())
    }
  }

  /// Whether the item is this kernel's to handle, when it has a share of the keys: an event
  /// whose key is in its share, as the reading thread found (``KeyPartition``); a line that is
  /// not an event, for kernel 0. The counts before
  /// an item it handles are kept, for a replay that ends at another kernel's item
  /// (``KernelPart``).
  @inline(never)
  private mutating func ownsItem(_ item: UnsafePointer<ReplayItem>) -> Bool {
    // The part's fields are read one by one: a copy of the part would share its lists, and
    // the next change to them would copy them whole.
    guard let own = part?.index else { return true }
    let share = Int(item.pointee.share)
    guard share == own else { return false }
    if let itemIndex = part?.itemIndex {
      let firstUnknown = part?.firstUnknown
      part?.countsBefore.append((Int32(truncatingIfNeeded: itemIndex), statistics, firstUnknown))
    }
    return true
  }

  /// Counts the line an event item is of: once, for its first event.
  @inline(__always)
  private mutating func countLine(of item: UnsafePointer<ReplayItem>) {
    if item.pointee.membership != .ownLine {
      countMember(startsLine: item.pointee.membership == .firstOfLine)
    } else {
      statistics.read += 1
    }
  }

  /// Counts an event of a batch line, and the line with its first event.
  @inline(never)
  private mutating func countMember(startsLine: Bool) {
    statistics.batchEvents += 1
    if startsLine {
      statistics.read += 1
      statistics.batchLines += 1
    }
  }

  /// Handles a notice or a problem. The kernel's rare paths are kept out of line, here and
  /// below, so that the code that handles a good line stays small enough for the processor's
  /// instruction cache.
  @inline(never)
  private mutating func handleOther(_ item: ReplayItem, of batch: ReplayBatch) -> ReplayOutcome? {
    switch item.kind {
    case .notice(let index):
      return .notice(ReplayNotice(input: item.input, message: batch.notices[index]))
    case .problem(let index):
      switch batch.problems[index] {
      case .readFailure(let message):
        ending = .readFailure(input: item.input, message: message)
        return nil
      case .invalid(let error):
        withUnsafePointer(to: item) { countLine(of: $0) }
        return reject(error, item: item)
      }
    case .emptyBatch:
      statistics.read += 1
      statistics.batchLines += 1
      return nil
    default:
      return nil
    }
  }

  /// Handles an envelope not decoded ahead: routes it, or counts it as ignored.
  @inline(__always)
  private mutating func handle(
    _ envelope: Envelope, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if let routed = router.route(envelope) {
      return apply(routed, item: item, writer: &writer)
    }
    return handleUnrouted(envelope, item: item.pointee, writer: &writer)
  }

  /// Handles an envelope of a type no domain here defines: a bad line if its payload is, or
  /// under `--strict`; otherwise counted as ignored.
  @inline(never)
  private mutating func handleUnrouted(
    _ envelope: Envelope, item: ReplayItem, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    do {
      try envelope.checkPayload()
    } catch {
      return envelope.isPayloadEndAssumed
        ? handleAgain(item, writer: &writer)
        : reject(router.namingPayload(in: error, of: envelope), item: item)
    }
    if excludedRouter.route(envelope) != nil {
      statistics.otherDomain += 1
      return ignoring(
        item,
        "an event of the type '\(excludedRouter.typeName(of: envelope))', of a domain "
          + "left out by --domain")
    } else if configuration.isStrict {
      let type = router.typeName(of: envelope)
      let error = RaspEventError(
        offset: envelope.typeOffset, reason: .unknownType(type, nearest: nearestType(to: type)))
      return reject(error, item: item)
    } else {
      statistics.unknownType += 1
      if statistics.firstUnknown == nil {
        if let base = part?.ordinalBase, let index = part?.itemIndex {
          part?.firstUnknown = base + index
        }
        let type = router.typeName(of: envelope)
        statistics.firstUnknown = ReplayStatistics.UnknownType(
          type: type, inputName: inputNames[item.input], line: item.lineNumber,
          nearest: nearestType(to: type))
      }
      return ignoring(item, "an event of unknown type '\(router.typeName(of: envelope))'")
    }
  }

  /// The payload fields of each of `typeNames` (`domain.event`, by domain and event index), as
  /// the schemas of `domains` define them, and the field of the key (`--key-by
  /// payload.deviceId`), which every payload may have.
  private static func payloadFields(
    of typeNames: [[String]], in domains: [any RaspDomain], keyPath: JSONPath?
  ) -> PayloadFieldTable {
    var keyField: String?
    if let components = keyPath?.components, components.count > 1,
      case .key("payload") = components[0], case .key(let key) = components[1]
    {
      keyField = key
    }
    return PayloadFieldTable(
      typeNames.map { names in
        names.map { typeName -> PayloadFieldNames? in
          for domain in domains {
            for event in domain.events where "\(domain.name).\(event.name)" == typeName {
              let fields = event.fields.map(\.name)
              guard !fields.isEmpty, !event.acceptsOtherFields else { return nil }
              return PayloadFieldNames(fields + (keyField.map { [$0] } ?? []))
            }
          }
          return nil
        }
      })
  }

  /// The error for a payload field that the event's type does not define (`acuracy` in a
  /// `geo.location`), at its key, with the nearest field that it does; `nil` when every field
  /// is defined, or the type defines none. What else is wrong with the payload is the
  /// decoder's to report.
  ///
  /// Asked of every event: a quick look at the keys (``PayloadFieldNames/holdsAll(in:at:)``)
  /// finds them all fields, or the careful scan says which is not.
  @inline(__always)
  private func unknownPayloadField(of routed: SnapshotState.Event) -> RaspEventError? {
    guard let fields = payloadFields.fields(domain: routed.domainIndex, event: routed.eventIndex),
      let offset = routed.envelope.payloadOffset,
      !fields.holdsAll(in: routed.envelope.line, at: offset)
    else { return nil }
    return Self.unknownPayloadField(in: routed.envelope.line, at: offset, fields: fields)
  }

  @inline(never)
  private static func unknownPayloadField(
    in line: UnsafeBufferPointer<UInt8>, at offset: Int, fields: PayloadFieldNames
  ) -> RaspEventError? {
    var scanner = JSONScanner(line, position: offset)
    scanner.depth = 1
    do {
      var progress = try scanner.beginObject()
      while let key = try scanner.nextMember(&progress) {
        if key.hasEscapes
          || !fields.contains(UnsafeBufferPointer(rebasing: line[key.start..<key.end]))
        {
          let name = scanner.string(key)
          if !fields.names.contains(name) {
            let near = RaspSpelling.nearest(to: name, among: fields.names).map {
              "payload.\($0)"
            }
            return RaspEventError(
              offset: key.start - 1, reason: .unknownField("payload.\(name)", nearest: near))
          }
        }
        _ = try scanner.skipValue()
      }
    } catch {
      return nil
    }
    return nil
  }

  /// Whether the decoder of an event just applied skipped a field of its payload itself: its
  /// column says, for an event decoded ahead, and its domain's slot otherwise.
  @inline(__always)
  private func hasSkippedField(_ routed: SnapshotState.Event) -> Bool {
    if let column = routed.column {
      return column._withUnsafeGuaranteedRef { $0.hasSkippedField(at: routed.row) }
    }
    return stream.pipeline.current.hasSkippedField(domain: routed.domainIndex)
  }

  /// Notes a payload field that the event's type does not define, outside `--strict`: the
  /// event is counted (``ReplayStatistics/withUnknownField``), and the first event of each
  /// type and field is kept for its warning.
  @inline(never)
  private mutating func noteUnknownField(
    _ error: RaspEventError, of routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>
  ) {
    statistics.withUnknownField += 1
    guard case .unknownField(let field, let nearest) = error.reason else { return }
    let type = router.typeName(of: routed.envelope)
    guard statistics.unknownFields.count < ReplayStatistics.unknownFieldLimit,
      unknownFieldsNoted.insert(type + "\u{0}" + field).inserted
    else { return }
    let item = item.pointee
    var origin = EventOrigin()
    if item.originIndex >= 0, let batch = currentBatch?.takeUnretainedValue(),
      Int(item.originIndex) < batch.origins.count
    {
      origin = batch.origins[Int(item.originIndex)]
    }
    let offset = origin.lineOffset(of: error.offset ?? 0, in: item.bytes)
    statistics.unknownFields.append(
      ReplayStatistics.UnknownField(
        type: type, field: field, inputName: inputNames[item.input], line: item.lineNumber,
        column: JSONTextPosition(offset: offset, in: item.bytes).column, nearest: nearest))
    if let base = part?.ordinalBase, let index = part?.itemIndex {
      part?.unknownFieldOrdinals.append(base + index)
    }
  }

  /// The type of a known domain nearest to an unknown `type`, for its message.
  private func nearestType(to type: String) -> String? {
    RaspSpelling.nearestType(
      to: type, among: configuration.domains + configuration.excludedDomains)
  }

  /// ``ReplayOutcome/ignored(_:)`` for a line not applied, when the configuration asks for
  /// them (`reason` is only made then); `nil` otherwise.
  private func ignoring(_ item: ReplayItem, _ reason: @autoclosure () -> String) -> ReplayOutcome? {
    guard configuration.reportsIgnoredLines else { return nil }
    return .ignored(
      ReplayDiagnostic(
        input: item.input, inputName: inputNames[item.input], line: item.lineNumber, column: 1,
        reason: reason()))
  }

  /// Handles an item whose envelope assumed its payload's end, after something about it
  /// failed: the line read again carefully gives the event, or the error, to go on with.
  @inline(never)
  private mutating func handleAgain(_ item: ReplayItem, writer: inout JSONWriter) -> ReplayOutcome?
  {
    var problems: [ReplayProblem] = []
    let again = item.readAgainWithoutAssuming(problems: &problems)
    switch again.kind {
    case .event(let envelope):
      return withUnsafePointer(to: again) { handle(envelope, item: $0, writer: &writer) }
    case .problem(let index):
      guard case .invalid(let error) = problems[index] else { return nil }
      return reject(error, item: again)
    default: return nil
    }
  }

  /// Applies a routed event and writes the record it calls for.
  @inline(__always)
  private mutating func apply(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if filtersTypes, isDropped(routed) { return drop(routed, item: item, writer: &writer) }
    // A field its type does not define: a bad line under `--strict`; otherwise a warning,
    // looked for once applied, when the decoder skipped a field.
    if configuration.isStrict, let error = unknownPayloadField(of: routed) {
      return reject(error, item: item.pointee)
    }
    if isKeyed, case .handled(let outcome) = selectStream(for: routed, item: item, writer: &writer)
    {
      return outcome
    }
    do {
      try stream.pipeline.send(routed)
    } catch {
      isWithoutKey = false
      return handleFailure(error, of: routed, item: item.pointee, writer: &writer)
    }
    if isWithoutKey {
      isWithoutKey = false
      statistics.withoutKey += 1
    }
    stream.text.markChanged(routed.domainIndex)
    if looksAhead { stream.domains = stream.pipeline.current.domainsInMemory }
    statistics.applied += 1
    if !configuration.isStrict, hasSkippedField(routed),
      let unknownField = unknownPayloadField(of: routed)
    {
      noteUnknownField(unknownField, of: routed, item: item)
    }
    seq += 1
    stream.lastSeq = .known(seq)
    stream.lastInput = item.pointee.input
    stream.lastLine = item.pointee.lineNumber
    if isPart { noteApplied() }
    if keepsLastEvent {
      if isKeyed { keepLastEvent(of: item) } else { pendingLastEvent = item.pointee.eventBytes }
    }
    if isObserved { notifyObserver(routed, item: item) }
    if isPlain {
      let start = writer.bytes.count
      stream.text.write(stream.pipeline.current, to: &writer)
      records += 1
      return .record(
        ReplayRecord(
          range: start..<writer.bytes.count, seq: seq, input: stream.lastInput,
          line: stream.lastLine))
    }
    return record(routed, item: item, writer: &writer)
  }

  /// Whether `--drop` matches the routed event's type.
  @inline(never)
  private func isDropped(_ routed: SnapshotState.Event) -> Bool {
    typeFilter?.action(domain: routed.domainIndex, event: routed.eventIndex) == .drop
  }

  /// Whether `--hide` matches the routed event's type.
  @inline(never)
  private func isHidden(_ routed: SnapshotState.Event) -> Bool {
    typeFilter?.action(domain: routed.domainIndex, event: routed.eventIndex) == .hide
  }

  /// Counts an event `--drop` matches, not applied and not decoded: a bad line if its payload
  /// is not JSON, as for an event of a domain left out.
  @inline(never)
  private mutating func drop(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    let envelope = routed.envelope
    do {
      try envelope.checkPayload()
    } catch {
      return envelope.isPayloadEndAssumed
        ? handleAgain(item.pointee, writer: &writer)
        : reject(router.namingPayload(in: error, of: envelope), item: item.pointee)
    }
    statistics.droppedByOption += 1
    return ignoring(
      item.pointee, "an event of the type '\(router.typeName(of: envelope))', dropped by --drop")
  }

  /// Notes the event just applied for the merge: its position, and its stream's last event's
  /// number as not yet known (``ReplayStream/EventNumber/State/pending(item:)``:
  /// ``writeEventMembers(_:key:to:)`` leaves its place).
  @inline(never)
  private mutating func noteApplied() {
    guard let itemIndex = part?.itemIndex else { return }
    part?.applied.append(Int32(truncatingIfNeeded: itemIndex))
    stream.lastSeq = .pending(item: itemIndex)
    if configuration.isFinal, isKeyed {
      part?.touched.append(
        (Int32(truncatingIfNeeded: currentKey), Int32(truncatingIfNeeded: itemIndex)))
    }
  }

  /// Gives the streams whose last event was in the last list its number in the replay, once
  /// the pool has merged the list: `seqAfter[i]` is the number of events applied up to and
  /// including the list's item `i`.
  mutating func numberEvents(after seqAfter: [Int]) {
    guard isKeyed, let touched = part?.touched, !touched.isEmpty else { return }
    for (number, item) in touched {
      streams.pointer(to: Int(number) + 1).pointee.lastSeq = .known(seqAfter[Int(item)])
    }
    part?.touched.removeAll(keepingCapacity: true)
  }

  /// Goes back to the counts before the first of this kernel's items after `item`: the replay
  /// ended at `item`, a bad line of another kernel's.
  mutating func cutStatistics(after item: Int) {
    guard let first = part?.countsBefore.first(where: { Int($0.item) > item }) else { return }
    statistics = first.statistics
    part?.firstUnknown = first.firstUnknown
    if let ordinals = part?.unknownFieldOrdinals {
      part?.unknownFieldOrdinals = Array(ordinals.prefix(statistics.unknownFields.count))
    }
  }

  // MARK: Looking ahead

  /// The keys of the next items, sought ahead, and their numbers once found (-1 for none),
  /// by position modulo 16, with the line each is of.
  private var aheadSought = [ReplayKeys.Sought?](repeating: nil, count: 16)
  private var aheadNumbers = [Int](repeating: -1, count: 16)
  private var aheadLines = [UnsafePointer<UInt8>?](repeating: nil, count: 16)
  /// The position of the item being handled, for the number found ahead.
  private var position = 0

  /// Whether the kernel looks ahead at the next items' keys: in a keyed replay.
  var looksAhead: Bool { isKeyed }

  /// Looks at the items ahead of the one at `index` of `count`, a step further for each item
  /// nearer its turn: its key, then its key's number and stream, then its domains. Waiting
  /// for a key's state to arrive from memory takes longer than applying its event.
  ///
  /// - Parameters:
  ///   - index: The position of the item about to be handled.
  ///   - items: The items, or their addresses.
  ///   - batch: The batch the items are in, whose keys the reading thread may have read
  ///     (``KeyHints``).
  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: UnsafeBufferPointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>
  ) {
    guard let first = items.baseAddress else { return }
    if index + 12 < items.count {
      let item = first + index + 12
      seekAhead(item, position: index + 12, hint: Self.keyHint(of: item, in: batch))
    }
    lookAhead(from: index, count: items.count, twoAhead: first + min(index + 2, items.count - 1))
  }

  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: [UnsafePointer<ReplayItem>], batches: [Unmanaged<ReplayBatch>]
  ) {
    if index + 12 < items.count {
      let item = items[index + 12]
      seekAhead(item, position: index + 12, hint: Self.keyHint(of: item, in: batches[index + 12]))
    }
    lookAhead(from: index, count: items.count, twoAhead: items[min(index + 2, items.count - 1)])
  }

  /// The key the reading thread read for `item` of `batch`: `.some(nil)` for an item whose
  /// key is found in its turn, and `nil` when the reading thread read no keys.
  @inline(__always)
  private static func keyHint(
    of item: UnsafePointer<ReplayItem>, in batch: Unmanaged<ReplayBatch>
  ) -> ReplayKeys.Sought?? {
    batch._withUnsafeGuaranteedRef { batch in
      guard !batch.keyHints.isEmpty, let base = batch.items.baseAddress else { return nil }
      let index = item - base
      guard index >= 0, index < batch.keyHints.count else { return nil }
      return .some(batch.keyHints[index])
    }
  }

  /// The steps after the first.
  @inline(__always)
  private mutating func lookAhead(
    from index: Int, count: Int, twoAhead: UnsafePointer<ReplayItem>
  ) {
    if index + 8 < count { findAhead(position: index + 8) }
    if index + 4 < count { prefetchDomains(position: index + 4) }
    if index + 2 < count { prefetchDomain(of: twoAhead, position: index + 2) }
    position = index
  }

  /// The first look at an item several ahead: reads its key, unless the reading thread did
  /// (`hint`), and asks for its place in the table of keys early.
  @inline(never)
  private mutating func seekAhead(
    _ item: UnsafePointer<ReplayItem>, position: Int, hint: ReplayKeys.Sought??
  ) {
    var sought: ReplayKeys.Sought?
    var line: UnsafePointer<UInt8>?
    switch item.pointee.kind {
    case .decoded(let envelope, _, _, _), .event(let envelope):
      // Another kernel's event, in a pool, is left alone.
      if let own = part?.index, own != Int(item.pointee.share) { break }
      if let hint {
        sought = hint
      } else {
        let typeName = keys?.root == .type ? router.typeName(of: envelope) : ""
        sought = keys?.sought(of: envelope, typeName: typeName)
      }
      if let sought { keys?.prefetchSlot(of: sought) }
      line = envelope.line.baseAddress
    default:
      break
    }
    aheadSought[position & 15] = sought
    aheadLines[position & 15] = line
    aheadNumbers[position & 15] = -1
  }

  /// The second look: the key's place in the table has arrived; finds its number, if the key
  /// was seen before, and asks for its stream early.
  @inline(never)
  private mutating func findAhead(position: Int) {
    guard let sought = aheadSought[position & 15],
      let number = keys?.number(of: sought), number + 1 < streams.count
    else { return }
    aheadNumbers[position & 15] = number
    streams.prefetch(number + 1)
    keys?.prefetchPlace(of: number)
  }

  /// Asks for what the `--final` records of the keys a few places after `position` in `order`
  /// will read (``FinalRuns/prefetch(after:in:streams:keys:)``).
  func prefetchFinalRecords(after position: Int, in order: [Int]) {
    guard isKeyed, looksAhead, let keys else { return }
    order.withUnsafeBufferPointer {
      FinalRuns.prefetch(after: position, in: $0, streams: streams, keys: keys)
    }
  }

  /// The number of the key of the item being handled, when it was found ahead.
  private func numberFoundAhead(for envelope: Envelope) -> Int? {
    let number = aheadNumbers[position & 15]
    guard number >= 0, aheadLines[position & 15] == envelope.line.baseAddress else { return nil }
    return number
  }

  /// The third look: the item's stream has arrived; asks for its list of domains.
  @inline(never)
  private mutating func prefetchDomains(position: Int) {
    let number = aheadNumbers[position & 15]
    guard number >= 0, number + 1 < streams.count else { return }
    streams.prefetchDomainList(ofStream: number + 1)
    keys?.prefetchBytes(of: number)
    // The snapshot's text, when each event prints it: its places, then its bytes, a line at
    // a time, each array's header first: the text is changed in place, which reads it first.
    let text = streams.pointer(to: number + 1).pointee.textInMemory
    guard let bytes = text.bytes else { return }
    if let ranges = text.ranges {
      rasp_prefetch(ranges - ReplayStreams.arrayHeaderSize)
      rasp_prefetch(ranges)
    }
    rasp_prefetch(bytes - ReplayStreams.arrayHeaderSize)
    for offset in stride(from: 0, to: min(text.count, 1_024), by: 64) {
      rasp_prefetch(bytes + offset)
    }
  }

  /// The last look, just before the item: asks for the state of its event's domain.
  @inline(never)
  private mutating func prefetchDomain(of item: UnsafePointer<ReplayItem>, position: Int) {
    let number = aheadNumbers[position & 15]
    guard number >= 0, number + 1 < streams.count,
      case .decoded(_, let index, _, _) = item.pointee.kind
    else { return }
    streams.prefetchDomain(at: index, ofStream: number + 1)
  }

  /// Makes the stream of the key numbered `number` the current one, a new key's made from
  /// ``initialStream``.
  @inline(__always)
  mutating func switchToKey(_ number: Int) {
    guard number != currentKey else { return }
    while streams.count <= number + 1 { _ = streams.append(initialStream) }
    streamPointer = streams.pointer(to: number + 1)
    currentKey = number
  }

  /// What choosing an event's stream came to.
  private enum StreamChoice {
    /// The stream of the event's key is the current one: apply the event.
    case selected
    /// The line was handled otherwise — a bad line, or read again — with this outcome.
    case handled(ReplayOutcome?)
  }

  /// Makes the stream of the key of `envelope`'s event the current one; a bad line under
  /// `--strict` when the event has no key.
  @inline(never)
  private mutating func selectStream(
    for routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> StreamChoice {
    let envelope = routed.envelope
    // The keys are changed in place: taken out or copied, they would be copied whole (every
    // key's stream, when copied) for every event.
    if looksAhead, let known = numberFoundAhead(for: envelope) {
      switchToKey(known)
      return .selected
    }
    let typeName = keys?.root == .type ? router.typeName(of: envelope) : ""
    let number: Int?
    switch (keys?.number(of: envelope, typeName: typeName), envelope.isPayloadEndAssumed) {
    case (.number(let found)?, _):
      number = found
    case (.missing?, true), (.invalid?, true):
      // The envelope's members after a payload whose end was assumed were not read (a
      // `source` that is not a string, after the payload): the line read again carefully
      // has its key, or is a bad line for what is wrong with it.
      return .handled(handleAgain(item.pointee, writer: &writer))
    case (.missing?, false):
      if configuration.isStrict, let path = keys?.path {
        // Pointed at the payload for a path into it, as a domain's missing field is.
        let offset = keys?.root == .payload ? envelope.payloadOffset : nil
        let error = RaspEventError(offset: offset, reason: .missingField(path.description))
        return .handled(reject(error, item: item.pointee))
      }
      isWithoutKey = true
      number = keys?.nullKeyNumber()
    case (.invalid(let error)?, false):
      return .handled(reject(error, item: item.pointee))
    case (nil, _):
      number = nil
    }
    if let number {
      switchToKey(number)
      statistics.keys = keys?.count ?? 0
    }
    return .selected
  }

  /// Handles an event that its domain did not apply (the snapshot is unchanged): read again if
  /// its payload's end was assumed, a bad line otherwise.
  @inline(never)
  private mutating func handleFailure(
    _ error: any Error, of routed: SnapshotState.Event, item: ReplayItem,
    writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if routed.envelope.isPayloadEndAssumed { return handleAgain(item, writer: &writer) }
    let eventError =
      error as? RaspEventError ?? RaspEventError(offset: nil, reason: .rejected("\(error)"))
    // In a keyed replay, the state that refused the event is its key's: the message says which.
    return reject(
      router.namingPayload(in: eventError, of: routed.envelope), item: item,
      key: isKeyed ? keys?.key(currentKey) : nil)
  }

  /// Whether each stream keeps its last event's line, for a checkpoint: a replay resumed
  /// from it with `--final --with-event` or `--at` prints it.
  private let keepsLastEvent: Bool

  /// The line of the last event applied, where it is in its batch, not copied yet: in a replay
  /// without keys, it is copied only when its batch is let go (``settleLastEvent()``), not
  /// after every event.
  private var pendingLastEvent: UnsafeBufferPointer<UInt8>?

  /// Copies the last event's line into its stream, before its batch is let go or a checkpoint
  /// is made.
  mutating func settleLastEvent() {
    guard let line = pendingLastEvent else { return }
    pendingLastEvent = nil
    stream.lastEventBytes.removeAll(keepingCapacity: true)
    stream.lastEventBytes.append(contentsOf: line)
  }

  /// Keeps the line of the event just applied as its stream's last.
  @inline(never)
  private mutating func keepLastEvent(of item: UnsafePointer<ReplayItem>) {
    stream.lastEventBytes.removeAll(keepingCapacity: true)
    stream.lastEventBytes.append(contentsOf: item.pointee.eventBytes)
  }

  /// Whether each event's record is the whole snapshot, alone: the common case.
  private let isPlain: Bool
  /// Whether a ``ReplayStateObserver`` sees every applied event.
  private let isObserved: Bool

  /// Shows the event just applied, and the state after it, to the configuration's observer.
  @inline(never)
  private mutating func notifyObserver(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>
  ) {
    guard let observer = configuration.stateObserver else { return }
    let event = ReplayAppliedEvent(
      seq: seq, input: item.pointee.input, line: item.pointee.lineNumber,
      keyNumber: isKeyed ? currentKey : -1, key: isKeyed ? keys?.key(currentKey) : nil,
      domainIndex: routed.domainIndex, state: stream.pipeline.current,
      isBeforeSince: isBeforeSince)
    observer.observe(event) { eventAsRead(routed.envelope) }
    if observer.isFinished, ending == nil { ending = .completed }
  }

  /// The record an applied event calls for, when it is not the plain snapshot: none until the
  /// end with `--final`, a selected value when it changed, a diff, or a record with the event.
  @inline(never)
  private mutating func record(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if configuration.isFinal {
      // Hidden or not, the event's line is not printed: the final state is.
      if isBeforeSince {
        statistics.beforeSince += 1
      } else if hidesTypes, isHidden(routed) {
        statistics.hidden += 1
      }
      if configuration.includesEvent || selectsEvent {
        stream.lastEventBytes.removeAll(keepingCapacity: true)
        stream.lastEventBytes.append(contentsOf: item.pointee.eventBytes)
      }
      return nil
    }
    if isBeforeSince {
      // As a hidden event: the first record written holds the state after it.
      statistics.beforeSince += 1
      stream.hasSelected = false
      return nil
    }
    if hidesTypes, isHidden(routed) {
      // No record; the next one written holds the state after it: a selection is compared
      // with the last value written, whatever domain the next event is of, and a diff is from
      // the last record written.
      statistics.hidden += 1
      stream.hasSelected = false
      return nil
    }
    if let path = configuration.selection {
      // Only an event of the selected domain can change the value, once there is one.
      guard
        selectedDomain == nil || routed.domainIndex == selectedDomain || !stream.hasSelected
      else { return nil }
      let bytes =
        selectsEvent
        ? Self.eventValue(path, of: item.pointee.eventBytes)
        : Self.selectedBytes(
          path, domain: selectedDomain, text: &stream.text, stream.pipeline.current,
          spare: &writer)
      stream.hasSelected = true
      // A selection with `[]` of an empty array is no value: it changes, and prints nothing.
      guard let value = stream.selector?.select(from: bytes), !value.isEmpty else { return nil }
      return writeRecord(value: value, routed, item: item, writer: &writer)
    }
    return writeRecord(value: nil, routed, item: item, writer: &writer)
  }

  /// Writes the record of `routed`, with its event as the log wrote it, or as rasp read it
  /// (``ReplayConfiguration/includesEventAsRead``).
  private mutating func writeRecord(
    value: [UInt8]?, _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>,
    writer: inout JSONWriter
  ) -> ReplayOutcome? {
    guard configuration.includesEventAsRead else {
      return writeRecord(value: value, event: item.pointee.eventBytes, writer: &writer)
    }
    let event = eventAsRead(routed.envelope)
    return event.withUnsafeBufferPointer { writeRecord(value: value, event: $0, writer: &writer) }
  }

  /// The event as rasp read it, written in rasp's own format whatever the log's:
  /// `{"payload":…,"ts":…,"type":"domain.event"}`, without `ts` when it has no time and
  /// without `payload` when it has none (``ReplayConfiguration/includesEventAsRead``).
  private func eventAsRead(_ envelope: Envelope) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{")
    if let start = envelope.payloadOffset {
      var scanner = JSONScanner(envelope.line, position: start)
      if (try? scanner.skipValue()) != nil {
        writer.writeRaw("\"payload\":")
        writer.writeRaw(UnsafeBufferPointer(rebasing: envelope.line[start..<scanner.position]))
        writer.writeRaw(",")
      }
    }
    if let time = envelope.context.timestamp {
      writer.writeRaw("\"ts\":")
      writer.writeString(time.description)
      writer.writeRaw(",")
    }
    writer.writeRaw("\"type\":")
    writer.writeString(router.typeName(of: envelope))
    writer.writeRaw("}")
    return writer.bytes
  }

  /// Counts and reports a bad line; with `fail`, the replay ends after it.
  @inline(never)
  private mutating func reject(
    _ error: RaspEventError, item: ReplayItem, key: ArraySlice<UInt8>? = nil
  ) -> ReplayOutcome {
    // A line with text before its event (a map's `skipTo`) is JSON from there on.
    var checked = item.bytes
    if let skipTo = configuration.format.skipTo, let start = checked.firstIndex(of: skipTo) {
      checked = UnsafeBufferPointer(rebasing: checked[start...])
    }
    var error = Self.firstSyntaxError(in: checked, instead: error) ?? error
    // The bad line is not applied in either mode: it counts as skipped, so that the summary
    // still adds up when it stops the replay.
    statistics.skipped += 1
    if configuration.errorMode == .fail { ending = .stoppedAtBadLine }
    var origin = EventOrigin()
    if item.originIndex >= 0, let batch = currentBatch?.takeUnretainedValue(),
      Int(item.originIndex) < batch.origins.count
    {
      origin = batch.origins[Int(item.originIndex)]
    }
    var offset = origin.lineOffset(of: error.offset ?? 0, in: item.bytes)
    if let named = namingMovedField(in: error, origin: origin, line: item.bytes) {
      error = named.error
      offset = named.lineOffset ?? offset
    }
    let column = JSONTextPosition(offset: offset, in: item.bytes).column
    var reason = error.description
    if origin.isMember, let path = configuration.format.events {
      reason = "at \(path.member(origin.indices)): " + reason
    } else if origin.isMember, !configuration.format.emits.isEmpty {
      reason = "at emit[\(origin.indices.0)]: " + reason
    }
    if let key {
      // The key as it prints in a record's "key", cut short when long.
      let text = String(decoding: key, as: UTF8.self)
      reason += " (key \(text.count > 60 ? text.prefix(57) + "..." : text))"
    }
    return .skipped(
      ReplayDiagnostic(
        input: item.input, inputName: inputNames[item.input], line: item.lineNumber,
        column: column, reason: reason))
  }

  /// An error in a payload whose fields the map moved (`fields`), naming the field as the
  /// line names it, at its place in the line; `nil` for a format that moves none.
  private func namingMovedField(
    in error: RaspEventError, origin: EventOrigin, line: UnsafeBufferPointer<UInt8>
  ) -> (error: RaspEventError, lineOffset: Int?)? {
    let format = configuration.format
    let emit = format.emits.isEmpty ? nil : Int(origin.indices.0)
    let moving =
      emit.flatMap { format.emits.indices.contains($0) ? format.emits[$0] : nil }
      ?? format.effective
    guard let moves = moving.fieldMoves else { return nil }
    let payload = moving.payload.first?.description ?? "payload"
    return moves.naming(error, payload: payload, at: origin.movedPayload, in: line)
  }

  /// The first place where a bad line is not valid JSON, found by the strict parser, when it
  /// is not where `reported` is; `nil` when the line is valid JSON, too long to read, or wrong
  /// where `reported` says (whose reason, naming the field, says more).
  ///
  /// A line that is not JSON is reported at its first syntax error, as a JSON parser reports
  /// it (jq, Python's `json`), whatever else is wrong with it. The fast readers of the replay's
  /// path stop at the first thing they cannot use, which may come before a syntax error later
  /// in the line (a payload that is a string, in `"payload":"a":1}`), or read past a closing
  /// bracket they were not looking for (`{]` where a key belongs). Only bad lines are read
  /// again, so the good ones pay nothing for it.
  @inline(never)
  private static func firstSyntaxError(
    in line: UnsafeBufferPointer<UInt8>, instead reported: RaspEventError
  ) -> RaspEventError? {
    if case .syntax(.lineTooLong) = reported.reason { return nil }
    do {
      _ = try JSONParser.parse(line)
      return nil
    } catch {
      guard error.offset != reported.offset else { return nil }
      return RaspEventError(offset: error.offset, reason: .syntax(error.reason))
    }
  }

  /// Ends the replay after its inputs: interrupted when `interruption` was requested,
  /// completed otherwise.
  mutating func end(interruption: ReplayInterruption?) {
    guard ending == nil else { return }
    ending = interruption?.signal.map { .interrupted(signal: $0) } ?? .completed
  }

  /// Writes the next record for the end of a `--final` replay: the last snapshot or selected
  /// value, of each key in key order in a keyed replay; `nil` when there is no more (or none:
  /// a diff with ``ReplayConfiguration/changesOnly`` that is empty).
  mutating func nextFinalRecord(writer: inout JSONWriter) -> ReplayOutcome? {
    if finalOrder == nil {
      finalOrder = finalKeyOrder()
      // Plain snapshots of a keyed replay on one kernel (a pool's kernels write their own),
      // of domains that two threads may encode at once.
      writesFinalRuns =
        isKeyed && part == nil && configuration.selection == nil
        && !configuration.includesEvent && configuration.emit == .snapshot
        && initialStream.pipeline.current.encodesConcurrently
      if writesFinalRuns {
        // Every key gets its stream; the block may move, and the current stream with it.
        while streams.count <= (keys?.count ?? 0) { _ = streams.append(initialStream) }
        streamPointer = streams.pointer(to: currentKey + 1)
      }
    }
    if writesFinalRuns { return nextFinalRunRecord(writer: &writer) }
    while let order = finalOrder, finalPosition < order.count {
      prefetchFinalRecords(after: finalPosition, in: order)
      let number = order[finalPosition]
      finalPosition += 1
      if let record = writeFinalRecord(ofKey: number, writer: &writer) { return record }
    }
    return nil
  }

  /// The next plain `--final` record of a keyed replay on one kernel, from the run written
  /// last; the next run is written when it is all handed out (``FinalRuns``).
  private mutating func nextFinalRunRecord(writer: inout JSONWriter) -> ReplayOutcome? {
    while true {
      if let record = finalRuns.next(appendingTo: &writer) {
        records += 1
        return .record(record)
      }
      guard let order = finalOrder, finalPosition < order.count, let keys else { return nil }
      let end = min(finalPosition + FinalRuns.runLength, order.count)
      let start = finalPosition
      order.withUnsafeBufferPointer { order in
        finalRuns.write(
          UnsafeBufferPointer(rebasing: order[start..<end]), streams: streams, keys: keys)
      }
      finalPosition = end
    }
  }

  /// Lets go of every key's stream, freed on another thread
  /// (``ReplayStreams/releaseAllButFirst()``): the replay has written its last record.
  mutating func releaseKeys() {
    guard isKeyed else { return }
    streams.releaseAllButFirst()
    streamPointer = streams.pointer(to: 0)
    currentKey = -1
    finalRuns = FinalRuns()
  }

  /// The keys' numbers in the order `--final` prints them; `[-1]` in a replay without keys.
  func finalKeyOrder() -> [Int] {
    keys?.numbersInKeyOrder() ?? [-1]
  }

  /// The canonical JSON of the key numbered `number`.
  func keyBytes(_ number: Int) -> [UInt8] {
    guard let key = keys?.key(number) else { return [] }
    return Array(key)
  }

  /// Writes the `--final` record of the key numbered `number` (-1 without keys).
  ///
  /// A key's snapshot is encoded for its record and not kept: kept for each of 100,000 keys,
  /// the text would double the memory of their states.
  mutating func writeFinalRecord(ofKey number: Int, writer: inout JSONWriter) -> ReplayOutcome? {
    if number >= 0 { switchToKey(number) }
    isWritingKeyFinal = isKeyed && stream.differ == nil
    defer { isWritingKeyFinal = false }
    var value: [UInt8]?
    if let path = configuration.selection {
      if selectsEvent {
        value = stream.lastEventBytes.withUnsafeBufferPointer { Self.eventValue(path, of: $0) }
      } else if isWritingKeyFinal {
        var once = SnapshotText()
        value = Self.selectedBytes(
          path, domain: selectedDomain, text: &once, stream.pipeline.current, spare: &writer)
      } else {
        value = Self.selectedBytes(
          path, domain: selectedDomain, text: &stream.text, stream.pipeline.current,
          spare: &writer)
      }
    }
    // No value at all (`[]` of an empty array): no record.
    if value?.isEmpty == true { return nil }
    let event = stream.lastEventBytes
    return event.withUnsafeBufferPointer { event in
      writeRecord(value: value, event: stream.lastInput == nil ? nil : event, writer: &writer)
    }
  }

  /// Writes one record — `value` (a selected value), or the snapshot when it is `nil` — as the
  /// configuration asks: whole or as a diff, alone or with the event.
  private mutating func writeRecord(
    value: [UInt8]?, event: UnsafeBufferPointer<UInt8>?, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    let start = writer.bytes.count
    // Not `keys.map`, which would copy the keys, arrays and all, for every record.
    let key = isKeyed ? keys?.key(currentKey) : nil
    if stream.differ != nil {
      let operations: [JSONValue]
      if let value {
        operations = stream.differ?.advance(value: value) ?? []
      } else {
        let snapshot = stream.pipeline.current
        let domains = snapshot.domainNames.indices.map {
          stream.text.domain(at: $0, of: snapshot, spare: &writer)
        }
        operations = stream.differ?.advance(domains: domains) ?? []
      }
      if configuration.changesOnly, operations.isEmpty { return nil }
      if configuration.includesEvent || key != nil {
        writer.writeRaw("{\"diff\":")
        writer.write(.array(operations))
        if configuration.includesEvent {
          writer.writeRaw(",")
          writeEventMembers(event, key: key, to: &writer)
        } else if let key {
          writer.writeRaw(",\"key\":")
          writer.writeRaw(key)
        }
        writer.writeRaw("}")
      } else {
        writer.write(.array(operations))
      }
    } else if configuration.includesEvent || key != nil {
      writer.writeRaw("{")
      if configuration.includesEvent {
        writeEventMembers(event, key: key, to: &writer)
        writer.writeRaw(",")
      } else if let key {
        writer.writeRaw("\"key\":")
        writer.writeRaw(key)
        writer.writeRaw(",")
      }
      writer.writeRaw(value == nil ? "\"state\":" : "\"value\":")
      writeValue(value, to: &writer)
      writer.writeRaw("}")
    } else {
      writeValue(value, to: &writer)
    }
    records += 1
    return .record(
      ReplayRecord(
        range: start..<writer.bytes.count, seq: stream.lastSeq.recordValue, input: stream.lastInput,
        line: stream.lastLine))
  }

  /// Writes a selected value, or the whole snapshot when it is `nil`.
  @inline(__always)
  private mutating func writeValue(_ value: [UInt8]?, to writer: inout JSONWriter) {
    if let value {
      writer.writeRaw(value)
    } else if isWritingKeyFinal {
      stream.text.writeOnce(stream.pipeline.current, to: &writer)
    } else {
      stream.text.write(stream.pipeline.current, to: &writer)
      if looksAhead { stream.textInMemory = stream.text.inMemory }
    }
  }

  /// Writes `"event":…,"file":…,"key":…,"line":…,"seq":…`, the members a record with its event
  /// has besides its value (`key` in a keyed replay), in key order.
  private mutating func writeEventMembers(
    _ event: UnsafeBufferPointer<UInt8>?, key: ArraySlice<UInt8>?, to writer: inout JSONWriter
  ) {
    writer.writeRaw("\"event\":")
    writer.write(event.flatMap { try? JSONParser.parse($0) } ?? .null)
    writer.writeRaw(",\"file\":")
    if let input = stream.lastInput {
      writer.writeString(inputNames[input])
    } else {
      writer.writeNull()
    }
    if let key {
      writer.writeRaw(",\"key\":")
      writer.writeRaw(key)
    }
    writer.writeRaw(",\"line\":")
    if let line = stream.lastLine { writer.writeInteger(Int64(line)) } else { writer.writeNull() }
    writer.writeRaw(",\"seq\":")
    switch stream.lastSeq.state {
    case .known(let number):
      writer.writeInteger(Int64(number))
    case .pending:
      // Not known yet, in a kernel with a share of the keys: the pool writes it here.
      part?.seqOffset = writer.bytes.count
    }
  }

  /// The canonical JSON of the value at `path` — after its first key, `event` — in an event's
  /// line as written; `null` when the line has none there. A path with filters (`nav.stack[]`)
  /// gives its values one per line.
  static func eventValue(_ path: JSONPath, of event: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    guard path.isLocatable else {
      return (try? path.selectedLines(in: event, droppingFirst: 1)) ?? Array("null".utf8)
    }
    switch try? path.locate(in: event, droppingFirst: 1) {
    case .value(let range)?:
      guard let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: event[range])) else {
        return Array(event[range])
      }
      var writer = JSONWriter()
      writer.write(value)
      return writer.bytes
    case .length(let count)?: return Array(String(count).utf8)
    case .missing?, nil: return Array("null".utf8)
    }
  }

  /// The canonical JSON of what `path` selects in the snapshot: a value, a length, or `null`;
  /// with filters (`nav.stack[]`), its values one per line.
  ///
  /// `spare` lends the room a changed domain is encoded in, and is left as it was.
  static func selectedBytes(
    _ path: JSONPath, domain: Int?, text: inout SnapshotText, _ state: SnapshotState,
    spare: inout JSONWriter
  ) -> [UInt8] {
    let part: ArraySlice<UInt8>
    if let domain {
      part = text.domain(at: domain, of: state, spare: &spare)
    } else {
      var writer = JSONWriter()
      text.write(state, to: &writer)
      part = writer.bytes[...]
    }
    guard path.isLocatable else {
      return part.withUnsafeBufferPointer { buffer in
        (try? path.selectedLines(in: buffer, droppingFirst: domain == nil ? 0 : 1))
          ?? Array("null".utf8)
      }
    }
    let location = part.withUnsafeBufferPointer { buffer in
      try? path.locate(in: buffer, droppingFirst: domain == nil ? 0 : 1)
    }
    switch location {
    case .value(let range)?:
      return Array(
        part[(part.startIndex + range.lowerBound)..<(part.startIndex + range.upperBound)])
    case .length(let count)?: return Array(String(count).utf8)
    case .missing?, nil: return Array("null".utf8)
    }
  }
}

/// The payload fields of each routed type, by domain and event index, looked up for every
/// event: one flat list, without a copy of a list per lookup.
struct PayloadFieldTable {
  /// The fields of each type, domain after domain; `nil` for a type whose payload is not
  /// checked.
  private let fields: [PayloadFieldNames?]
  /// Where each domain's types start in ``fields``, and how many it has.
  private let starts: [Int]
  private let counts: [Int]

  init(_ byDomain: [[PayloadFieldNames?]]) {
    fields = byDomain.flatMap { $0 }
    counts = byDomain.map(\.count)
    var starts: [Int] = []
    var start = 0
    for count in counts {
      starts.append(start)
      start += count
    }
    self.starts = starts
  }

  /// The fields of a type, or `nil` when its payload is not checked.
  @inline(__always)
  func fields(domain: Int, event: Int) -> PayloadFieldNames? {
    guard domain >= 0, domain < starts.count, event >= 0, event < counts[domain] else {
      return nil
    }
    return fields[starts[domain] + event]
  }
}

/// The payload fields of an event type, as strings for messages and as bytes for the check of
/// every event's keys. Immutable once made: its bytes are shared by the kernels of a pool.
final class PayloadFieldNames: @unchecked Sendable {
  /// The fields' names.
  let names: [String]
  /// The names' UTF-8 bytes, one after the other, and where each ends.
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let ends: UnsafeMutableBufferPointer<Int>

  init(_ names: [String]) {
    self.names = names
    let all = names.flatMap { Array($0.utf8) }
    bytes = .allocate(capacity: max(all.count, 1))
    _ = bytes.initialize(from: all)
    ends = .allocate(capacity: max(names.count, 1))
    var end = 0
    for (index, name) in names.enumerated() {
      end += name.utf8.count
      ends[index] = end
    }
  }

  deinit {
    bytes.deallocate()
    ends.deallocate()
  }

  /// Whether a key, as the bytes between its quotes (without escapes), is one of the fields.
  @inline(__always)
  func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    for index in 0..<names.count {
      let end = ends[index]
      if end - start == key.count {
        var offset = 0
        while offset < key.count, bytes[start + offset] == key[offset] { offset += 1 }
        if offset == key.count { return true }
      }
      start = end
    }
    return false
  }

  /// Whether every key of the object at `offset` in `line` is one of the fields, at a quick
  /// look: keys compared as bytes, values passed over by their quotes and brackets without
  /// being checked (the domain's decoder checks them). `false` when a key is not a field, and
  /// also when the object is not as expected (a key with escapes, a line cut short): the
  /// careful scan then decides.
  ///
  /// - Complexity: O(*n*) in the object's length; no allocation.
  func holdsAll(in line: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
    let count = line.count
    var index = offset
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    @inline(__always) func skipSpace() {
      while index < count, line[index] <= 0x20,
        line[index] == 0x20 || line[index] == 0x0A || line[index] == 0x0D || line[index] == 0x09
      {
        index &+= 1
      }
    }
    guard index < count, line[index] == UInt8(ascii: "{") else { return false }
    index &+= 1
    skipSpace()
    if index < count, line[index] == UInt8(ascii: "}") { return true }
    while true {
      // A key.
      guard index < count, line[index] == quote else { return false }
      let start = index &+ 1
      var end = start
      while end < count, line[end] != quote {
        if line[end] == backslash { return false }
        end &+= 1
      }
      guard end < count, contains(UnsafeBufferPointer(rebasing: line[start..<end])) else {
        return false
      }
      index = end &+ 1
      skipSpace()
      guard index < count, line[index] == UInt8(ascii: ":") else { return false }
      index &+= 1
      skipSpace()
      guard index < count else { return false }
      // Its value, up to the ',' or '}' after it.
      let first = line[index]
      if first == quote {
        index &+= 1
        while index < count, line[index] != quote {
          index &+= line[index] == backslash ? 2 : 1
        }
        index &+= 1
      } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        var depth = 0
        while index < count {
          let byte = line[index]
          if byte == quote {
            index &+= 1
            while index < count, line[index] != quote {
              index &+= line[index] == backslash ? 2 : 1
            }
          } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
            depth &+= 1
          } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
            depth &-= 1
            if depth == 0 { break }
          }
          index &+= 1
        }
        index &+= 1
      } else {
        // A number, true, false or null: letters, digits and signs.
        while index < count, line[index] != UInt8(ascii: ","), line[index] != UInt8(ascii: "}"),
          line[index] > 0x20
        {
          index &+= 1
        }
      }
      skipSpace()
      guard index < count else { return false }
      if line[index] != UInt8(ascii: ",") { return line[index] == UInt8(ascii: "}") }
      index &+= 1
      skipSpace()
    }
  }

}
