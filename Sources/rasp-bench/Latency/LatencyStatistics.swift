/// The figures `rasp-bench latency` reports — the 50th, 90th and 99th percentiles and the
/// maximum of the latencies — and the nearest-rank percentile they are computed with.
///
/// The nearest rank is chosen over interpolation because every figure it gives is a latency
/// that was measured: the p-th percentile of n sorted values is the value at rank ⌈p · n / 100⌉
/// (counting from 1), so at most n − rank values exceed it — with 5,000 lines, at most 50 lie
/// above the p99 — and p100 is the maximum. Latencies are whole nanoseconds, as the
/// benchmark's clock gives them, so that sorting and ranking involve no rounding.
///
/// ```swift
/// let statistics = LatencyStatistics(nanoseconds: [3_000_000, 1_000_000, 2_000_000])!
/// statistics.p50                                       // 2_000_000
/// LatencyStatistics.milliseconds(statistics.maximum)   // 3.0
/// LatencyStatistics.percentile(40, ofSorted: [15, 20, 35, 40, 50])   // 20
/// ```
struct LatencyStatistics: Equatable {
  /// How many latencies there were.
  var count: Int
  /// The median, in nanoseconds.
  var p50: UInt64
  /// The 90th percentile, in nanoseconds.
  var p90: UInt64
  /// The 99th percentile, in nanoseconds.
  var p99: UInt64
  /// The largest latency, in nanoseconds.
  var maximum: UInt64

  /// Computes the figures of `nanoseconds`, in any order; `nil` when there are none.
  ///
  /// - Parameter nanoseconds: The latencies.
  init?(nanoseconds: [UInt64]) {
    let sorted = nanoseconds.sorted()
    guard let p50 = Self.percentile(50, ofSorted: sorted),
      let p90 = Self.percentile(90, ofSorted: sorted),
      let p99 = Self.percentile(99, ofSorted: sorted),
      let maximum = sorted.last
    else { return nil }
    self.init(count: sorted.count, p50: p50, p90: p90, p99: p99, maximum: maximum)
  }

  /// Creates the figures from their values.
  init(count: Int, p50: UInt64, p90: UInt64, p99: UInt64, maximum: UInt64) {
    self.count = count
    self.p50 = p50
    self.p90 = p90
    self.p99 = p99
    self.maximum = maximum
  }

  /// The nearest-rank percentile: the value at rank ⌈`percent` · n / 100⌉ of `sorted`, counting
  /// from 1, and the first value for `percent` 0.
  ///
  /// `percent` is rounded to thousandths and the rank computed in whole numbers, so that a
  /// percent such as 99.9, which a `Double` cannot hold exactly, still gives the rank of its
  /// decimal value (999 of 1,000, not 1,000).
  ///
  /// ```swift
  /// LatencyStatistics.percentile(50, ofSorted: [15, 20, 35, 40, 50])    // 35, rank 3
  /// LatencyStatistics.percentile(100, ofSorted: [15, 20, 35, 40, 50])   // 50
  /// ```
  ///
  /// - Parameters:
  ///   - percent: From 0 to 100.
  ///   - sorted: The values in ascending order.
  /// - Returns: The percentile, or `nil` when `sorted` is empty.
  /// - Complexity: O(1).
  static func percentile<Value>(_ percent: Double, ofSorted sorted: [Value]) -> Value? {
    precondition((0...100).contains(percent), "a percentile lies between 0 and 100")
    guard !sorted.isEmpty else { return nil }
    let thousandths = Int((percent * 1000).rounded())
    let rank = (thousandths * sorted.count + 99_999) / 100_000
    return sorted[max(rank, 1) - 1]
  }

  /// `nanoseconds` in milliseconds.
  static func milliseconds(_ nanoseconds: UInt64) -> Double {
    Double(nanoseconds) / 1_000_000
  }
}
