import RaspJSON

/// The kernel's key stage as a type: how each event's stream is found, and what is noted of it
/// once applied.
///
/// The kernel's functions on the way from an item to its record are generic over it, and
/// ``Replay`` (or ``KernelPool``, for each of its kernels) picks one of its two kinds once, from
/// `--key-by`: ``SingleStream``, whose every step is nothing or a constant, or
/// ``KeyedStreams``, which makes the stream of each event's key the current one. Each call is
/// specialized and inlined, so the path of a replay without keys carries no key branches, and
/// the stages between the two steps (route, demand, check, apply, record) do not know keys
/// exist.
///
/// ```swift
/// // In the kernel, for an event routed to its domain:
/// if case .handled(let outcome) = Streams.select(for: routed, item: item, writer: &writer,
///   in: &self) { return outcome }
/// try stream.pipeline.send(routed)
/// Streams.noteApplied(item, in: &self)
/// ```
protocol StreamStage {
  /// Whether the kernel looks ahead at the next items' keys (``KeyLookAhead``).
  static var looksAhead: Bool { get }

  /// Whether the item is the kernel's to handle: not when it is another pool kernel's share.
  static func owns(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel) -> Bool

  /// Makes the stream of the routed event's key the current one, or handles its line
  /// otherwise (a bad line without a key under `--strict`, a line read again).
  static func select(
    for routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    in kernel: inout ReplayKernel
  ) -> ReplayKernel.StreamChoice

  /// Notes the event just applied to the current stream, its numbers already set.
  static func noteApplied(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel)

  /// Notes an event passed over, counted as applied, its numbers already set
  /// (``ReplayKernel/passOver(_:item:writer:streams:isPayloadChecked:)``).
  static func notePassedOver(in kernel: inout ReplayKernel)

  /// Notes that the event selected for was refused: it is not applied.
  static func noteRefused(in kernel: inout ReplayKernel)

  /// The current stream's key, for its records and the observer: its number
  /// (``ReplayKeys/noNumber`` for none) and its canonical JSON.
  static func currentKey(in kernel: ReplayKernel) -> (number: Int, name: ArraySlice<UInt8>?)

  /// How a record of the current stream writes its snapshot (``RecordWriter``).
  static func snapshotWriting(in kernel: ReplayKernel) -> RecordWriter.SnapshotWriting
}

/// The one stream of a replay without keys: every event is applied to it.
enum SingleStream: StreamStage {
  static var looksAhead: Bool { false }

  @inline(__always)
  static func owns(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel) -> Bool {
    true
  }

  @inline(__always)
  static func select(
    for routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    in kernel: inout ReplayKernel
  ) -> ReplayKernel.StreamChoice {
    .selected
  }

  /// Keeps where the event's line is, for a checkpoint: copied only when its batch is let go
  /// (``ReplayKernel/settleLastEvent()``), not after every event.
  @inline(__always)
  static func noteApplied(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel) {
    if kernel.keepsLastEvent { kernel.pendingLastEvent = item.pointee.eventBytes }
  }

  @inline(__always)
  static func notePassedOver(in kernel: inout ReplayKernel) {}

  @inline(__always)
  static func noteRefused(in kernel: inout ReplayKernel) {}

  @inline(__always)
  static func currentKey(in kernel: ReplayKernel) -> (number: Int, name: ArraySlice<UInt8>?) {
    (ReplayKeys.noNumber, nil)
  }

  /// Kept in the stream's text, for the next record.
  @inline(__always)
  static func snapshotWriting(in kernel: ReplayKernel) -> RecordWriter.SnapshotWriting {
    .kept
  }
}

/// The streams of a keyed replay (`--key-by`), one for each key: each event is applied to its
/// key's (``ReplayKernel/selectStream(for:item:writer:)``).
enum KeyedStreams: StreamStage {
  static var looksAhead: Bool { true }

  @inline(__always)
  static func owns(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel) -> Bool {
    !kernel.isPart || kernel.ownsItem(item)
  }

  @inline(__always)
  static func select(
    for routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    in kernel: inout ReplayKernel
  ) -> ReplayKernel.StreamChoice {
    kernel.selectStream(for: routed, item: item, writer: &writer)
  }

  @inline(__always)
  static func noteApplied(_ item: UnsafePointer<ReplayItem>, in kernel: inout ReplayKernel) {
    kernel.noteAppliedToKey(item)
  }

  @inline(__always)
  static func notePassedOver(in kernel: inout ReplayKernel) {
    kernel.notePassedOverForKey()
  }

  @inline(__always)
  static func noteRefused(in kernel: inout ReplayKernel) {
    kernel.isWithoutKey = false
  }

  @inline(__always)
  static func currentKey(in kernel: ReplayKernel) -> (number: Int, name: ArraySlice<UInt8>?) {
    (kernel.currentKey, kernel.currentKeyName)
  }

  /// Encoded once for a key's `--final` record; otherwise kept for the look ahead.
  @inline(__always)
  static func snapshotWriting(in kernel: ReplayKernel) -> RecordWriter.SnapshotWriting {
    kernel.isWritingKeyFinal ? .once : .keptForLookAhead
  }
}
