import Rasp
import RaspDomains
import RaspJSON

/// The kernel's output stage: the record each applied event calls for (``RecordWriter``), the
/// last event each stream keeps, and the observer that sees every event.
extension ReplayKernel {
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
  mutating func keepLastEvent(of item: UnsafePointer<ReplayItem>) {
    stream.lastEventBytes.removeAll(keepingCapacity: true)
    stream.lastEventBytes.append(contentsOf: item.pointee.eventBytes)
  }

  /// Shows the event just applied, and the state after it, to the configuration's observer;
  /// only counts it when it changed no domain the observer asked for.
  @inline(never)
  mutating func notifyObserver<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, streams: Streams.Type
  ) {
    if let observedDomains,
      !observedDomains.observes(domainIndex: routed.domainIndex, otherDomains: otherDomains)
    {
      observedDomains.passedOver += 1
      return
    }
    guard let observer = configuration.stateObserver else { return }
    let key = Streams.currentKey(in: self)
    let event = ReplayAppliedEvent(
      seq: seq, input: item.pointee.input, line: item.pointee.lineNumber,
      keyNumber: key.number, key: key.name,
      domainIndex: routed.domainIndex, state: stream.pipeline.current,
      isBeforeSince: isBeforeSince, otherDomains: otherDomains)
    observer.observe(event) {
      routed.envelope.writtenAsRead(typeName: router.typeName(of: routed.envelope))
    }
    if observer.isFinished, ending == nil { ending = .completed }
  }

  /// The record an applied event calls for, when it is not the plain snapshot: none until the
  /// end with `--final`, a selected value when it changed, a diff, or a record with the event.
  @inline(never)
  mutating func record<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    if configuration.isFinal {
      // Hidden or not, the event's line is not printed: the final state is.
      if isBeforeSince {
        statistics.beforeSince += 1
      } else if hidesTypes, isHidden(routed) {
        statistics.hidden += 1
      }
      if configuration.includesEvent || selection?.isOfEvent == true {
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
    // The selection is read where it is, through `?`: bound to a name, it would be copied,
    // and its path retained and released, for every record.
    if let mayChange = selection?.mayChange(
      domain: routed.domainIndex, hasSelected: stream.hasSelected)
    {
      // Only an event of the selected domain can change the value, once there is one.
      guard
        mayChange
          || !otherDomains.isEmpty
            && otherDomains.contains(where: {
              selection?.mayChange(domain: $0, hasSelected: stream.hasSelected) == true
            })
      else { return nil }
      if selection?.isMember == true {
        return recordChangedMember(routed, item: item, writer: &writer, streams: streams)
      }
      // The stream through its pointer, which is not an access to the kernel.
      let current = streamPointer
      let bytes =
        selection?.value(
          event: item.pointee.eventBytes, text: &current.pointee.text,
          current.pointee.pipeline.current, spare: &writer) ?? []
      current.pointee.hasSelected = true
      // A selection with `[]` of an empty array is no value: it changes, and prints nothing.
      guard let value = current.pointee.selector?.select(from: bytes), !value.isEmpty else {
        return nil
      }
      return writeRecord(value: value, routed, item: item, writer: &writer, streams: streams)
    }
    return writeRecord(value: nil, routed, item: item, writer: &writer, streams: streams)
  }

  /// The record of `--select` of a member read from its domain's typed state (`nav.tab`),
  /// when the value changed. Most events of the domain leave it as it was: a value that is
  /// `null`, a boolean or a string is compared with the last one read
  /// (``ReplayStream/lastMember``), and nothing more is done when it is the same; any other is
  /// written in the room of the last one written (``memberText``), and kept by the selector
  /// only when it differs, allocating nothing otherwise.
  @inline(never)
  mutating func recordChangedMember<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    // The stream through its pointer, which is not an access to the kernel.
    let current = streamPointer
    current.pointee.hasSelected = true
    let member = selection?.memberValue(of: current.pointee.pipeline.current) ?? .null
    // The value the selector holds, unchanged: nothing to write or compare again.
    if let last = current.pointee.lastMember, Self.isSameScalar(last, member) { return nil }
    memberText.removeAll()
    memberText.write(member)
    // Spelled out: `nil` in a conditional would be `JSONValue.null`, a nil literal too.
    current.pointee.lastMember = Self.isScalar(member) ? Optional(member) : Optional.none
    guard let value = current.pointee.selector?.select(from: memberText.bytes), !value.isEmpty
    else { return nil }
    return writeRecord(value: value, routed, item: item, writer: &writer, streams: streams)
  }

  /// Whether `value` is `null`, a boolean or a string: what ``ReplayStream/lastMember`` keeps.
  @inline(__always)
  static func isScalar(_ value: JSONValue) -> Bool {
    switch value {
    case .null, .bool, .string: true
    default: false
    }
  }

  /// Whether two values of ``isScalar(_:)`` kinds are written as the same JSON: strings by
  /// their bytes, as the selector compares them (Swift's `==` would take two spellings of one
  /// accented letter for one string).
  @inline(__always)
  static func isSameScalar(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.string(let x), .string(let y)): isSameBytes(x, y)
    default: false
    }
  }

  /// Whether two strings are the same bytes, compared where they are (the `UTF8View`s'
  /// `elementsEqual` walks them by index, about 450 instructions for a tab's name, and even
  /// the buffers' about 180).
  @inline(__always)
  static func isSameBytes(_ x: String, _ y: String) -> Bool {
    var x = x
    var y = y
    return x.withUTF8 { a in
      y.withUTF8 { b in
        guard a.count == b.count else { return false }
        for index in a.indices where a[index] != b[index] { return false }
        return true
      }
    }
  }

  /// Writes the record of `routed`, with its event as the log wrote it, or as rasp read it
  /// (``ReplayConfiguration/includesEventAsRead``).
  mutating func writeRecord<Streams: StreamStage>(
    value: [UInt8]?, _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>,
    writer: inout JSONWriter, streams: Streams.Type
  ) -> ReplayOutcome? {
    guard configuration.includesEventAsRead else {
      return writeRecord(
        value: value, event: item.pointee.eventBytes, writer: &writer, streams: streams)
    }
    let event = routed.envelope.writtenAsRead(typeName: router.typeName(of: routed.envelope))
    return event.withUnsafeBufferPointer {
      writeRecord(value: value, event: $0, writer: &writer, streams: streams)
    }
  }

  /// Writes one record — `value` (a selected value), or the snapshot when it is `nil` — of the
  /// current stream, as the configuration asks (``RecordWriter``).
  mutating func writeRecord<Streams: StreamStage>(
    value: [UInt8]?, event: UnsafeBufferPointer<UInt8>?, writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    let key = Streams.currentKey(in: self).name
    let snapshot = Streams.snapshotWriting(in: self)
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
