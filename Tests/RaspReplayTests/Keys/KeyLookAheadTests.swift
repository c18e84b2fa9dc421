import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The keyed replay's look ahead (``KeyLookAhead``): the number it found for the item being
/// handled is that item's key's number, as finding the key in its turn gives it, and it
/// offers none for an item it did not look at far enough ahead, a key it had not seen, or
/// another kernel's item.
@Suite struct KeyLookAheadTests {
  private static let domains: [any RaspDomain] = [GeoDomain(), NavDomain()]

  /// A log of `count` events of the keys `d0`…`d4`, mixed, with a blank line and one without
  /// a key among them.
  private static func log(count: Int) -> String {
    (0..<count).map { index in
      switch index % 11 {
      case 5: return ""
      case 9: return #"{"type":"nav.pop"}"#
      default:
        return #"{"type":"geo.heading","device":"d\#((index * 7) % 5)","payload":{"heading":1}}"#
      }
    }.joined(separator: "\n")
  }

  /// The streams of a keyed replay with `keys` keys: the first, then one per key.
  private static func streams(keys: Int) -> ReplayStreams {
    let stream = ReplayStream(pipeline: RaspPipeline(initial: SnapshotState(domains: domains)))
    let streams = ReplayStreams(first: stream)
    for _ in 0..<keys { _ = streams.append(stream) }
    return streams
  }

  /// Looks ahead over the batch of `log`, as the kernel does, and gives for each item what the
  /// look found and what finding its key in its turn gives.
  private func look(
    at log: String, knowing known: Bool, share: Int? = nil
  ) throws -> [(found: Int?, inTurn: Int?)] {
    let path = try JSONPath("device")
    let router = SnapshotState(domains: Self.domains).router
    let batch = try #require(readBatch(of: log))
    var keys: ReplayKeys? = ReplayKeys(path: path)
    var numbers: [Int?] = []
    for item in batch.items {
      guard let envelope = item.envelope else {
        numbers.append(nil)
        continue
      }
      switch keys?.number(of: envelope, typeName: "") {
      case .number(let number)?: numbers.append(number)
      default: numbers.append(nil)
      }
    }
    if !known { keys = ReplayKeys(path: path) }
    let streams = Self.streams(keys: known ? 5 : 0)
    var ahead = KeyLookAhead()
    var results: [(Int?, Int?)] = []
    for index in batch.items.indices {
      ahead.look(
        from: index, in: batch.items, of: .passUnretained(batch), keys: &keys, streams: streams,
        router: router, share: share)
      #expect(ahead.position == index)
      let found = batch.items[index].envelope.flatMap { ahead.numberFound(for: $0) }
      results.append((found, numbers[index]))
    }
    return results
  }

  @Test func theNumberFoundAheadIsTheKeysNumberFromTheTwelfthItemOn() throws {
    let results = try look(at: Self.log(count: 60), knowing: true)
    #expect(results.count == 60)
    for (index, result) in results.enumerated() {
      // The first items of a batch are never as far ahead as the first step: their keys are
      // found in their turn.
      if index < KeyLookAhead.seekDistance {
        #expect(result.found == nil, "item \(index) was never far enough ahead")
      } else {
        #expect(result.found == result.inTurn, "item \(index)")
      }
    }
    // After the first twelve, the items without a key (4) and the blank lines (4) have no
    // number; the other 40 have theirs.
    #expect(results.filter { $0.found != nil }.count == 60 - 12 - 8)
  }

  @Test func nothingIsFoundForKeysNotSeenYetOrAnotherKernelsItems() throws {
    #expect(try look(at: Self.log(count: 40), knowing: false).allSatisfy { $0.found == nil })
    // The items of a batch read without a partition are all share 0.
    #expect(
      try look(at: Self.log(count: 40), knowing: true, share: 1).allSatisfy {
        $0.found == nil
      })
    #expect(
      try look(at: Self.log(count: 40), knowing: true, share: 0).contains {
        $0.found != nil
      })
  }

  @Test func aNumberFoundForOneLineIsNotTakenForAnother() throws {
    let batch = try #require(readBatch(of: Self.log(count: 30)))
    let other = try #require(readBatch(of: Self.log(count: 30)))
    var keys: ReplayKeys? = ReplayKeys(path: try JSONPath("device"))
    for item in batch.items {
      if let envelope = item.envelope { _ = keys?.number(of: envelope, typeName: "") }
    }
    let streams = Self.streams(keys: 5)
    let router = SnapshotState(domains: Self.domains).router
    var ahead = KeyLookAhead()
    for index in 0...21 {
      ahead.look(
        from: index, in: batch.items, of: .passUnretained(batch), keys: &keys, streams: streams,
        router: router)
    }
    let envelope = try #require(batch.items[21].envelope)
    #expect(ahead.numberFound(for: envelope) != nil)
    // The same text, another line: not the one the number was found for.
    let lookalike = try #require(other.items[21].envelope)
    #expect(ahead.numberFound(for: lookalike) == nil)
  }
}
