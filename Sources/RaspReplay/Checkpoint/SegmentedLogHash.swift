/// The hash a checkpoint keeps of a log's first bytes: the log cut into segments of 64 MiB
/// (from its first byte), each hashed alone with ``LogHash``, and the segments' hashes hashed
/// together — so that a resume checks the segments on every core at once, and a replay hashes
/// the bytes as it reads them.
///
/// The hash of the first `count` bytes is the ``LogHash`` of, as little-endian 64-bit words:
/// each whole segment's hash, in order; the hash of the bytes after the last whole segment
/// (of no bytes, when there are none); and `count`.
///
/// ```swift
/// var hash = SegmentedLogHash()
/// hash.update(bytes)   // in pieces of any size
/// hash.hexadecimal     // what `"hash"` says in a checkpoint
/// ```
package struct SegmentedLogHash: Sendable, Equatable {
  /// The bytes of a segment.
  package static let standardSegmentSize = 1 << 26

  /// The bytes of a segment: ``standardSegmentSize``, or fewer in tests.
  package let segmentSize: Int
  /// The hashes of the whole segments.
  package private(set) var segments: [UInt64]
  /// The hash of the bytes after them.
  package private(set) var last: LogHash
  /// How many bytes were hashed.
  package var count: UInt64 { UInt64(segments.count * segmentSize) + last.count }

  /// A hash of no bytes yet.
  package init(segmentSize: Int = standardSegmentSize) {
    self.init(segments: [], last: LogHash(), segmentSize: segmentSize)
  }

  /// The hash of bytes whose whole segments hash as `segments`, and whose bytes after them as
  /// `last` (fewer than a segment): what a resume puts together from segments hashed apart.
  package init(segments: [UInt64], last: LogHash, segmentSize: Int = standardSegmentSize) {
    self.segmentSize = segmentSize
    self.segments = segments
    self.last = last
  }

  /// Adds bytes.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var rest = bytes
    while !rest.isEmpty {
      let room = segmentSize - Int(last.count)
      let taken = min(room, rest.count)
      last.update(UnsafeRawBufferPointer(rebasing: rest[0..<taken]))
      rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
      if taken == room {
        segments.append(last.value)
        last = LogHash()
      }
    }
  }

  /// Adds bytes.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The hash of every byte added so far.
  package var value: UInt64 {
    var words = segments
    words.append(last.value)
    words.append(count)
    var outer = LogHash()
    for word in words {
      withUnsafeBytes(of: word.littleEndian) { outer.update($0) }
    }
    return outer.value
  }

  /// The hash as 16 hexadecimal digits, as a checkpoint writes it.
  package var hexadecimal: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
