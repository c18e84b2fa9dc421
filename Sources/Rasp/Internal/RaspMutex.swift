import Synchronization

/// A `Synchronization.Mutex` that ThreadSanitizer can follow.
///
/// On Linux, `Mutex` hands a contended lock from one thread to the next inside the kernel
/// (`FUTEX_LOCK_PI`), in code that ThreadSanitizer does not instrument. It then sees no
/// happens-before edge between two critical sections and reports races that cannot happen —
/// even for two threads appending to a `Mutex<[Int]>`, whose final count is always right.
///
/// `RaspMutex` adds that edge explicitly: every critical section starts with an acquiring load
/// of ``handoff`` and ends with a releasing store to it. Since the store happens under the lock,
/// the load of the next holder always reads the previous holder's store, so the pair orders the
/// two critical sections exactly as the mutex already does. On x86-64 and ARM64 an acquiring
/// load and a releasing store are plain loads and stores, so release builds pay nothing extra;
/// under ThreadSanitizer the run is clean without suppressions.
@usableFromInline
struct RaspMutex<Value: ~Copyable>: ~Copyable {
  /// The lock and the value it guards.
  @usableFromInline let mutex: Mutex<Value>

  /// Written at the end of every critical section, read at the start of the next.
  @usableFromInline let handoff: Atomic<Int>

  /// Creates a mutex guarding `value`.
  @inlinable
  @inline(__always)
  init(_ value: consuming sending Value) {
    mutex = Mutex(value)
    handoff = Atomic(0)
  }

  /// Runs `body` with exclusive access to the value.
  ///
  /// `body` must not lock this mutex again: the lock is not recursive.
  @inlinable
  @inline(__always)
  borrowing func withLock<Result: ~Copyable>(
    _ body: (inout sending Value) -> sending Result
  ) -> sending Result {
    mutex.withLock { value in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return body(&value)
    }
  }
}

// A mutex hands its value from thread to thread under the lock, like `Mutex` itself.
extension RaspMutex: @unchecked Sendable where Value: ~Copyable {}
