import Rasp
import RaspJSON

/// What one stream of events has of its own: its snapshot, the snapshot's text, the last value
/// selected, the last record for diffs, and its last event.
///
/// A replay has one stream; a keyed replay (`--key-by`) has one per key, each as if its events
/// were replayed alone (``ReplayKeys``). The kernel works on the current stream in place.
///
/// ```swift
/// var stream = ReplayStream(pipeline: RaspPipeline(initial: snapshot))
/// try stream.pipeline.send(routed)
/// stream.text.markChanged(routed.domainIndex)
/// ```
struct ReplayStream {
  /// The snapshot.
  var pipeline: RaspPipeline<SnapshotState>
  /// The snapshot's JSON, made at the first record.
  var text = SnapshotText()
  /// The last selected value, to yield it only when it changes.
  var selector: RaspSelector<[UInt8], [UInt8]>?
  /// Whether a value was selected yet, and not made stale since by a hidden event (`--hide`),
  /// which may have changed it without a record: asked for every event, `selector?.last ==
  /// nil` would copy the selector.
  var hasSelected = false
  /// The member `--select` read from the typed state at the last event that could change it
  /// (``ReplaySelection/isMember``), when it is `null`, a boolean or a string: the value the
  /// selector holds as JSON, so that an event that leaves it as it was is told without writing
  /// it again. `nil` when not known, or of another kind: a checkpoint's restored selector.
  var lastMember: JSONValue?
  /// The previous record's value, for ``ReplayConfiguration/Emit/diff``.
  var differ: RecordDiffer?
  /// The last applied event's number in the replay, input and line.
  var lastSeq = EventNumber.known(0)
  var lastInput: Int?
  var lastLine: Int?
  /// The last applied event's line, kept only when a `--with-event` record may need it later.
  var lastEventBytes: [UInt8] = []
  /// Where the snapshot's list of domains is in memory, and how many there are, noted after
  /// each event in a keyed replay: the kernel asks for a stream's domains before their turn,
  /// and reading them through the snapshot would retain them, which waits for them as long
  /// as reading them does.
  var domains: (elements: UnsafeRawPointer?, count: Int) = (nil, 0)
  /// Where the snapshot's text is in memory, noted after each record in a keyed replay, for
  /// the same reason.
  var textInMemory: (bytes: UnsafeRawPointer?, count: Int, ranges: UnsafeRawPointer?) =
    (nil, 0, nil)
}

extension ReplayStream {
  /// The number of an applied event in the replay, as records show it (`seq`).
  ///
  /// A kernel of a pool (``KernelPool``) does not know it when it applies the event: the other
  /// kernels apply events of the same items. It is kept in one word, as records carry it until
  /// the pool writes the number in (``ReplayRecord/seq``).
  ///
  /// ```swift
  /// stream.lastSeq = .pending(item: 3)
  /// stream.lastSeq.state         // .pending(item: 3)
  /// stream.lastSeq.recordValue   // -4
  /// ```
  struct EventNumber: Equatable {
    /// What the stream knows of the number.
    enum State: Equatable {
      /// The number.
      case known(Int)
      /// Not known yet: the event is the item at this index of the list the pool handed
      /// over, and the pool numbers it once the list is merged.
      case pending(item: Int)
    }

    /// The number, or -1 minus the item's index while it is pending: never negative once
    /// known.
    let recordValue: Int

    /// The number `number`.
    @inline(__always)
    static func known(_ number: Int) -> EventNumber { EventNumber(recordValue: number) }

    /// A number not known yet, of the event at index `item` of the pool's list.
    static func pending(item: Int) -> EventNumber { EventNumber(recordValue: -1 - item) }

    /// What the stream knows of the number.
    var state: State { recordValue >= 0 ? .known(recordValue) : .pending(item: -1 - recordValue) }
  }
}
