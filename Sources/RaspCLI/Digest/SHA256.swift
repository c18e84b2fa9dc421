/// SHA-256 (FIPS 180-4), for the hashes of the report's inline script and style that its
/// Content-Security-Policy allows and for `rasp redact`'s HMAC (``HMACSHA256``): the package has
/// no crypto library. One implementation, ``SHA256State``, does the hashing for both.
///
/// ```swift
/// SHA256.base64Digest(of: Array("abc".utf8))
/// // "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
/// ```
enum SHA256 {
  /// The 32-byte digest of `message`.
  static func digest(of message: [UInt8]) -> [UInt8] {
    var state = SHA256State()
    return state.digest(message)
  }

  /// The digest in base64, as a Content-Security-Policy hash source wants it.
  static func base64Digest(of message: [UInt8]) -> String {
    base64(digest(of: message))
  }

  /// RFC 4648 base64, with padding.
  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
      let value =
        UInt32(chunk[0]) << 16 | UInt32(chunk.count > 1 ? chunk[1] : 0) << 8
        | UInt32(chunk.count > 2 ? chunk[2] : 0)
      for position in 0..<4 {
        if position <= chunk.count {
          output.append(alphabet[Int(value >> UInt32(18 - 6 * position) & 63)])
        } else {
          output.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }
}

/// SHA-256's (FIPS 180-4) eight words of state, and its compression of one 64-byte block, with
/// no allocation: the message schedule lives on the stack.
struct SHA256State {
  private var h0: UInt32 = 0x6a09_e667
  private var h1: UInt32 = 0xbb67_ae85
  private var h2: UInt32 = 0x3c6e_f372
  private var h3: UInt32 = 0xa54f_f53a
  private var h4: UInt32 = 0x510e_527f
  private var h5: UInt32 = 0x9b05_688c
  private var h6: UInt32 = 0x1f83_d9ab
  private var h7: UInt32 = 0x5be0_cd19

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// The digest of a whole message, from the initial state.
  mutating func digest(_ message: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    message.withUnsafeBufferPointer { message in
      output.withUnsafeMutableBufferPointer {
        finish(message, lengthBefore: 0, into: $0.baseAddress.unsafelyUnwrapped)
      }
    }
    return output
  }

  /// Compresses the rest of a message, `lengthBefore` bytes of which were compressed already,
  /// pads it, and writes the 32-byte digest to `output` (which may be inside `message`).
  mutating func finish(
    _ message: UnsafeBufferPointer<UInt8>, lengthBefore: Int,
    into output: UnsafeMutablePointer<UInt8>
  ) {
    let count = message.count
    var offset = 0
    if let base = message.baseAddress {
      while count - offset >= 64 {
        compress(base + offset)
        offset += 64
      }
    }
    let bits = UInt64(lengthBefore + count) &* 8
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
      let last = tail.baseAddress.unsafelyUnwrapped
      let rest = count - offset
      if let base = message.baseAddress, rest > 0 {
        last.update(from: base + offset, count: rest)
      }
      last[rest] = 0x80
      let blocks = rest + 1 + 8 > 64 ? 2 : 1
      let end = blocks * 64
      (last + rest + 1).update(repeating: 0, count: end - 8 - rest - 1)
      for index in 0..<8 {
        last[end - 8 + index] = UInt8(truncatingIfNeeded: bits >> UInt64(56 - 8 * index))
      }
      compress(last)
      if blocks == 2 { compress(last + 64) }
    }
    Self.store(h0, at: output)
    Self.store(h1, at: output + 4)
    Self.store(h2, at: output + 8)
    Self.store(h3, at: output + 12)
    Self.store(h4, at: output + 16)
    Self.store(h5, at: output + 20)
    Self.store(h6, at: output + 24)
    Self.store(h7, at: output + 28)
  }

  @inline(__always)
  private static func store(_ word: UInt32, at output: UnsafeMutablePointer<UInt8>) {
    output[0] = UInt8(truncatingIfNeeded: word >> 24)
    output[1] = UInt8(truncatingIfNeeded: word >> 16)
    output[2] = UInt8(truncatingIfNeeded: word >> 8)
    output[3] = UInt8(truncatingIfNeeded: word)
  }

  @inline(__always)
  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    // Masking shifts: a rotation, with no check of the count.
    value &>> count | value &<< (32 &- count)
  }

  /// Compresses one 64-byte block into the state.
  mutating func compress(_ block: UnsafePointer<UInt8>) {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
      let w = schedule.baseAddress.unsafelyUnwrapped
      for index in 0..<16 {
        let base = block + index * 4
        w[index] =
          UInt32(base[0]) << 24 | UInt32(base[1]) << 16 | UInt32(base[2]) << 8 | UInt32(base[3])
      }
      for index in 16..<64 {
        let x = w[index - 15]
        let y = w[index - 2]
        let s0 = Self.rotate(x, 7) ^ Self.rotate(x, 18) ^ (x >> 3)
        let s1 = Self.rotate(y, 17) ^ Self.rotate(y, 19) ^ (y >> 10)
        w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
      Self.roundConstants.withUnsafeBufferPointer { constants in
        let k = constants.baseAddress.unsafelyUnwrapped
        for index in 0..<64 {
          let s1 = Self.rotate(e, 6) ^ Self.rotate(e, 11) ^ Self.rotate(e, 25)
          let choice = g ^ (e & (f ^ g))
          let t1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
          let s0 = Self.rotate(a, 2) ^ Self.rotate(a, 13) ^ Self.rotate(a, 22)
          let majority = (a & b) | (c & (a | b))
          let t2 = s0 &+ majority
          h = g
          g = f
          f = e
          e = d &+ t1
          d = c
          c = b
          b = a
          a = t1 &+ t2
        }
      }
      h0 &+= a
      h1 &+= b
      h2 &+= c
      h3 &+= d
      h4 &+= e
      h5 &+= f
      h6 &+= g
      h7 &+= h
    }
  }
}
