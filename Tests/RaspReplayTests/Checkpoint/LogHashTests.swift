import Testing

@testable import RaspReplay

/// The hash of a checkpoint's logs, against the values of an independent implementation
/// (a few lines of Python, in the commit that added it), and whatever the pieces it is fed.
@Suite struct LogHashTests {
  static func hash(_ bytes: [UInt8]) -> String {
    var hash = LogHash()
    hash.update(bytes)
    return hash.hexadecimal
  }

  static let event = Array(#"{"type":"geo.heading","payload":{"heading":90}}"#.utf8) + [0x0A]
  static let long = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)

  @Test func knownAnswers() {
    #expect(Self.hash([]) == "889c90a68cce6156")
    #expect(Self.hash(Array("a".utf8)) == "facab539560f71f6")
    #expect(Self.hash(Array("abc".utf8)) == "9412eb22f9a1e5d3")
    #expect(Self.hash(Self.event) == "c6062d51d6a80e77")
    #expect(Self.hash(Self.long) == "95805bfac76a7a44")
  }

  @Test(arguments: [1, 3, 7, 8, 31, 32, 33, 100, 1027])
  func bytesInPiecesHashAsAWhole(pieceSize: Int) {
    var hash = LogHash()
    var start = 0
    while start < Self.long.count {
      let end = min(start + pieceSize, Self.long.count)
      hash.update(Array(Self.long[start..<end]))
      start = end
    }
    #expect(hash.hexadecimal == "95805bfac76a7a44")
    #expect(hash.count == UInt64(Self.long.count))
  }

  @Test func aChangedByteChangesTheHash() {
    var changed = Self.long
    for index in stride(from: 0, to: changed.count, by: 97) {
      changed[index] ^= 1
      #expect(Self.hash(changed) != "95805bfac76a7a44", "byte \(index)")
      changed[index] ^= 1
    }
  }
}

/// The hash of a checkpoint: segments hashed alone, then their hashes together.
@Suite struct SegmentedLogHashTests {
  static let bytes = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)

  /// The definition, put together from ``LogHash`` of the parts.
  static func expected(_ bytes: [UInt8], segmentSize: Int) -> UInt64 {
    var words: [UInt64] = []
    var start = 0
    while bytes.count - start >= segmentSize {
      var segment = LogHash()
      segment.update(Array(bytes[start..<(start + segmentSize)]))
      words.append(segment.value)
      start += segmentSize
    }
    var last = LogHash()
    last.update(Array(bytes[start...]))
    words += [last.value, UInt64(bytes.count)]
    var outer = LogHash()
    for word in words {
      withUnsafeBytes(of: word.littleEndian) { outer.update($0) }
    }
    return outer.value
  }

  @Test(arguments: [1, 7, 100, 333, 1027, 5000], [64, 100, 1027])
  func theHashIsThatOfItsSegmentsWhateverThePieces(pieceSize: Int, segmentSize: Int) {
    var hash = SegmentedLogHash(segmentSize: segmentSize)
    var start = 0
    while start < Self.bytes.count {
      let end = min(start + pieceSize, Self.bytes.count)
      hash.update(Array(Self.bytes[start..<end]))
      start = end
    }
    #expect(hash.value == Self.expected(Self.bytes, segmentSize: segmentSize))
    #expect(hash.count == UInt64(Self.bytes.count))
    #expect(hash.segments.count == Self.bytes.count / segmentSize)
  }

  @Test func noBytesAndTheStandardSegmentSize() {
    #expect(SegmentedLogHash().value == Self.expected([], segmentSize: 1 << 26))
    #expect(SegmentedLogHash.standardSegmentSize == 1 << 26)
  }

  @Test func aChangedByteOrAMovedSegmentChangesTheHash() {
    func hash(_ bytes: [UInt8]) -> UInt64 {
      var hash = SegmentedLogHash(segmentSize: 100)
      hash.update(bytes)
      return hash.value
    }
    let original = hash(Self.bytes)
    var changed = Self.bytes
    for index in stride(from: 0, to: changed.count, by: 37) {
      changed[index] ^= 1
      #expect(hash(changed) != original, "byte \(index)")
      changed[index] ^= 1
    }
    let swapped = Array(Self.bytes[100..<200] + Self.bytes[0..<100] + Self.bytes[200...])
    #expect(hash(swapped) != original)
  }
}
