#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import Synchronization
import Testing

@testable import RaspReplay

/// The read-ahead, the replay's one piece of concurrency: a producer on its own thread, a
/// bounded queue, and a consumer that takes elements in order. `make test` also runs these
/// under ThreadSanitizer.
@Suite struct ReadAheadTests {
  @Test func theConsumerTakesEveryElementInTheOrderItWasPut() {
    let numbers = ReadAhead<Int>(capacity: 3) { producer in
      for number in 0..<10_000 where !producer.put(number) { return }
      producer.finish()
    }
    var taken: [Int] = []
    while let number = numbers.take() { taken.append(number) }
    #expect(taken == Array(0..<10_000))
    #expect(numbers.take() == nil, "the end stays the end")
  }

  @Test func aProducerThatReturnsWithoutFinishingEndsTheElementsToo() {
    let numbers = ReadAhead<Int>(capacity: 2) { producer in
      producer.put(1)
      producer.put(2)
    }
    #expect(numbers.take() == 1)
    #expect(numbers.take() == 2)
    #expect(numbers.take() == nil)
  }

  @Test func aFailingProducerHandsOverWhatItReadThenItsFailure() {
    // As the replay's reader does: the lines read before the failure, then the failure as the
    // last element, then the end.
    enum Element: Equatable, Sendable {
      case line(Int)
      case failure(String)
    }
    let elements = ReadAhead<Element>(capacity: 2) { producer in
      for number in 1...3 { producer.put(.line(number)) }
      producer.put(.failure("Input/output error"))
      producer.finish()
    }
    var taken: [Element] = []
    while let element = elements.take() { taken.append(element) }
    #expect(taken == [.line(1), .line(2), .line(3), .failure("Input/output error")])
  }

  @Test func theProducerWaitsWhenTheQueueIsFull() {
    // The producer records how many elements it has put; the consumer takes none until the
    // producer has stopped making progress, which it must at the queue's capacity.
    let capacity = 3
    let progress = Counter()
    let blocked = DispatchSemaphore(value: 0)
    let numbers = ReadAhead<Int>(capacity: capacity) { producer in
      for number in 0..<100 {
        if progress.value == capacity { blocked.signal() }
        guard producer.put(number) else { return }
        progress.increment()
      }
      producer.finish()
    }
    blocked.wait()
    // The producer is now putting element `capacity`, which waits for room.
    #expect(progress.value == capacity)
    #expect(numbers.take() == 0)
    var taken = [0]
    while let number = numbers.take() { taken.append(number) }
    #expect(taken == Array(0..<100))
  }

  @Test func lettingGoCancelsAWaitingProducerAndJoinsIt() {
    let exited = Counter()
    let sawCancellation = Counter()
    do {
      let numbers = ReadAhead<Int>(capacity: 1) { producer in
        defer { exited.increment() }
        var number = 0
        while producer.put(number) { number += 1 }
        if producer.isCancelled { sawCancellation.increment() }
      }
      #expect(numbers.take() == 0)
    }
    // `deinit` returned: the producer has exited, not merely been told to.
    #expect(exited.value == 1)
    #expect(sawCancellation.value == 1)
  }

  @Test func aProducerThatWaitsForInputSeesTheCancellation() {
    // A live input's reader waits for input in slices and asks between them, as this
    // producer does, on a pipe nothing is written to.
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    let exited = Counter()
    do {
      let input = ends[0]
      let idle = ReadAhead<Int>(capacity: 2) { producer in
        while !producer.isCancelled {
          var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
          _ = poll(&waiting, 1, 1)
        }
        exited.increment()
      }
      #expect(idle.takeIfReady().isNotReady)
    }
    #expect(exited.value == 1)
  }

  @Test func takeIfReadyTellsNotReadyFromTheEnd() {
    let gate = DispatchSemaphore(value: 0)
    let numbers = ReadAhead<Int>(capacity: 2) { producer in
      gate.wait()
      producer.put(7)
      gate.wait()
      producer.finish()
    }
    #expect(numbers.takeIfReady().isNotReady)
    gate.signal()
    #expect(numbers.take() == 7)
    gate.signal()
    #expect(numbers.take() == nil)
    #expect(numbers.takeIfReady().isEnd)
  }
}

/// A count shared between threads.
private final class Counter: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .sequentiallyConsistent) }
  func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}

extension ReadAhead.Taken {
  fileprivate var isNotReady: Bool {
    if case .notReady = self { return true }
    return false
  }

  fileprivate var isEnd: Bool {
    if case .end = self { return true }
    return false
  }
}
