/// A fast 64-bit hash of a stream of bytes, not cryptographic: how a checkpoint tells that
/// the part of a log it read is still there, unchanged. The reading thread of a replay that
/// saves checkpoints hashes the bytes as it reads them (``InputReading``).
///
/// The bytes are read eight at a time (little-endian words) into four lanes that do not wait
/// for each other, 32 bytes per step, so that hashing a log takes a fraction of the time of
/// replaying it; the lanes are then folded, the last bytes mixed in, and the result
/// avalanched, as xxHash64 does (with which it shares its primes, but not its values). Bytes
/// can arrive in pieces of any size: the hash is that of their concatenation.
///
/// ```swift
/// var hash = LogHash()
/// hash.update(Array("{\"type\":\"geo.heading\"}\n".utf8))
/// hash.value   // the same for the same bytes, on every machine
/// ```
package struct LogHash: Sendable, Equatable {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  private var lane1: UInt64 = 0x243F_6A88_85A3_08D3
  private var lane2: UInt64 = 0x1319_8A2E_0370_7344
  private var lane3: UInt64 = 0xA409_3822_299F_31D0
  private var lane4: UInt64 = 0x082E_FA98_EC4E_6C89
  /// The bytes after the last whole stripe of 32, waiting for more.
  private var pending: [UInt8] = []
  /// How many bytes were hashed.
  package private(set) var count: UInt64 = 0

  /// A hash of no bytes yet.
  package init() {
    pending.reserveCapacity(32)
  }

  /// Adds bytes.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Adds bytes.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    count &+= UInt64(bytes.count)
    var offset = 0
    if !pending.isEmpty {
      let taken = min(32 - pending.count, bytes.count)
      pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: taken))
      offset = taken
      guard pending.count == 32 else { return }
      pending.withUnsafeBytes { stripe(at: $0.baseAddress!) }
      pending.removeAll(keepingCapacity: true)
    }
    while bytes.count - offset >= 32 {
      stripe(at: base + offset)
      offset += 32
    }
    if offset < bytes.count {
      pending.append(
        contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
    }
  }

  /// Mixes 32 bytes into the four lanes.
  @inline(__always)
  private mutating func stripe(at pointer: UnsafeRawPointer) {
    lane1 = Self.round(lane1, Self.word(pointer))
    lane2 = Self.round(lane2, Self.word(pointer + 8))
    lane3 = Self.round(lane3, Self.word(pointer + 16))
    lane4 = Self.round(lane4, Self.word(pointer + 24))
  }

  @inline(__always)
  private static func word(_ pointer: UnsafeRawPointer) -> UInt64 {
    UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
  }

  @inline(__always)
  private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    rotate(lane &+ word &* prime2, 31) &* prime1
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  /// The hash of every byte added so far.
  package var value: UInt64 {
    var hash =
      Self.rotate(lane1, 1) &+ Self.rotate(lane2, 7) &+ Self.rotate(lane3, 12)
      &+ Self.rotate(lane4, 18)
    hash ^= count
    pending.withUnsafeBytes { rest in
      var offset = 0
      while rest.count - offset >= 8 {
        hash ^= Self.round(0, Self.word(rest.baseAddress! + offset))
        hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
        offset += 8
      }
      while offset < rest.count {
        hash ^= UInt64(rest[offset]) &* Self.prime5
        hash = Self.rotate(hash, 11) &* Self.prime1
        offset += 1
      }
    }
    hash ^= hash >> 33
    hash &*= Self.prime2
    hash ^= hash >> 29
    hash &*= Self.prime3
    hash ^= hash >> 32
    return hash
  }

  /// The hash as 16 hexadecimal digits, as a checkpoint writes it.
  package var hexadecimal: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
