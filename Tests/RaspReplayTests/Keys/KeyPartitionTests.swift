import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Which kernel of a pool handles each event (`-j N` with `--key-by`): every event of one key
/// in one share, however the key is written; the events without a key with the key `null`;
/// and the same share from the key read ahead for the kernels as from the line.
@Suite struct KeyPartitionTests {
  private static var router: Router { SnapshotState(domains: RaspBuiltinDomains.all).router }

  /// The share of each line's event among `count`, for keys at `path`.
  private func shares(_ lines: [String], path: String, count: Int) throws -> [UInt8] {
    var partition = KeyPartition(
      keys: ReplayKeys(path: try JSONPath(path)), router: Self.router, count: count)
    return try lines.map { line in
      try Array(line.utf8).withUnsafeBufferPointer { bytes in
        partition.share(of: try Envelope.parse(bytes))
      }
    }
  }

  private static func event(key: String) -> String {
    #"{"type":"geo.heading","payload":{"heading":1,"device":\#(key)}}"#
  }

  @Test func everyEventOfAKeyIsInOneShare() throws {
    let keys = (0..<200).map { "\"device-\($0)\"" }
    let first = try shares(keys.map(Self.event), path: "payload.device", count: 3)
    // Again, in another order, and each key written another way.
    let again = try shares(
      keys.reversed().map { Self.event(key: $0.replacingOccurrences(of: "d", with: #"\u0064"#)) },
      path: "payload.device", count: 3)
    #expect(Array(again.reversed()) == first)
    #expect(first.allSatisfy { $0 < 3 })
    // The keys are spread over the shares: the hash's high half is not all alike.
    let sizes = (0..<3).map { share in first.filter { $0 == share }.count }
    #expect(sizes.allSatisfy { $0 > 40 }, "\(sizes)")
  }

  @Test func anEventWithoutAKeyIsInTheShareOfTheKeyNull() throws {
    let found = try shares(
      [
        Self.event(key: "null"), #"{"type":"geo.heading","payload":{"heading":1}}"#,
        #"{"type":"nav.pop"}"#,
      ], path: "payload.device", count: 7)
    #expect(Set(found).count == 1)
  }

  @Test func anEventWhoseKeyCannotBeReadIsInTheFirstShare() throws {
    #expect(try shares([Self.event(key: "1e400")], path: "payload.device", count: 7) == [0])
  }

  @Test func aKeyOfTheTypeIsTheTypesName() throws {
    let lines = [
      #"{"type":"geo.heading","payload":{"heading":1}}"#, #"{"type":"nav.pop"}"#,
      #"{"type":"g\u0065o.heading"}"#, #"{"type":"nav.pop","payload":{}}"#,
    ]
    let found = try shares(lines, path: "type", count: 64)
    #expect(found[0] == found[2])
    #expect(found[1] == found[3])
    #expect(found[0] != found[1])
  }

  @Test func theShareOfAKeyReadAheadIsTheShareOfItsLine() throws {
    let path = try JSONPath("payload.device")
    let lines = (0..<300).map { Self.event(key: "\"d\($0 % 50)\"") }
    let fromLines = try shares(lines, path: "payload.device", count: 2)
    let items = try lines.map { line in
      try Array(line.utf8).withUnsafeBufferPointer { bytes in
        let envelope = try Envelope.parse(bytes)
        var hints = KeyHints(keys: ReplayKeys(path: path), router: Self.router)
        let item = ReplayItem(
          input: 0, lineNumber: 1, bytes: bytes, kind: .event(envelope), time: nil)
        let hint = try #require([item].withUnsafeBufferPointer { hints.read($0) }[0])
        return UInt8(ReplayKeys.share(ofHash: hint.hash, among: 2))
      }
    }
    #expect(items == fromLines)
  }

  /// The kernel the reading thread notes for each event, from the key read for its hint where
  /// there is one and from the line otherwise (a key longer than a hint holds, no key), is the
  /// one the line alone gives.
  @Test func theReadingThreadNotesEachEventsShareAsItsLineGivesIt() throws {
    let path = try JSONPath("payload.device")
    let keys = [
      #""a""#, #""a-key-longer-than-sixteen-bytes""#, "null", #""\u0061""#, "12", #"[1,{"b":2}]"#,
      #""another-key-longer-than-sixteen""#, "1e400", #""b""#,
    ]
    let lines = (0..<200).map { Self.event(key: keys[$0 % keys.count]) }
    func noted(withHints: Bool) -> [UInt8] {
      let reading = InputReading(
        ReplayInput(
          name: "log",
          source: .memory(JSONMemorySource(Array(lines.joined(separator: "\n").utf8)))),
        shouldStop: { false })
      let batcher = LineBatcher(
        input: 0, reading: reading, tracksTime: false,
        partition: KeyPartition(keys: ReplayKeys(path: path), router: Self.router, count: 5),
        keyHints: withHints ? KeyHints(keys: ReplayKeys(path: path), router: Self.router) : nil)
      guard case .batch(let batch) = batcher.nextBatch(mayWait: true) else { return [] }
      return batch.items.map(\.share)
    }
    let fromLines = try shares(lines, path: "payload.device", count: 5)
    #expect(noted(withHints: false) == fromLines)
    #expect(noted(withHints: true) == fromLines)
    #expect(Set(fromLines).count > 1)
  }
}
