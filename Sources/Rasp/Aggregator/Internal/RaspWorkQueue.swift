/// A first-in, first-out ring buffer: the aggregator's queue of work waiting for the drainer.
///
/// Appending and popping are O(1) amortized. A popped slot is cleared at once, so the queue never
/// keeps a delivered event (or the subscriber of a pending subscription) alive. The storage
/// grows by doubling and is kept when the queue empties, so a queue that has reached its working
/// size stops allocating.
///
/// Not thread-safe on its own: the aggregator only touches it under its mutex.
@usableFromInline
struct RaspWorkQueue<Element> {
  @usableFromInline var slots: ContiguousArray<Element?>
  @usableFromInline var head: Int
  @usableFromInline var count: Int

  @inlinable
  init() {
    slots = []
    head = 0
    count = 0
  }

  /// Whether nothing is waiting.
  @inlinable
  var isEmpty: Bool { count == 0 }

  /// Adds `element` at the back.
  @inlinable
  mutating func append(_ element: Element) {
    if count == slots.count { grow() }
    var tail = head + count
    if tail >= slots.count { tail -= slots.count }
    slots[tail] = element
    count += 1
  }

  /// Removes and returns the front element, or returns `nil` when the queue is empty.
  @inlinable
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = slots[head].take()
    head += 1
    if head == slots.count { head = 0 }
    count -= 1
    if count == 0 { head = 0 }
    return element
  }

  /// Doubles the capacity (to at least 16), unrolling the ring so that `head` becomes 0.
  @usableFromInline
  mutating func grow() {
    let capacity = Swift.max(16, slots.count * 2)
    var grown = ContiguousArray<Element?>(repeating: nil, count: capacity)
    for offset in 0..<count {
      var index = head + offset
      if index >= slots.count { index -= slots.count }
      grown[offset] = slots[index].take()
    }
    slots = grown
    head = 0
  }
}
