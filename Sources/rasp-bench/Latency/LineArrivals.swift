#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// When each line of a stream arrived: reads a descriptor to its end and records the
/// ``MonotonicClock`` time at which each line's line feed was read.
///
/// The reading is unbuffered — read(2) straight into a block, the time taken as soon as it
/// returns — so a line counts as arrived the moment the kernel hands over its last byte, and
/// no buffering in the benchmark adds to the latency it measures. A line split over two reads
/// arrives with the second. Lines beyond `expected` are counted but not timed.
///
/// ```swift
/// let arrivals = try LineArrivals.record(from: process.output, expected: 5000)
/// arrivals.times[0]   // when the first snapshot's line feed was read
/// ```
struct LineArrivals {
  /// The arrival times of the first lines, at most `expected` of them.
  var times: [UInt64]
  /// How many complete lines were read.
  var lineCount: Int
  /// Whether bytes followed the last line feed.
  var hasUnfinishedLine: Bool

  /// Reads `descriptor` until its end, then closes it.
  ///
  /// - Parameters:
  ///   - descriptor: The read end of a pipe.
  ///   - expected: How many lines to time.
  /// - Returns: The arrival times and the line count.
  /// - Throws: ``BenchError/system(_:_:)`` when read(2) fails.
  static func record(from descriptor: Int32, expected: Int) throws(BenchError) -> LineArrivals {
    defer { close(descriptor) }
    var arrivals = LineArrivals(times: [], lineCount: 0, hasUnfinishedLine: false)
    arrivals.times.reserveCapacity(expected)
    let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { block.deallocate() }
    while true {
      let count = read(descriptor, block.baseAddress, block.count)
      let now = MonotonicClock.now()
      if count == 0 { return arrivals }
      if count < 0 {
        guard errno == EINTR else { throw .system("read", errno) }
        continue
      }
      for byte in block[..<count] where byte == 0x0A {
        if arrivals.lineCount < expected { arrivals.times.append(now) }
        arrivals.lineCount += 1
      }
      arrivals.hasUnfinishedLine = block[count - 1] != 0x0A
    }
  }
}
