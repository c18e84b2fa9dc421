import Dispatch
import Synchronization

/// The package's one lock: a value that threads share, reached only under the lock, with a
/// wait for a condition on the value.
///
/// Every piece of rasp that runs on more than one thread guards its state with a `RaspMutex`
/// — the aggregator's core, the replay's read-ahead queue, the progress line, the recorder's
/// channel, the check of a checkpoint's logs — so that there is one idiom to read and one
/// place where its subtleties live. A critical section is a closure that gets the value
/// `inout` (``withLock(_:)``); a thread that must wait until the value says so — an element to
/// take, room to put one, a result to read — gives the condition instead of waiting on a
/// semaphore or a condition variable of its own (``withLock(when:timeout:_:)``). The condition
/// is checked at the end of every other thread's critical section, while the lock is held, and
/// the waiting thread is woken only when it holds: nothing to signal by hand, no wake-up to
/// forget, and no thread woken for nothing (the monitor of Abseil's `Mutex::LockWhen`).
///
/// It is a `Synchronization.Mutex`, which ThreadSanitizer cannot follow on Linux: `Mutex`
/// hands a contended lock from one thread to the next inside the kernel (`FUTEX_LOCK_PI`), in
/// code that ThreadSanitizer does not instrument, so it sees no happens-before edge between two
/// critical sections and reports races that cannot happen. `RaspMutex` adds that edge: every
/// critical section starts with an acquiring load of ``handoff`` and ends with a releasing
/// store to it, under the lock, so the next holder's load reads the previous holder's store.
/// On x86-64 and ARM64 those are plain loads and stores: release builds pay nothing for them.
///
/// ```swift
/// let queue = RaspMutex([Int]())
/// // A thread that puts:
/// queue.withLock { $0.append(42) }
/// // A thread that takes, waiting until there is something to take:
/// let first = queue.withLock(when: { !$0.isEmpty }) { numbers, _ in numbers.removeFirst() }
/// ```
///
/// The lock is not recursive: a closure must not lock the same mutex again. Conditions run
/// under the lock, on whichever thread ends a critical section: they only read the value.
@usableFromInline
package struct RaspMutex<Value: ~Copyable>: ~Copyable {
  /// The lock and the value it guards.
  @usableFromInline let mutex: Mutex<Guarded>

  /// The threads waiting for a condition; touched only under the lock.
  @usableFromInline let waiters: Waiters

  /// Written at the end of every critical section, read at the start of the next.
  @usableFromInline let handoff: Atomic<Int>

  /// The value, and whether a thread waits for a condition on it.
  @usableFromInline
  struct Guarded: ~Copyable {
    @usableFromInline var value: Value
    /// Whether ``waiters`` has any: all that a critical section reads when none waits.
    @usableFromInline var hasWaiters = false

    @inlinable
    init(_ value: consuming Value) {
      self.value = value
    }
  }

  /// The threads waiting for a condition, in the order they began to wait.
  @usableFromInline
  final class Waiters: @unchecked Sendable {
    /// A thread waiting for a condition.
    @usableFromInline
    struct Waiter {
      /// The condition, valid while the thread waits (it is removed before the wait returns).
      @usableFromInline let isReady: (borrowing Value) -> Bool
      /// What the thread sleeps on.
      @usableFromInline let parker: Parker
      /// Whether it was woken already, so that it is woken once.
      @usableFromInline var isWoken = false

      init(isReady: @escaping (borrowing Value) -> Bool, parker: Parker) {
        self.isReady = isReady
        self.parker = parker
      }
    }

    /// The waiters; the lock already makes every access exclusive, so it is not checked again
    /// at run time.
    @usableFromInline @exclusivity(unchecked) var list: [Waiter] = []

    @usableFromInline init() {}

    /// Adds a waiter; whether there are waiters now.
    @usableFromInline
    func add(_ isReady: @escaping (borrowing Value) -> Bool, parker: Parker) -> Bool {
      list.append(Waiter(isReady: isReady, parker: parker))
      return true
    }

    /// Forgets the waiter parked on `parker`; whether any waiter is left.
    @usableFromInline
    func remove(_ parker: Parker) -> Bool {
      list.removeAll { $0.parker === parker }
      return !list.isEmpty
    }

    /// Wakes each waiter whose condition holds for `value`: called at the end of every
    /// critical section while there are waiters, so that a waiter is woken by the section that
    /// made its condition true.
    @inlinable
    func wakeReady(_ value: borrowing Value) {
      for index in list.indices where !list[index].isWoken && list[index].isReady(value) {
        list[index].isWoken = true
        list[index].parker.signal()
      }
    }
  }

  /// What a waiting thread sleeps on until a critical section wakes it, or its time is up.
  @usableFromInline
  final class Parker: @unchecked Sendable {
    // Created at 0 and signalled at most once per sleep, so it is never freed below its
    // initial value (which libdispatch traps on).
    private let semaphore = DispatchSemaphore(value: 0)

    @usableFromInline init() {}

    @usableFromInline func signal() { semaphore.signal() }

    /// Sleeps until signalled or until `deadline`; whether it was signalled.
    @usableFromInline func sleep(until deadline: DispatchTime?) -> Bool {
      guard let deadline else {
        semaphore.wait()
        return true
      }
      return semaphore.wait(timeout: deadline) == .success
    }
  }

  /// Creates a mutex guarding `value`.
  ///
  /// ```swift
  /// let counter = RaspMutex(0)
  /// ```
  ///
  /// - Parameter value: The value the threads share from now on.
  @inlinable
  @inline(__always)
  package init(_ value: consuming sending Value) {
    mutex = Mutex(Guarded(value))
    waiters = Waiters()
    handoff = Atomic(0)
  }

  /// Runs `body` with exclusive access to the value, then wakes the threads whose condition
  /// it made true.
  ///
  /// ```swift
  /// let counter = RaspMutex(0)
  /// let next = counter.withLock { count -> Int in
  ///   count += 1
  ///   return count
  /// }
  /// ```
  ///
  /// - Parameter body: The critical section; it must not lock this mutex again.
  /// - Returns: What `body` returns.
  @inlinable
  @inline(__always)
  package borrowing func withLock<Result: ~Copyable>(
    _ body: (inout sending Value) -> sending Result
  ) -> sending Result {
    mutex.withLock { guarded in
      _ = handoff.load(ordering: .acquiring)
      defer {
        if guarded.hasWaiters { waiters.wakeReady(guarded.value) }
        handoff.store(0, ordering: .releasing)
      }
      return body(&guarded.value)
    }
  }

  /// Runs `body` with exclusive access to the value if no other thread holds the lock now;
  /// returns `nil` at once otherwise.
  ///
  /// For work that may be skipped when the lock is busy, such as redrawing a progress line
  /// that the next redraw puts back anyway.
  ///
  /// ```swift
  /// let line = RaspMutex("")
  /// _ = line.withLockIfAvailable { $0 = "12 lines" }   // nil when busy
  /// ```
  ///
  /// - Parameter body: The critical section; it must not lock this mutex again.
  /// - Returns: What `body` returns, or `nil` when the lock was held.
  @inlinable
  package borrowing func withLockIfAvailable<Result: ~Copyable>(
    _ body: (inout sending Value) -> sending Result
  ) -> sending Result? {
    // The same six lines as withLock's, on purpose: handing `guarded` inout to a shared helper
    // starts Swift's access to it before the acquiring load, which ThreadSanitizer then
    // reports as a race (it does not see inside Synchronization.Mutex).
    mutex.withLockIfAvailable { guarded in
      _ = handoff.load(ordering: .acquiring)
      defer {
        if guarded.hasWaiters { waiters.wakeReady(guarded.value) }
        handoff.store(0, ordering: .releasing)
      }
      return body(&guarded.value)
    }
  }

  /// Waits until `condition` holds for the value, or until `timeout` has passed, then runs
  /// `body` with exclusive access to it.
  ///
  /// The condition is checked under the lock: first at once, then at the end of each other
  /// critical section, which wakes this thread only when the condition holds for the value as
  /// that section left it. `body` then runs in the same critical section as the check that
  /// passed, so what the condition saw is still true: the waiting needs no loop around it.
  /// The thread sleeps meanwhile (it must not be one of the cooperative pool's).
  ///
  /// ```swift
  /// let result = RaspMutex<Int?>(nil)
  /// DispatchQueue.global().async { result.withLock { $0 = 42 } }
  /// let answer = result.withLock(when: { $0 != nil }) { value, _ in value ?? 0 }   // 42
  /// ```
  ///
  /// - Parameters:
  ///   - condition: What the thread waits for; it only reads the value, and may run on any
  ///     thread that ends a critical section.
  ///   - timeout: The longest to wait; `nil`, the default, waits as long as it takes.
  ///   - body: The critical section, given the value and whether `condition` holds: `false`
  ///     only when the time ran out first.
  /// - Returns: What `body` returns.
  @inlinable
  package borrowing func withLock<Result: Sendable>(
    when condition: (borrowing Value) -> Bool, timeout: Duration? = nil,
    _ body: (inout sending Value, _ isReady: Bool) -> Result
  ) -> Result {
    // Most often the condition holds at once: one critical section, and nothing to register.
    let atOnce: Result? = mutex.withLock { guarded -> Result? in
      _ = handoff.load(ordering: .acquiring)
      defer {
        if guarded.hasWaiters { waiters.wakeReady(guarded.value) }
        handoff.store(0, ordering: .releasing)
      }
      guard condition(guarded.value) else { return nil }
      return body(&guarded.value, true)
    }
    if let atOnce { return atOnce }
    return withoutActuallyEscaping(condition) { condition in
      waitSlowly(for: condition, timeout: timeout, body)
    }
  }

  /// Waits for `condition` in turns of registering, sleeping and checking again.
  @inlinable
  borrowing func waitSlowly<Result: Sendable>(
    for condition: @escaping (borrowing Value) -> Bool, timeout: Duration?,
    _ body: (inout sending Value, _ isReady: Bool) -> Result
  ) -> Result {
    let deadline = timeout.map { timeout -> DispatchTime in
      let nanoseconds = timeout / .nanoseconds(1)
      return .now() + .nanoseconds(Int(min(max(nanoseconds, 0), Double(Int.max / 2))))
    }
    var parker: Parker?
    var timedOut = false
    while true {
      let outcome: Result? = mutex.withLock { guarded -> Result? in
        _ = handoff.load(ordering: .acquiring)
        defer {
          if guarded.hasWaiters { waiters.wakeReady(guarded.value) }
          handoff.store(0, ordering: .releasing)
        }
        if let parker { guarded.hasWaiters = waiters.remove(parker) }
        let isReady = condition(guarded.value)
        guard isReady || timedOut else {
          // A parker that was woken has had its signal taken: it can sleep again.
          let sleeper = parker ?? Parker()
          parker = sleeper
          guarded.hasWaiters = waiters.add(condition, parker: sleeper)
          return nil
        }
        return body(&guarded.value, isReady)
      }
      if let outcome { return outcome }
      if let parker, !parker.sleep(until: deadline) { timedOut = true }
    }
  }
}

// A mutex hands its value from thread to thread under the lock, like `Mutex` itself.
extension RaspMutex: @unchecked Sendable where Value: ~Copyable {}
