import Testing
import Rasp

@Suite struct RaspSourceTests {
  @Test func handsEveryElementToTheConsumerInOrder() async throws {
    let source = RaspSource(
      AsyncStream<Int> { continuation in
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
      })
    let seen = Recorder<Int>()
    try await source.run { value in
      seen.record(value)
      return true
    }
    #expect(seen.values == [1, 2, 3])
  }

  @Test func stopsWhenTheConsumerSaysSo() async throws {
    let source = RaspSource(events: 1...100)
    let seen = Recorder<Int>()
    try await source.run { value in
      seen.record(value)
      return value < 2
    }
    #expect(seen.values == [1, 2])
  }

  @Test func rethrowsTheSequencesError() async {
    struct Broken: Error {}
    let source = RaspSource(
      AsyncThrowingStream<Int, any Error> { continuation in
        continuation.yield(1)
        continuation.finish(throwing: Broken())
      })
    let seen = Recorder<Int>()
    await #expect(throws: Broken.self) {
      try await source.run { value in
        seen.record(value)
        return true
      }
    }
    #expect(seen.values == [1])
  }
}
