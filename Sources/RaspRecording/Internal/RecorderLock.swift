import Foundation

/// A mutex and a condition variable (POSIX), for the recorder's channel: the senders' fast path
/// takes and releases it once per event, so its `lock` and `unlock` are inlinable calls
/// straight to `pthread_mutex_lock` and `pthread_mutex_unlock`.
@usableFromInline
final class RecorderLock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    // Timed waits on the monotonic clock, so that setting the system's clock back does not
    // put the writer to sleep for as long.
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  func lock() {
    pthread_mutex_lock(mutex)
  }

  @inlinable
  func unlock() {
    pthread_mutex_unlock(mutex)
  }

  /// Releases the lock until woken, then takes it again.
  func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// Releases the lock until woken or until `seconds` have passed, then takes it again.
  func wait(seconds: Double) {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nanoseconds = Int(now.tv_nsec) + Int(seconds * 1e9)
    var deadline = timespec(
      tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    pthread_cond_timedwait(condition, mutex, &deadline)
  }

  /// Wakes every thread waiting.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
