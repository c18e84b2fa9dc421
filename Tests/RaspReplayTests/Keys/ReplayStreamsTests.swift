import Foundation
import Rasp
import RaspTestSupport
import Testing

@testable import RaspReplay

/// The block of a replay's streams, and its one piece of concurrency: the streams of a keyed
/// replay's keys freed on another thread at its end (``ReplayStreams/releaseAllButFirst()``).
/// `make test-tsan` runs these under ThreadSanitizer, which reports the race if the freeing
/// thread touched memory the replay still uses.
@Suite struct ReplayStreamsTests {
  /// Counts the streams freed, and on which thread: each stream holds one ``Witness`` (in its
  /// selector's function), which tells when it goes.
  final class Frees: Sendable {
    let freed = RaspMutex<[(stream: Int, thread: UInt)]>([])

    /// A stream that holds a witness of `number`.
    func stream(_ number: Int) -> ReplayStream {
      var stream = ReplayStream(pipeline: RaspPipeline(initial: SnapshotState(domains: [])))
      let witness = Witness(number: number, frees: self)
      stream.selector = RaspSelector { _ in [UInt8(truncatingIfNeeded: witness.number)] }
      return stream
    }
  }

  final class Witness: Sendable {
    let number: Int
    let frees: Frees

    init(number: Int, frees: Frees) {
      self.number = number
      self.frees = frees
    }

    deinit {
      let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
      frees.freed.withLock { $0.append((number, thread)) }
    }
  }

  @Test func releasingFreesEveryStreamButTheFirstOnAnotherThread() async throws {
    let frees = Frees()
    let keys = 1_000
    let (releasing, first, count) = try await onThreadOfItsOwn {
      let streams = ReplayStreams(first: frees.stream(0))
      for number in 1...keys { _ = streams.append(frees.stream(number)) }
      streams.releaseAllButFirst()
      let releasing = UInt(bitPattern: Int(bitPattern: pthread_self()))
      // Waits for the other thread to free them all; the test would wait for ever if it
      // freed one stream too few.
      frees.freed.withLock(when: { $0.count == keys }) { _, _ in }
      let first = streams.pointer(to: 0).pointee.selector?.read([])
      return (releasing, first, streams.count)
    }
    // The block went when the thread's work returned, and the first stream with it.
    let freed = frees.freed.withLock { $0 }
    #expect(freed.map(\.stream).sorted() == Array(0...keys), "every stream, once")
    #expect(
      freed.filter { $0.thread == releasing }.map(\.stream) == [0],
      "only the first on the replay's thread, with the block")
    #expect(first == [0], "the first stream is whole after the others were let go")
    #expect(count == 1)
  }

  @Test func aBlockWithOneStreamHasNothingToRelease() async throws {
    let frees = Frees()
    let freedBeforeTheEnd = try await onThreadOfItsOwn { () -> Int in
      let streams = ReplayStreams(first: frees.stream(0))
      streams.releaseAllButFirst()
      return frees.freed.withLock { $0.count }
    }
    #expect(freedBeforeTheEnd == 0)
    #expect(frees.freed.withLock { $0.map(\.stream) } == [0], "freed with the block")
  }

  @Test func appendingMovesTheStreamsAndKeepsThemInOrder() {
    let frees = Frees()
    let streams = ReplayStreams(first: frees.stream(0))
    let positions = (1...100).map { streams.append(frees.stream($0)) }
    #expect(positions == Array(1...100))
    let selected = (0...100).map {
      streams.pointer(to: $0).pointee.selector?.read([]) ?? []
    }
    #expect(selected == (0...100).map { [UInt8($0)] })
    #expect(frees.freed.withLock { $0.isEmpty }, "moving a stream frees nothing")
  }
}
