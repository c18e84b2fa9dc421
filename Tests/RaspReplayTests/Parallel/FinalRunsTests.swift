import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// A keyed `--final` replay on one kernel writes its records a run of keys at a time, half of
/// each run on another thread (``FinalRuns``): each key's record is its last snapshot, as the
/// replay of every snapshot shows it, in key order, over several runs.
@Suite struct FinalRunsTests {
  /// A record's bytes and the line it tells of.
  private struct Written: Equatable {
    let text: String
    let line: Int?
    let seq: Int
  }

  private func replay(
    _ text: String, _ configure: (inout ReplayConfiguration) -> Void
  ) -> [Written] {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.errorMode = .skip
    configuration.keyPath = try? JSONPath("device")
    configure(&configuration)
    var replay = Replay(memory: text, configuration: configuration)
    var written: [Written] = []
    replay.forEachOutcome { outcome, bytes in
      guard case .record(let record) = outcome, let bytes else { return }
      written.append(
        Written(text: String(decoding: bytes, as: UTF8.self), line: record.line, seq: record.seq))
    }
    return written
  }

  @Test func eachKeysRecordIsItsLastSnapshotInKeyOrderOverSeveralRuns() throws {
    // More keys than two runs hold; keys whose order by bytes is not the order they come in.
    let keyCount = FinalRuns.runLength * 2 + 1_500
    var random = SplitMix64(seed: 3)
    func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    let lines = (0..<(keyCount * 3)).map { number -> String in
      let device = number < keyCount ? number : next(keyCount)
      let key = #""k\#(String(device * 7_919 % 100_003))""#
      return next(2) == 0
        ? #"{"device":\#(key),"type":"geo.heading","payload":{"heading":\#(next(360))}}"#
        : #"{"device":\#(key),"type":"nav.push","payload":{"screen":"s\#(next(9))"}}"#
    }
    let text = lines.joined(separator: "\n")
    let every = replay(text) { _ in }
    #expect(every.count == lines.count)
    // Each key's last record, found from every snapshot, sorted by the key's bytes.
    var last: [String: Written] = [:]
    for record in every {
      let key = try #require(record.text.split(separator: ",").first).description
      last[key] = record
    }
    #expect(last.count == keyCount)
    let expected = last.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap {
      last[$0]
    }
    let final = replay(text) { $0.isFinal = true }
    #expect(final.count == expected.count)
    // Compared as a whole, and the first difference named: the test library's own account of
    // a difference between arrays this long would take minutes.
    let same = final == expected
    #expect(same, "first difference: \(Self.firstDifference(final, expected))")
    // The kernels of a pool write their own records, one at a time: the same.
    let pooled = replay(text) {
      $0.isFinal = true
      $0.jobs = 2
    }
    let samePooled = pooled == final
    #expect(samePooled, "first difference: \(Self.firstDifference(pooled, final))")
  }

  private static func firstDifference(_ a: [Written], _ b: [Written]) -> String {
    String(describing: zip(a, b).first { $0 != $1 })
  }
}
