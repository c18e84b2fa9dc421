#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread that writes a log's lines to a descriptor one at a time at a steady rate, records
/// when it wrote each, and closes the descriptor after the last.
///
/// Line `i` is due at `start + i / rate`, an absolute deadline of the ``MonotonicClock``: the
/// thread sleeps until it, takes the time, and calls write(2) for that one line. Pacing against
/// deadlines rather than sleeping a fixed interval after each write means a late wake-up or a
/// slow write delays that line alone, and the schedule does not drift; if the thread falls
/// behind, it writes the lines that are due without sleeping until it has caught up.
///
/// The writer runs on a thread of its own, so that the benchmark's other thread can read the
/// replay's output as it comes. It is `@unchecked Sendable` because its mutable state is only
/// touched by that thread between ``start()`` and ``join()``, and read by the caller after
/// ``join()`` returns, which `pthread_join` orders after the thread's last write.
///
/// ```swift
/// let writer = PacedLineWriter(log: bytes, lineEnds: ends, rate: 1000, descriptor: fd)
/// try writer.start()
/// // … read the replies …
/// let result = writer.join()   // result.writeTimes[i]: when line i was written
/// ```
final class PacedLineWriter: @unchecked Sendable {
  /// What the writer did.
  struct Result {
    /// The ``MonotonicClock`` time just before each line's write(2), for the lines written.
    var writeTimes: [UInt64]
    /// The latest a write started after its deadline, in nanoseconds.
    var maximumLateness: UInt64
    /// The `errno` of a failed write (`EPIPE` when the reader went away), which ended the writing.
    var writeError: Int32?
  }

  private let log: [UInt8]
  private let lineEnds: [Int]
  private let interval: Double
  private let descriptor: Int32
  private var thread: pthread_t?
  private var result = Result(writeTimes: [], maximumLateness: 0, writeError: nil)

  /// Prepares a writer; nothing is written before ``start()``.
  ///
  /// - Parameters:
  ///   - log: The lines, each ending with a line feed.
  ///   - lineEnds: The offset just past each line's line feed, in order.
  ///   - rate: Lines per second, more than 0.
  ///   - descriptor: Where to write; the writer closes it when it is done.
  init(log: [UInt8], lineEnds: [Int], rate: Double, descriptor: Int32) {
    precondition(rate > 0, "the rate must be positive")
    self.log = log
    self.lineEnds = lineEnds
    self.interval = 1e9 / rate
    self.descriptor = descriptor
  }

  /// Starts the thread; the first line is due at once.
  ///
  /// - Throws: ``BenchError/system(_:_:)`` when the thread cannot be created.
  func start() throws(BenchError) {
    precondition(thread == nil, "a writer runs once")
    let context = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Glibc)
      var created = pthread_t()
    #else
      var created: pthread_t?
    #endif
    let code = pthread_create(
      &created, nil,
      { context in
        let writer = Unmanaged<PacedLineWriter>.fromOpaque(context!).takeRetainedValue()
        writer.run()
        return nil
      }, context)
    guard code == 0 else {
      Unmanaged<PacedLineWriter>.fromOpaque(context).release()
      throw .system("pthread_create", code)
    }
    thread = created
  }

  /// Waits for the last line to be written and the descriptor closed.
  ///
  /// - Returns: The write times and how the writing went.
  func join() -> Result {
    guard let thread else { return result }
    pthread_join(thread, nil)
    self.thread = nil
    return result
  }

  /// The thread's body.
  private func run() {
    defer { close(descriptor) }
    var times: [UInt64] = []
    times.reserveCapacity(lineEnds.count)
    log.withUnsafeBytes { bytes in
      let start = MonotonicClock.now()
      var lineStart = 0
      for (index, lineEnd) in lineEnds.enumerated() {
        let deadline = start + UInt64((Double(index) * interval).rounded())
        MonotonicClock.sleep(until: deadline)
        let now = MonotonicClock.now()
        if now > deadline { result.maximumLateness = max(result.maximumLateness, now - deadline) }
        times.append(now)
        var offset = lineStart
        while offset < lineEnd {
          let written = write(descriptor, bytes.baseAddress! + offset, lineEnd - offset)
          if written < 0 {
            if errno == EINTR { continue }
            result.writeError = errno
            times.removeLast()
            return
          }
          offset += written
        }
        lineStart = lineEnd
      }
    }
    result.writeTimes = times
  }
}
