import Testing

@testable import rasp_bench

@Suite struct KeyedBenchmarkTests {
  @Test func readsTheKeyPathAndTheNumbersOfThreads() throws {
    let options = try KeyedBenchmark.parse([
      "--log", "keyed.jsonl", "--key-by", "payload.deviceId", "--jobs", "2,4,1,2",
    ]).get()
    #expect(options.shared.log == "keyed.jsonl")
    #expect(options.keyPath == "payload.deviceId")
    // One thread is always timed, first; the others once each, in order.
    #expect(options.jobs == [2, 4])
  }

  @Test func refusesWhatIsNotAPositiveNumberOfThreads() {
    for value in ["0", "two", "2,", ""] {
      guard case .failure = KeyedBenchmark.parse(["--log", "k.jsonl", "--jobs", value]) else {
        Issue.record("'--jobs \(value)' was accepted")
        continue
      }
    }
  }
}
