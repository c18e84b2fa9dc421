import Rasp
import RaspDomains
import RaspJSON

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
  /// The check of payload fields against those each type defines (``PayloadFieldCheck``).
  private let payloadFields: PayloadFieldCheck
  /// The messages of bad lines.
  private let badLines: BadLineReport
  /// The writer of records other than the plain snapshot.
  private let recordWriter: RecordWriter
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
    payloadFields = PayloadFieldCheck(configuration, typeNames: router.typeNames)
    badLines = BadLineReport(format: configuration.format, inputNames: inputNames)
    recordWriter = RecordWriter(
      includesEvent: configuration.includesEvent, changesOnly: configuration.changesOnly,
      inputNames: inputNames)
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
            : SelectedValue.inSnapshot(
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
    let offset = origin(of: item).lineOffset(of: error.offset ?? 0, in: item.bytes)
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
    if configuration.isStrict, let error = payloadFields.unknownField(of: routed) {
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
      let unknownField = payloadFields.unknownField(of: routed)
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

  /// The look at the next items' keys, in a keyed replay (``KeyLookAhead``).
  private var ahead = KeyLookAhead()

  /// Whether the kernel looks ahead at the next items' keys: in a keyed replay.
  var looksAhead: Bool { isKeyed }

  /// Looks at the items ahead of the one at `index` of `items`, all of `batch`
  /// (``KeyLookAhead``).
  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: UnsafeBufferPointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>
  ) {
    ahead.look(
      from: index, in: items, of: batch, keys: &keys, streams: streams, router: router,
      share: part?.index)
  }

  /// Looks at the items ahead of the one at `index` of `items`, each of its batch in
  /// `batches` (``KeyLookAhead``).
  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: [UnsafePointer<ReplayItem>], batches: [Unmanaged<ReplayBatch>]
  ) {
    ahead.look(
      from: index, in: items, batches: batches, keys: &keys, streams: streams, router: router,
      share: part?.index)
  }

  /// Asks for what the `--final` records of the keys a few places after `position` in `order`
  /// will read (``FinalRuns/prefetch(after:in:streams:keys:)``).
  func prefetchFinalRecords(after position: Int, in order: [Int]) {
    guard isKeyed, looksAhead, let keys else { return }
    order.withUnsafeBufferPointer {
      FinalRuns.prefetch(after: position, in: $0, streams: streams, keys: keys)
    }
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
    if looksAhead, let known = ahead.numberFound(for: envelope) {
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
    observer.observe(event) {
      routed.envelope.writtenAsRead(typeName: router.typeName(of: routed.envelope))
    }
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
        ? SelectedValue.ofEvent(path, in: item.pointee.eventBytes)
        : SelectedValue.inSnapshot(
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
    let event = routed.envelope.writtenAsRead(typeName: router.typeName(of: routed.envelope))
    return event.withUnsafeBufferPointer { writeRecord(value: value, event: $0, writer: &writer) }
  }

  /// Counts and reports a bad line; with `fail`, the replay ends after it.
  @inline(never)
  private mutating func reject(
    _ error: RaspEventError, item: ReplayItem, key: ArraySlice<UInt8>? = nil
  ) -> ReplayOutcome {
    // The bad line is not applied in either mode: it counts as skipped, so that the summary
    // still adds up when it stops the replay.
    statistics.skipped += 1
    if configuration.errorMode == .fail { ending = .stoppedAtBadLine }
    return .skipped(badLines.diagnostic(error, item: item, origin: origin(of: item), key: key))
  }

  /// Where the event of `item` is in its line, when it is not simply the line (a member of a
  /// batch line, an event a map emits).
  private func origin(of item: ReplayItem) -> EventOrigin {
    guard item.originIndex >= 0, let batch = currentBatch?.takeUnretainedValue(),
      Int(item.originIndex) < batch.origins.count
    else { return EventOrigin() }
    return batch.origins[Int(item.originIndex)]
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
        value = stream.lastEventBytes.withUnsafeBufferPointer {
          SelectedValue.ofEvent(path, in: $0)
        }
      } else if isWritingKeyFinal {
        var once = SnapshotText()
        value = SelectedValue.inSnapshot(
          path, domain: selectedDomain, text: &once, stream.pipeline.current, spare: &writer)
      } else {
        value = SelectedValue.inSnapshot(
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

  /// Writes one record — `value` (a selected value), or the snapshot when it is `nil` — of the
  /// current stream, as the configuration asks (``RecordWriter``).
  private mutating func writeRecord(
    value: [UInt8]?, event: UnsafeBufferPointer<UInt8>?, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    // Not `keys.map`, which would copy the keys, arrays and all, for every record.
    let key = isKeyed ? keys?.key(currentKey) : nil
    let snapshot: RecordWriter.SnapshotWriting =
      isWritingKeyFinal ? .once : looksAhead ? .keptForLookAhead : .kept
    var pendingSeq: Int?
    guard
      let record = recordWriter.write(
        value: value, event: event, key: key, of: &stream, snapshot: snapshot, to: &writer,
        pendingSeqAt: &pendingSeq)
    else { return nil }
    if let pendingSeq { part?.seqOffset = pendingSeq }
    records += 1
    return .record(record)
  }
}
