import Dispatch
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

  /// The bounded queue between the two threads.
  fileprivate final class Queue: @unchecked Sendable {
    private struct State {
      var elements: [Element] = []
      var isFinished = false
    }

    private let state = Mutex(State())
    /// Read at the start of every critical section and written at its end: an explicit
    /// happens-before edge for ThreadSanitizer, which cannot follow `Mutex`'s hand-over inside
    /// the kernel on Linux (see `RaspMutex` in the core).
    private let handoff = Atomic<Int>(0)
    /// Whether the consumer went away. Set under the lock, read without it: the producer asks
    /// often, and taking the lock would write a cache line the consumer uses.
    private let cancelled = Atomic<Bool>(false)
    /// Whether the consumer found nothing and had to wait, since the producer last asked.
    private let consumerWaited = Atomic<Bool>(false)
    private let available = DispatchSemaphore(value: 0)
    private let space: DispatchSemaphore
    private let exited = DispatchSemaphore(value: 0)

    init(capacity: Int) {
      // Created at 0 and raised to `capacity`: libdispatch traps when a semaphore is freed with
      // a value below the one it was created with, as this one is when the consumer lets go
      // with elements still queued.
      space = DispatchSemaphore(value: 0)
      for _ in 0..<capacity { space.signal() }
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    var pendingCount: Int { locked { $0.elements.count } }

    func put(_ element: Element) -> Bool {
      guard !isCancelled else { return false }
      space.wait()
      let accepted = locked { state -> Bool in
        guard !cancelled.load(ordering: .relaxed), !state.isFinished else { return false }
        state.elements.append(element)
        return true
      }
      if accepted { available.signal() }
      return accepted
    }

    func takeConsumerWaited() -> Bool {
      consumerWaited.exchange(false, ordering: .relaxed)
    }

    func finish() {
      let wasFinished = locked { state -> Bool in
        defer { state.isFinished = true }
        return state.isFinished
      }
      if !wasFinished { available.signal() }
    }

    func take(waiting: Bool) -> (element: Element?, isEnd: Bool) {
      while true {
        if available.wait(timeout: .now()) == .timedOut {
          guard waiting else { return (nil, false) }
          consumerWaited.store(true, ordering: .relaxed)
          available.wait()
        }
        let (element, finished) = locked { state -> (Element?, Bool) in
          if !state.elements.isEmpty { return (state.elements.removeFirst(), false) }
          return (nil, state.isFinished)
        }
        if let element {
          space.signal()
          return (element, false)
        }
        if finished {
          // Leave the end signalled for the next call.
          available.signal()
          return (nil, true)
        }
      }
    }

    private func locked<Result>(_ body: (inout State) -> Result) -> Result {
      state.withLock { state in
        _ = handoff.load(ordering: .acquiring)
        defer { handoff.store(0, ordering: .releasing) }
        return body(&state)
      }
    }

    func cancel() {
      locked { _ in cancelled.store(true, ordering: .releasing) }
      space.signal()
    }

    func producerExited() {
      exited.signal()
    }

    func waitForProducer() {
      exited.wait()
    }
  }
}
