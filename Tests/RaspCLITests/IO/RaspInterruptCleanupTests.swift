import Foundation
import RaspTestSupport
import Synchronization
import Testing

@testable import RaspCLI

/// The one pending temporary file that a signal removes (``RaspInterruptCleanup``): claimed
/// with a compare-and-exchange, so that writers on several threads never both believe they
/// are tracked, and a writer's `untrack` never clears another's claim. (What the signal
/// handler then does is `BinaryTests`', on the built binary.) `make test-tsan` runs these
/// under ThreadSanitizer.
@Suite struct RaspInterruptCleanupTests {
  /// How many threads hold the slot now, and how often a thread found it held by another.
  final class Tally: Sendable {
    let holders = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
  }

  @Test func writersOnManyThreadsClaimTheOneSlotInTurn() async throws {
    // Each thread claims the slot for a path of its own, checks the slot names that path all
    // the while it holds it, and lets go; other tests of the process may claim it meanwhile,
    // so a thread tries until it has held it a few times.
    let threads = 4
    let holdsEach = 50
    let tally = Tally()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for thread in 0..<threads {
        group.addTask {
          try await RaspTestSupport.onThreadOfItsOwn {
            let path = "/nonexistent/rasp-interrupt-test-\(thread).tmp"
            var held = 0
            while held < holdsEach {
              guard let token = RaspInterruptCleanup.track(path) else { continue }
              if tally.holders.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                tally.overlaps.add(1, ordering: .relaxed)
              }
              if RaspInterruptCleanup.trackedPath != path {
                tally.overlaps.add(1, ordering: .relaxed)
              }
              tally.holders.subtract(1, ordering: .sequentiallyConsistent)
              RaspInterruptCleanup.untrack(token)
              held += 1
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(tally.overlaps.load(ordering: .relaxed) == 0, "never two holders, never another's path")
  }

  @Test func untrackingAStaleTokenLeavesTheCurrentClaimAlone() async throws {
    // A writer that let go, then untracks again (its token now stale), must not clear the
    // claim another writer made since.
    let (first, second): (String?, String?) = try await RaspTestSupport.onThreadOfItsOwn {
      var mine: UnsafeMutablePointer<CChar>?
      while mine == nil { mine = RaspInterruptCleanup.track("/nonexistent/rasp-stale-1.tmp") }
      RaspInterruptCleanup.untrack(mine)
      var theirs: UnsafeMutablePointer<CChar>?
      while theirs == nil {
        theirs = RaspInterruptCleanup.track("/nonexistent/rasp-stale-2.tmp")
      }
      RaspInterruptCleanup.untrack(mine)
      let whileTheirs = RaspInterruptCleanup.trackedPath
      RaspInterruptCleanup.untrack(theirs)
      let afterwards = RaspInterruptCleanup.trackedPath
      return (whileTheirs, afterwards == "/nonexistent/rasp-stale-2.tmp" ? afterwards : nil)
    }
    #expect(first == "/nonexistent/rasp-stale-2.tmp")
    #expect(second == nil, "untracked for good")
  }
}
