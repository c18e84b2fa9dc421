import Rasp
import RaspDomains
import RaspJSON

/// Applies items, one at a time and in order, and writes the record each calls for: the
/// composition of the replay's stages after the reading thread's.
///
/// ``Replay`` feeds it items from its inputs (``KernelPool`` feeds several kernels, each a
/// share of the keys); for each, ``handle(_:of:columns:writer:streams:)`` passes it through
/// the stages below, each a type of its own and, where the kernel holds the stage's state, an
/// extension of the kernel in the stage's folder:
///
/// - range: `--since`, `--until`, `--at` (``ReplayRange``; `Range/ReplayKernel+Range`);
/// - share: a pool kernel's share of the keys (``KernelPart``;
///   `Parallel/ReplayKernel+Part`);
/// - route: an envelope to its domain, or counted as ignored; `--drop` (``Router``,
///   ``TypeFilter``; `Routing/ReplayKernel+Routing`);
/// - demand: an event of a domain the output does not show, passed over — counted, not
///   decoded nor applied (``DomainDemand``; `Routing/ReplayKernel+Routing`);
/// - check: payload fields the type does not define (``PayloadFieldCheck``);
/// - key: the stream of the event's key, with `--key-by` (``StreamStage``, ``ReplayKeys``,
///   ``KeyLookAhead``; `Keys/ReplayKernel+Keys`);
/// - apply: the event to its stream's snapshot (``Rasp/RaspPipeline``, ``SnapshotState``);
/// - record: the record it calls for, or none under `--hide` (``ReplaySelection``,
///   ``RecordWriter``, ``RecordDiffer``, ``SnapshotText``; `Output/ReplayKernel+Records`);
/// - bad line: counted and reported, or read again when its payload's end was assumed
///   (``BadLineReport``, ``AssumedPayloadEnd``; `Output/ReplayKernel+BadLines`);
/// - end: `--final`'s records, key by key (``FinalEnd``, ``FinalRuns``;
///   `Output/ReplayKernel+Final`);
/// - checkpoint: every stream saved and restored (``ReplayCheckpoint``;
///   `Checkpoint/ReplayKernel+Checkpoint`).
///
/// The stages are made from the configuration in `Kernel/ReplayKernel+Setup`; lines are
/// counted, items that hold no event handled and the replay ended in
/// `Kernel/ReplayKernel+Lines`.
///
/// The functions from an item to its record are generic over the key stage's kind
/// (``StreamStage``), which ``Replay`` picks once: ``SingleStream`` without `--key-by`, whose
/// steps are nothing, so that the path of a replay without keys has no key branches;
/// ``KeyedStreams`` with it.
///
/// The plain case — every snapshot, alone — is written in
/// ``apply(_:item:writer:streams:listened:)`` itself,
/// and everything else is kept out of line, so that the code that handles a good line stays
/// small enough for the processor's instruction cache. The kernel's state is internal to
/// `RaspReplay`; outside the kernel's own files, ``Replay`` and ``KernelPool`` only read its
/// counts and ending.
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
  var stream: ReplayStream {
    unsafeAddress { UnsafePointer(streamPointer) }
    unsafeMutableAddress { streamPointer }
  }
  /// The stream each key starts with.
  let initialStream: ReplayStream
  /// The number of the key whose stream is the current one; ``ReplayKeys/noNumber`` before
  /// the first event, and in a replay without keys.
  var currentKey = ReplayKeys.noNumber
  /// The keys and their streams, in a keyed replay (`--key-by`).
  var keys: ReplayKeys?
  /// Whether the replay is keyed, which chooses the key stage's kind (``StreamStage``), and
  /// how a replay ends (`--final`'s order, a checkpoint's streams): asked of ``keys``,
  /// `keys != nil` would copy them, arrays and all, first.
  let isKeyed: Bool
  /// Where the records at the end of a `--final` replay have got to.
  var finalEnd = FinalEnd()
  /// Whether the event being applied has no key (its key is `null`), to count it once applied.
  var isWithoutKey = false
  /// Whether a key's `--final` record is being written, its snapshot encoded once.
  var isWritingKeyFinal = false
  /// The share of the keys this kernel handles, when it is one of several (``KernelPool``).
  var part: KernelPart?
  /// Whether the kernel is one of several: asked of ``part`` for every event, `part != nil`
  /// would copy it, lists and all, first.
  let isPart: Bool
  let router: Router
  /// The router of the domains left out, to tell their events from unknown ones.
  let excludedRouter: Router
  /// The check of payload fields against those each type defines (``PayloadFieldCheck``).
  let payloadFields: PayloadFieldCheck
  /// The events domains ask for besides their own (``TypeListeners``).
  var listeners: TypeListeners
  /// Whether some domain listens to other domains' types: asked for every event.
  let hasListeners: Bool
  /// The domains the output can show (``DomainDemand``).
  let demand: DomainDemand
  /// Whether some domain's events are passed over, the output not showing its state.
  let passesOver: Bool
  /// The other domains the event being applied changed, when domains listen to its type
  /// (set by ``applyAll(_:envelope:_:item:writer:streams:)``, emptied by the next event).
  var otherDomains: [Int] = []
  /// The messages of bad lines.
  let badLines: BadLineReport
  /// The writer of records other than the plain snapshot.
  let recordWriter: RecordWriter
  /// The type and field of each unknown payload field noted (``noteUnknownField(_:of:item:)``),
  /// `type` NUL `field`: each is noted once.
  var unknownFieldsNoted: Set<String> = []
  /// What `--select` reads, when it is given.
  let selection: ReplaySelection?
  /// The room a member `--select` reads from its domain's typed state is written in, event
  /// after event (``recordChangedMember(_:item:writer:)``).
  var memberText = JSONWriter(capacity: 0)
  /// What becomes of each type's events under `--drop` and `--hide`, when either is given.
  let typeFilter: TypeFilter?
  /// Whether ``typeFilter`` is given: asked of it for every event, `typeFilter != nil` would
  /// copy it first.
  let filtersTypes: Bool
  /// Whether some type is hidden, which makes no record plain.
  let hidesTypes: Bool
  /// Where records start and reading stops (`--since`, `--until`, `--at`), when given.
  var range: ReplayRange?
  /// Whether ``range`` is given: asked for every item.
  let hasRange: Bool
  /// Whether the last item handed to ``handle(_:of:columns:writer:streams:)`` was left
  /// unread: it is past `--until`, which ended the replay before it.
  var isItemLeftUnread = false
  /// Whether the item being handled is before `--since`.
  var isBeforeSince = false
  /// How many events were applied.
  var seq = 0
  /// How many records were yielded, for a checkpoint.
  var records = 0
  /// The batch of the item being handled, for the origins of events that are not simply their
  /// lines (not retained: the caller keeps it).
  var currentBatch: Unmanaged<ReplayBatch>?
  /// The counts.
  var statistics = ReplayStatistics()
  /// How the replay ends, once it must.
  var ending: ReplaySummary.Ending?

  /// The look at the next items' keys, in a keyed replay (``KeyLookAhead``).
  var ahead = KeyLookAhead()

  /// Whether each stream keeps its last event's line, for a checkpoint: a replay resumed
  /// from it with `--final --with-event` or `--at` prints it.
  let keepsLastEvent: Bool

  /// The line of the last event applied, where it is in its batch, not copied yet: in a replay
  /// without keys, it is copied only when its batch is let go (``settleLastEvent()``), not
  /// after every event.
  var pendingLastEvent: UnsafeBufferPointer<UInt8>?

  /// What is written for each event applied: the snapshot, nothing, or the record stage's.
  let eventRecord: EventRecord
  /// Whether a ``ReplayStateObserver`` sees every applied event.
  let isObserved: Bool
  /// The domains whose events the observer is told of, when it says
  /// (``ReplayStateObserver/observedDomains``).
  let observedDomains: ReplayObservedDomains?

  /// The snapshot before any event, which the reading thread makes its decoder from.
  var pipeline: RaspPipeline<SnapshotState> { initialStream.pipeline }

  /// Handles one item: counts it, applies its event, and writes its record to `writer`.
  ///
  /// The item is read where it is, in its batch: a copy of a whole item (141 bytes) just before
  /// reading its fields back stalls the processor on every line.
  ///
  /// - Returns: What to yield for it: a record, a bad line, a notice; `nil` for nothing.
  @inline(__always)
  mutating func handle<Streams: StreamStage>(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    if hasRange {
      return handleInRange(item, of: batch, columns: columns, writer: &writer, streams: streams)
    }
    return handleItem(item, of: batch, columns: columns, writer: &writer, streams: streams)
  }

  /// Handles one item, in or out of a range.
  @inline(__always)
  mutating func handleItem<Streams: StreamStage>(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    currentBatch = batch
    guard Streams.owns(item, in: &self) else { return nil }
    switch item.pointee.kind {
    case .decoded(let envelope, let domainIndex, let eventIndex, let row):
      countLine(of: item)
      let routed = SnapshotState.Event(
        envelope: envelope, domainIndex: domainIndex, eventIndex: eventIndex,
        column: columns[domainIndex], row: row)
      return apply(routed, item: item, writer: &writer, streams: streams)
    case .passedOver(let envelope, let domainIndex, let eventIndex):
      countLine(of: item)
      let routed = SnapshotState.Event(
        envelope: envelope, domainIndex: domainIndex, eventIndex: eventIndex)
      if filtersTypes, isDropped(routed) {
        return drop(routed, item: item, writer: &writer, streams: streams)
      }
      return passOver(routed, item: item, writer: &writer, streams: streams, isPayloadChecked: true)
    case .event(let envelope):
      countLine(of: item)
      return handle(envelope, item: item, writer: &writer, streams: streams)
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

  /// Applies a routed event and writes the record it calls for.
  ///
  /// `listened` holds, for an event of a type no domain here has, the events of the domains
  /// that listen to it (``TypeListeners``); `routed` is then the first of them.
  @inline(__always)
  mutating func apply<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type, listened: [TypeListeners.Target]? = nil
  ) -> ReplayOutcome? {
    if listened == nil {
      if filtersTypes, isDropped(routed) {
        return drop(routed, item: item, writer: &writer, streams: streams)
      }
      // A field its type does not define: a bad line under `--strict`; otherwise a warning,
      // looked for once applied, when the decoder skipped a field.
      if configuration.isStrict, let error = payloadFields.unknownField(of: routed) {
        return reject(error, item: item.pointee)
      }
    }
    if passesOver, !demand.needs(routed.domainIndex) {
      return passOver(routed, item: item, writer: &writer, streams: streams)
    }
    if listened != nil
      || (hasListeners
        && !listeners.targets(domain: routed.domainIndex, event: routed.eventIndex).isEmpty)
    {
      // With the domains that listen to its type, all or nothing.
      let others =
        listened ?? listeners.targets(domain: routed.domainIndex, event: routed.eventIndex)
      if case .handled(let outcome) = applyAll(
        listened == nil ? routed : nil, envelope: routed.envelope, others, item: item,
        writer: &writer, streams: streams)
      {
        return outcome
      }
    } else {
      if case .handled(let outcome) = Streams.select(
        for: routed, item: item, writer: &writer, in: &self)
      {
        return outcome
      }
      do {
        try stream.pipeline.send(routed)
      } catch {
        Streams.noteRefused(in: &self)
        return handleFailure(
          error, of: routed, item: item.pointee, writer: &writer, streams: streams)
      }
      stream.text.markChanged(routed.domainIndex)
      // The domains the last event changed besides its own, when it was listened to.
      if hasListeners, !otherDomains.isEmpty { otherDomains.removeAll(keepingCapacity: true) }
    }
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
    Streams.noteApplied(item, in: &self)
    if isObserved { notifyObserver(routed, item: item, streams: streams) }
    switch eventRecord {
    case .snapshot:
      let start = writer.bytes.count
      // The domain just applied through its slot, without a copy of the snapshot, when it is
      // the only one changed; the whole snapshot otherwise.
      var isWritten = false
      if let applied = stream.pipeline.current.applied {
        isWritten = stream.text.write(applied: applied, to: &writer)
      }
      if !isWritten { stream.text.write(stream.pipeline.current, to: &writer) }
      records += 1
      return .record(
        ReplayRecord(
          range: start..<writer.bytes.count, seq: seq, input: stream.lastInput,
          line: stream.lastLine))
    case .none: return nil
    case .written: return record(routed, item: item, writer: &writer, streams: streams)
    }
  }
}
