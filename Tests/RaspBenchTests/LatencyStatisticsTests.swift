import Testing

@testable import rasp_bench

@Suite struct LatencyStatisticsTests {
  /// The worked example of the nearest-rank method: five values, ranks ⌈p · 5 / 100⌉.
  static let five = [15, 20, 35, 40, 50]

  @Test(arguments: [(5.0, 15), (30.0, 20), (40.0, 20), (50.0, 35), (100.0, 50)])
  func takesTheValueAtTheRankRoundedUp(percent: Double, value: Int) {
    #expect(LatencyStatistics.percentile(percent, ofSorted: Self.five) == value)
  }

  @Test func takesTheRankItselfWhenItIsWhole() {
    // p50 of 4 is rank 2, p90 of 10 rank 9, p99 of 100 rank 99: no rounding up.
    #expect(LatencyStatistics.percentile(50, ofSorted: [1, 2, 3, 4]) == 2)
    #expect(LatencyStatistics.percentile(90, ofSorted: Array(1...10)) == 9)
    #expect(LatencyStatistics.percentile(99, ofSorted: Array(1...100)) == 99)
  }

  @Test func roundsAFractionalRankUpEvenWhenItIsJustAboveAWholeOne() {
    // p99 of 101 values is rank ⌈99.99⌉ = 100; p50 of 5 is rank ⌈2.5⌉ = 3.
    #expect(LatencyStatistics.percentile(99, ofSorted: Array(1...101)) == 100)
    #expect(LatencyStatistics.percentile(50, ofSorted: Array(1...5)) == 3)
  }

  @Test func readsADecimalPercentAsWritten() {
    // 99.9 · 1,000 / 100 is 999 exactly, though 99.9 is not exact in binary.
    #expect(LatencyStatistics.percentile(99.9, ofSorted: Array(1...1000)) == 999)
    #expect(LatencyStatistics.percentile(0.1, ofSorted: Array(1...1000)) == 1)
  }

  @Test(arguments: [0.0, 1, 50, 99, 100])
  func givesTheOneValueOfASingleElement(percent: Double) {
    #expect(LatencyStatistics.percentile(percent, ofSorted: [7]) == 7)
  }

  @Test func givesTheFirstValueForPercentZeroAndTheLastForOneHundred() {
    #expect(LatencyStatistics.percentile(0, ofSorted: Self.five) == 15)
    #expect(LatencyStatistics.percentile(100, ofSorted: Self.five) == 50)
    #expect(LatencyStatistics.percentile(100, ofSorted: Array(1...5000)) == 5000)
  }

  @Test func givesATiedValueWhicheverOfItsRanksIsChosen() {
    let tied = [1, 2, 2, 2, 2, 2, 2, 2, 2, 9]
    // Ranks 2 to 9 all hold 2: p20 is rank 2, p50 rank 5, p90 rank 9; p91 is rank 10.
    #expect(LatencyStatistics.percentile(20, ofSorted: tied) == 2)
    #expect(LatencyStatistics.percentile(50, ofSorted: tied) == 2)
    #expect(LatencyStatistics.percentile(90, ofSorted: tied) == 2)
    #expect(LatencyStatistics.percentile(91, ofSorted: tied) == 9)
  }

  @Test func hasNoPercentileOfNothing() {
    #expect(LatencyStatistics.percentile(50, ofSorted: [Int]()) == nil)
    #expect(LatencyStatistics(nanoseconds: []) == nil)
  }

  @Test func sortsTheLatenciesBeforeRanking() {
    // 1…100 ms in reverse: p50 rank 50, p90 rank 90, p99 rank 99, the maximum 100 ms.
    let latencies = (1...100).reversed().map { UInt64($0) * 1_000_000 }
    #expect(
      LatencyStatistics(nanoseconds: latencies)
        == LatencyStatistics(
          count: 100, p50: 50_000_000, p90: 90_000_000, p99: 99_000_000, maximum: 100_000_000))
  }

  @Test func letsTheHighestPercentOfLatenciesLieAboveTheNinetyNinth() {
    // 5,000 lines, the last 50 slow: p99 is rank 4,950, the last fast line.
    let latencies =
      Array(repeating: UInt64(200_000), count: 4950)
      + Array(repeating: UInt64(80_000_000), count: 50)
    let statistics = LatencyStatistics(nanoseconds: latencies)
    #expect(statistics?.p99 == 200_000)
    #expect(statistics?.maximum == 80_000_000)
  }

  @Test func convertsNanosecondsToMilliseconds() {
    #expect(LatencyStatistics.milliseconds(1_234_567) == 1.234567)
    #expect(LatencyStatistics.milliseconds(50_000_000) == 50)
  }
}
