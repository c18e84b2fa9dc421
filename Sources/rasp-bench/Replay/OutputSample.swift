#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the benchmark keeps of a command's standard output: its size, its number of lines, and
/// its first and last lines, for comparing two tools' outputs without storing either.
///
/// The output of an every-snapshot replay of a million events is some 400 MB; the sample keeps
/// the first `limit` lines and just enough of the last blocks read to hold the last `limit`
/// lines. Made with `hashing`, it also hashes every byte (64-bit FNV-1a), so that two outputs can
/// be found equal, not only alike, still without storing either.
///
/// ```swift
/// var sample = OutputSample(limit: 2)
/// sample.consume(Array("a\nb\nc\nd\n".utf8))
/// sample.lineCount   // 4
/// sample.head        // ["a", "b"]
/// sample.tail        // ["c", "d"]
///
/// var hashed = OutputSample(limit: 0, hashing: true)
/// hashed.consume(Array("a".utf8))
/// hashed.hash        // 0xaf63dc4c8601ec8c
/// ```
struct OutputSample {
  /// How many lines to keep at each end.
  let limit: Int
  /// How many lines the output had; a last line without a line end counts.
  var lineCount: Int { newlines + (endsMidLine ? 1 : 0) }
  /// How many bytes the output had.
  private(set) var byteCount = 0
  /// The first `limit` lines, without their line ends.
  private(set) var head: [[UInt8]] = []
  /// The 64-bit FNV-1a hash of every byte, or `nil` when the sample was made without hashing.
  private(set) var hash: UInt64?

  private var newlines = 0
  private var endsMidLine = false
  private var partialHead: [UInt8] = []
  /// The last blocks read, with how many line ends each holds.
  private var blocks: [(bytes: [UInt8], newlines: Int)] = []

  /// The FNV-1a offset basis, the hash of no bytes.
  static let emptyHash: UInt64 = 0xCBF2_9CE4_8422_2325
  /// The FNV-1a prime for 64 bits.
  static let hashPrime: UInt64 = 0x100_0000_01B3

  /// Creates an empty sample.
  ///
  /// - Parameters:
  ///   - limit: How many lines to keep at each end.
  ///   - hashing: Whether to hash every byte into ``hash``.
  init(limit: Int, hashing: Bool = false) {
    self.limit = limit
    hash = hashing ? Self.emptyHash : nil
  }

  /// Takes the next bytes of the output.
  ///
  /// - Parameter bytes: The bytes, in the order the command wrote them.
  mutating func consume(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    byteCount += bytes.count
    if var value = hash {
      for byte in bytes { value = (value ^ UInt64(byte)) &* Self.hashPrime }
      hash = value
    }
    var blockNewlines = 0
    var start = 0
    while start < bytes.count,
      let found = memchr(base + start, 0x0A, bytes.count - start)
    {
      let end = base.distance(to: UnsafeRawPointer(found))
      if head.count < limit {
        partialHead.append(contentsOf: bytes[start..<end])
        head.append(partialHead)
        partialHead.removeAll()
      }
      blockNewlines += 1
      start = end + 1
    }
    if head.count < limit, start < bytes.count {
      partialHead.append(contentsOf: bytes[start...])
    }
    newlines += blockNewlines
    endsMidLine = start < bytes.count
    guard limit > 0 else { return }
    blocks.append((Array(bytes), blockNewlines))
    // Keep the fewest blocks whose line ends, after the first block's, still cover `limit` lines.
    while blocks.count > 1,
      blocks.dropFirst().reduce(0, { $0 + $1.newlines }) > limit
    {
      blocks.removeFirst()
    }
  }

  /// Takes the next bytes of the output.
  ///
  /// - Parameter bytes: The bytes.
  mutating func consume(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { consume($0) }
  }

  /// The last `limit` lines (fewer when the output is shorter), without their line ends.
  var tail: [[UInt8]] {
    let joined = blocks.flatMap(\.bytes)
    var lines = joined.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if lines.last?.isEmpty == true, !endsMidLine { lines.removeLast() }
    // The first piece may be the end of a line that started in a block no longer kept.
    let complete = min(lines.count, lineCount)
    return Array(lines.suffix(min(limit, complete)))
  }

  /// The last line, or `nil` for an empty output.
  var lastLine: [UInt8]? { tail.last }
}
