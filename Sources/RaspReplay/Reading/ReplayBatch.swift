import RaspDomains
import RaspJSON

/// Lines of an input, classified, with what keeps their bytes valid: what the reading stage
/// hands on, across threads when it reads ahead.
///
/// The reading side fills a batch, then hands it over and never touches it again; from then on
/// the replay only reads it. Its items live in storage of its own, so that the replay walks
/// them by pointer, without retaining anything per item.
final class ReplayBatch: @unchecked Sendable {
  /// The blocks the reader read the lines into, which keep their bytes valid.
  @exclusivity(unchecked) var blocks: [JSONLinesBlock] = []
  /// The events decoded ahead, one column per domain, when the batch was decoded.
  let columns: [AnyRaspDecodedEvents]
  /// What is wrong with the batch's bad lines, which refer to it by index.
  @exclusivity(unchecked) var problems: [ReplayProblem] = []
  /// What happened to the input, which notice items refer to by index.
  @exclusivity(unchecked) var notices: [String] = []
  /// The hash of every byte of the input read when the batch was made — the batch's lines and
  /// the bytes read ahead of them — for checkpoints; `nil` when not asked for.
  @exclusivity(unchecked) var readHash: SegmentedLogHash?
  /// The events rasp wrote from the batch's lines (OTLP records made plain, Kafka payloads),
  /// which their items point into.
  @exclusivity(unchecked) var arena = ByteArena()
  /// Where the events are of the items whose events are not simply their lines, by
  /// ``ReplayItem/originIndex``.
  @exclusivity(unchecked) var origins: [EventOrigin] = []
  /// Each item's key, read by the reading thread in a keyed replay (``KeyHints``): what
  /// finding it in the table of keys needs, by the item's index; empty when not read.
  @exclusivity(unchecked) var keyHints: [ReplayKeys.Sought?] = []
  /// How many items the batch holds before its storage grows.
  @exclusivity(unchecked) private(set) var capacity: Int
  @exclusivity(unchecked) private var storage: UnsafeMutablePointer<ReplayItem>
  @exclusivity(unchecked) private(set) var count = 0

  /// An empty batch with room for `capacity` items.
  init(capacity: Int, columns: [AnyRaspDecodedEvents] = []) {
    self.capacity = max(1, capacity)
    self.columns = columns
    storage = UnsafeMutablePointer<ReplayItem>.allocate(capacity: self.capacity)
  }

  deinit {
    // Items hold no references: there is nothing to release in them.
    storage.deallocate()
    arena.release()
  }

  /// Whether the batch holds as many items as it was made for.
  var isFull: Bool { count >= capacity }

  /// The items, in order; valid as long as the batch is kept.
  var items: UnsafeBufferPointer<ReplayItem> { UnsafeBufferPointer(start: storage, count: count) }

  /// Adds an item. A batch is full after ``capacity`` lines, but a line of a batch format may
  /// hold more events than that: the storage then grows.
  @inline(__always)
  func append(_ item: ReplayItem) {
    if count == capacity { grow() }
    (storage + count).initialize(to: item)
    count += 1
  }

  /// Notes which kernel of a pool handles the item at `index` (``ReplayItem/share``), before
  /// the batch is handed over.
  func setShare(_ share: UInt8, at index: Int) {
    storage[index].share = share
  }

  /// Doubles the storage, moving the items (which hold no references) as they are.
  @inline(never)
  private func grow() {
    let larger = UnsafeMutablePointer<ReplayItem>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity *= 2
  }
}
