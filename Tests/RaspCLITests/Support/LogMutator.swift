import RaspTestSupport

/// Damages valid logs the way crashed apps, truncated uploads and careless editors do, from a
/// seed, so that a failing case can be replayed exactly.
///
/// ```swift
/// var mutator = LogMutator(seed: 7)
/// let damaged = mutator.mutate(Array(log.utf8))   // one to four flips, drops, duplicates, cuts
/// ```
struct LogMutator {
  /// Where the randomness comes from: its sequence depends only on the seed.
  private var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// The next 64 random bits.
  mutating func next() -> UInt64 { generator.next() }

  /// A random number in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// Bytes that mean something to a JSON-lines reader, and a few that are never valid.
  static let interesting: [[UInt8]] = [
    [0x0A], [0x0D], [0x0D, 0x0A], [0x22], [0x5C], [0x7B], [0x7D], [0x5B], [0x5D], [0x2C], [0x3A],
    [0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], Array(#"\ud800"#.utf8),
    Array("1e999".utf8), Array("NaN".utf8), Array("null".utf8), Array(#""type":"x.y""#.utf8),
  ]

  /// `bytes` with one to four random mutations.
  mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    for _ in 0...below(4) { mutateOnce(&result) }
    return result
  }

  private mutating func mutateOnce(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else {
      bytes = Self.interesting[below(Self.interesting.count)]
      return
    }
    let at = below(bytes.count)
    let length = min(1 + below(12), bytes.count - at)
    switch below(7) {
    case 0: bytes[at] = UInt8(truncatingIfNeeded: next())  // overwrite a byte
    case 1: bytes[at] ^= 1 << UInt8(below(8))  // flip a bit
    case 2: bytes.removeSubrange(at..<at + length)  // drop bytes
    case 3: bytes.insert(contentsOf: bytes[at..<at + length], at: at)  // duplicate bytes
    case 4: bytes.removeSubrange(at...)  // truncate
    case 5: bytes.insert(contentsOf: Self.interesting[below(Self.interesting.count)], at: at)
    default:  // swap two lines
      var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
      guard lines.count > 1 else { return }
      lines.swapAt(below(lines.count), below(lines.count))
      bytes = Array(lines.joined(separator: [0x0A]))
    }
  }
}
