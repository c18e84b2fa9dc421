/// What a kernel notes when it is one of several that split a keyed replay by key
/// (`--jobs N`, ``KernelPool``): which share of the keys is its own, and what the merge of the
/// kernels' outcomes needs to give the bytes one kernel gives.
///
/// Every kernel of the pool is handed every item of a batch; each handles the events whose
/// key is in its share and lets the others pass (the lines that are not events are kernel 0's).
/// What it cannot know alone is settled when the batch is merged:
/// - an event's number in the replay (`seq`) counts the events the other kernels applied
///   before it, so a kernel notes which items it applied and where a record's number goes;
/// - the first item that ends the replay (a bad line under `--on-error fail`, a read failure)
///   ends it for all, so a kernel keeps its counts before each of its items, to go back to
///   those before that item.
///
/// ```swift
/// var part = KernelPart(index: 1, count: 2)
/// part.itemIndex = 7
/// part.applied.append(Int32(part.itemIndex))
/// ```
struct KernelPart {
  /// The kernel's share, and how many there are.
  let index: Int
  let count: Int
  /// The position of the item being handled in the pool's list.
  var itemIndex = 0
  /// The positions of the items this kernel applied, in order.
  var applied: [Int32] = []
  /// Each stream whose last event is in the list, with that event's position: its number is
  /// known once the list is merged (``ReplayKernel/numberEvents(after:)``).
  var touched: [(stream: Int32, item: Int32)] = []
  /// Where the number of the record just written goes in the kernel's output, when it shows
  /// one (`--with-event`); the merge writes it there.
  var seqOffset: Int?
  /// The counts before each item this kernel handled.
  var countsBefore: [(item: Int32, statistics: ReplayStatistics, firstUnknown: Int?)] = []
  /// The position in the whole replay of the first event of unknown type, to tell which
  /// kernel's came first; and of the list's first item.
  var firstUnknown: Int?
  var ordinalBase = 0
  /// The position in the whole replay of each of the kernel's
  /// ``ReplayStatistics/unknownFields``, in order, to merge them in the replay's order.
  var unknownFieldOrdinals: [Int] = []

  /// A part with nothing noted yet.
  init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Forgets what was noted for the last list, before the next.
  mutating func startList(ordinalBase: Int) {
    self.ordinalBase = ordinalBase
    applied.removeAll(keepingCapacity: true)
    touched.removeAll(keepingCapacity: true)
    countsBefore.removeAll(keepingCapacity: true)
    seqOffset = nil
  }
}
