#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The monotonic clock (`CLOCK_MONOTONIC`) in whole nanoseconds, and sleeping until one of its
/// instants.
///
/// The latency benchmark takes its timestamps on two threads and subtracts them, so it needs
/// one clock that never jumps and that both threads read the same way; and it paces its writes
/// against absolute deadlines of that clock, so that a late wake-up delays one write but not
/// every later one. `clock_nanosleep` with `TIMER_ABSTIME` sleeps until such a deadline; plain
/// integers keep the subtraction exact.
///
/// ```swift
/// let start = MonotonicClock.now()
/// MonotonicClock.sleep(until: start + 1_000_000)   // one millisecond after `start`
/// let elapsed = MonotonicClock.now() - start       // 1_000_000 or a little more
/// ```
enum MonotonicClock {
  /// The current instant, in nanoseconds since an unspecified start (the machine's boot).
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Sleeps until `deadline`, or returns at once when it has passed.
  ///
  /// - Parameter deadline: An instant of ``now()``.
  static func sleep(until deadline: UInt64) {
    #if canImport(Glibc)
      var time = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    #else
      while true {
        let current = now()
        guard current < deadline else { return }
        let remaining = deadline - current
        var time = timespec(
          tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
        _ = nanosleep(&time, nil)
      }
    #endif
  }
}
