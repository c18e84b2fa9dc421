import Testing
@testable import Rasp

@Suite struct RaspWorkQueueTests {
  @Test func popsInTheOrderAppendedAcrossGrowthAndWrapAround() {
    var queue = RaspWorkQueue<Int>()
    var popped: [Int] = []
    for value in 0..<10 { queue.append(value) }
    for _ in 0..<7 { popped.append(queue.popFirst() ?? -1) }  // head moves to 7
    for value in 10..<40 { queue.append(value) }  // wraps, then grows
    while let value = queue.popFirst() { popped.append(value) }
    #expect(popped == Array(0..<40))
    #expect(queue.isEmpty)
    #expect(queue.popFirst() == nil)
  }

  @Test func releasesAnElementAsSoonAsItIsPopped() {
    final class Payload {}
    var queue = RaspWorkQueue<Payload>()
    weak var released: Payload?
    do {
      let payload = Payload()
      released = payload
      queue.append(payload)
      queue.append(Payload())
      _ = queue.popFirst()
    }
    #expect(released == nil)
  }
}
