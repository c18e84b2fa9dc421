import Dispatch
import Rasp
import Synchronization

/// Runs a producer on a thread of its own, a bounded number of elements ahead of the thread
/// that consumes them: the replay's only concurrency.
///
/// Reading a log and parsing its envelopes need no state, so they run beside the replay, which
/// applies events and writes records in order: on two cores, the work of a replay is split in
/// two. The producer hands over elements (batches of lines) through a queue of at most
/// `capacity`, waiting when it is full, so memory stays flat however far behind the consumer
/// is. The consumer takes them in the order they were put.
///
/// When the consumer lets go of the read-ahead, the producer is cancelled — ``Producer/put(_:)``
/// returns `false`, ``Producer/isCancelled`` turns `true` — and joined before `deinit` returns,
/// so that no thread outlives the replay. A producer that waits for input must ask
/// ``Producer/isCancelled`` while it waits (live inputs wait in short slices).
///
/// ```swift
/// let numbers = ReadAhead<Int>(capacity: 2) { producer in
///   for number in 1...5 where producer.put(number) {}
///   producer.finish()
/// }
/// while let number = numbers.take() { print(number) }   // 1 2 3 4 5
/// ```
final class ReadAhead<Element: Sendable>: @unchecked Sendable {
  private let queue: Queue

  /// Starts `produce` on another thread.
  ///
  /// - Parameters:
  ///   - capacity: How many elements may wait to be taken.
  ///   - produce: Puts elements, then finishes; returning without finishing also ends them.
  init(capacity: Int, produce: @escaping @Sendable (Producer) -> Void) {
    let queue = Queue(capacity: max(1, capacity))
    self.queue = queue
    let producer = Producer(queue: queue)
    let work = Work(produce)
    DispatchQueue.global(qos: .userInitiated).async {
      work.run(producer)
      queue.finish()
      queue.producerExited()
    }
  }

  /// The producer's function, let go of as soon as it returns: what it holds (an open file)
  /// is then released on the producer's thread before ``deinit`` stops waiting, not later,
  /// whenever the thread pool frees the block that ran it.
  private final class Work: @unchecked Sendable {
    private var produce: (@Sendable (Producer) -> Void)?

    init(_ produce: @escaping @Sendable (Producer) -> Void) {
      self.produce = produce
    }

    func run(_ producer: Producer) {
      produce?(producer)
      produce = nil
    }
  }

  deinit {
    queue.cancel()
    queue.waitForProducer()
  }

  /// The next element, waiting for one; `nil` after the last.
  func take() -> Element? {
    queue.take(waiting: true).element
  }

  /// What ``takeIfReady()`` found.
  enum Taken {
    /// The next element.
    case element(Element)
    /// None is ready yet: ``take()`` would wait.
    case notReady
    /// The producer finished and every element was taken.
    case end
  }

  /// The next element if one is ready, without waiting.
  func takeIfReady() -> Taken {
    let taken = queue.take(waiting: false)
    if let element = taken.element { return .element(element) }
    return taken.isEnd ? .end : .notReady
  }

  /// The producer's side: what the function given to ``ReadAhead/init(capacity:produce:)``
  /// uses.
  final class Producer: @unchecked Sendable {
    private let queue: Queue

    fileprivate init(queue: Queue) {
      self.queue = queue
    }

    /// Adds an element, waiting for room; `false` when the consumer went away: stop producing.
    @discardableResult
    func put(_ element: Element) -> Bool {
      queue.put(element)
    }

    /// Marks the end of the elements.
    func finish() {
      queue.finish()
    }

    /// Whether the consumer went away; cheap enough to ask often.
    var isCancelled: Bool { queue.isCancelled }

    /// How many elements wait to be taken.
    var pendingCount: Int { queue.pendingCount }

    /// Whether the consumer had to wait for an element since the last call; clears it.
    func takeConsumerWaited() -> Bool {
      queue.takeConsumerWaited()
    }
  }

  /// The bounded queue between the two threads: one ``Rasp/RaspMutex``, whose conditions
  /// are all the waiting there is (for an element, for room, for the producer's end).
  fileprivate final class Queue: @unchecked Sendable {
    private struct State {
      var elements: [Element] = []
      var isFinished = false
      var isCancelled = false
      var hasProducerExited = false
    }

    private let state = RaspMutex(State())
    private let capacity: Int
    /// Whether the consumer went away: a copy of the state's, set under the lock and read
    /// without it, since the producer asks often, and taking the lock would write a cache line
    /// the consumer uses.
    private let cancelled = Atomic<Bool>(false)
    /// Whether the consumer found nothing and had to wait, since the producer last asked.
    private let consumerWaited = Atomic<Bool>(false)

    init(capacity: Int) {
      self.capacity = capacity
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    var pendingCount: Int { state.withLock { $0.elements.count } }

    func put(_ element: Element) -> Bool {
      guard !isCancelled else { return false }
      let capacity = capacity
      return state.withLock(when: {
        $0.elements.count < capacity || $0.isCancelled || $0.isFinished
      }) { state, _ in
        guard !state.isCancelled, !state.isFinished else { return false }
        state.elements.append(element)
        return true
      }
    }

    func takeConsumerWaited() -> Bool {
      consumerWaited.exchange(false, ordering: .relaxed)
    }

    func finish() {
      state.withLock { $0.isFinished = true }
    }

    func take(waiting: Bool) -> (element: Element?, isEnd: Bool) {
      let taken = state.withLock { Self.takeFirst(&$0) }
      guard waiting, taken.element == nil, !taken.isEnd else { return taken }
      consumerWaited.store(true, ordering: .relaxed)
      return state.withLock(when: { !$0.elements.isEmpty || $0.isFinished }) { state, _ in
        Self.takeFirst(&state)
      }
    }

    /// The first element, or whether the elements ended.
    private static func takeFirst(_ state: inout State) -> (element: Element?, isEnd: Bool) {
      if !state.elements.isEmpty { return (state.elements.removeFirst(), false) }
      return (nil, state.isFinished)
    }

    func cancel() {
      state.withLock { state in
        state.isCancelled = true
        cancelled.store(true, ordering: .releasing)
      }
    }

    func producerExited() {
      state.withLock { $0.hasProducerExited = true }
    }

    func waitForProducer() {
      state.withLock(when: { $0.hasProducerExited }) { _, _ in }
    }
  }
}
