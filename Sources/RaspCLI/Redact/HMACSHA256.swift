/// HMAC-SHA256 (RFC 2104, FIPS 198-1) for `rasp redact`'s `hash` action: a keyed hash, so that
/// equal values stay equal and no one without the key can test a guess (an email address)
/// against the hash.
///
/// The key's inner and outer blocks are compressed once, when the code is made: each message
/// then costs the compression of its own blocks and of one outer block, and allocates nothing.
///
/// ```swift
/// var code = HMACSHA256(key: Array("key".utf8))
/// code.hexDigest(of: Array("bob@example.com".utf8))   // 64 hexadecimal digits
/// ```
struct HMACSHA256 {
  /// SHA-256's block size, in bytes.
  private static let blockSize = 64

  /// The state after the key's inner block, `K ^ ipad`, and after its outer block, `K ^ opad`.
  private let inner: SHA256State
  private let outer: SHA256State

  /// Prepares the code of one key.
  ///
  /// A key longer than a block is hashed first, and a shorter one padded with zeros, as the
  /// RFC says.
  ///
  /// - Parameter key: The secret key, any length.
  init(key: [UInt8]) {
    var block = key
    if block.count > Self.blockSize {
      var state = SHA256State()
      block = state.digest(block)
    }
    block += [UInt8](repeating: 0, count: Self.blockSize - block.count)
    var inner = SHA256State()
    var outer = SHA256State()
    let innerBlock = block.map { $0 ^ 0x36 }
    let outerBlock = block.map { $0 ^ 0x5c }
    innerBlock.withUnsafeBufferPointer { inner.compress($0.baseAddress.unsafelyUnwrapped) }
    outerBlock.withUnsafeBufferPointer { outer.compress($0.baseAddress.unsafelyUnwrapped) }
    self.inner = inner
    self.outer = outer
  }

  /// Writes the 32-byte code of `message` to `output`, which has room for 32 bytes.
  ///
  /// - Parameters:
  ///   - message: The bytes to authenticate.
  ///   - output: Where the code goes: `SHA256((K ^ opad) || SHA256((K ^ ipad) || message))`.
  func digest(of message: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
    var state = inner
    state.finish(message, lengthBefore: Self.blockSize, into: output)
    var second = outer
    second.finish(
      UnsafeBufferPointer(start: output, count: 32), lengthBefore: Self.blockSize, into: output)
  }

  /// Appends the code of `message`, as 64 lower-case hexadecimal digits, to `text`.
  ///
  /// - Parameters:
  ///   - message: The bytes to authenticate.
  ///   - text: Where the digits go.
  func appendHexDigest(of message: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { buffer in
      let base = buffer.baseAddress.unsafelyUnwrapped
      let digits = base + 32
      digest(of: message, into: base)
      for index in 0..<32 {
        let byte = base[index]
        digits[2 &* index] = Self.hexDigit(byte &>> 4)
        digits[2 &* index &+ 1] = Self.hexDigit(byte & 0x0f)
      }
      text.append(contentsOf: UnsafeBufferPointer(start: digits, count: 64))
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ value &- 10
  }

  /// The 32-byte code of `message` under `key`.
  ///
  /// - Parameters:
  ///   - key: The secret key.
  ///   - message: The bytes to authenticate.
  /// - Returns: The code.
  static func digest(key: [UInt8], message: [UInt8]) -> [UInt8] {
    let code = HMACSHA256(key: key)
    var output = [UInt8](repeating: 0, count: 32)
    message.withUnsafeBufferPointer { message in
      output.withUnsafeMutableBufferPointer {
        code.digest(of: message, into: $0.baseAddress.unsafelyUnwrapped)
      }
    }
    return output
  }

  /// The code of `message` under `key`, as 64 lower-case hexadecimal digits.
  ///
  /// - Parameters:
  ///   - key: The secret key.
  ///   - message: The bytes to authenticate.
  /// - Returns: The code in hexadecimal.
  static func hexDigest(key: [UInt8], message: [UInt8]) -> String {
    var text: [UInt8] = []
    message.withUnsafeBufferPointer { HMACSHA256(key: key).appendHexDigest(of: $0, to: &text) }
    return String(decoding: text, as: UTF8.self)
  }
}

/// The codes of the values hashed last, by value: a value that comes again (a user's id, on
/// each of their events) costs a lookup instead of two SHA-256 compressions.
///
/// One slot per value, chosen by an FNV-1a hash of its text; a value takes the slot of the one
/// before it there. Values longer than ``keyLimit`` are not kept.
struct HMACSHA256Cache {
  static let slots = 4096
  static let keyLimit = 56
  private var lengths = [Int](repeating: -1, count: slots)
  private var keys = [UInt8](repeating: 0, count: slots * keyLimit)
  private var codes = [UInt8](repeating: 0, count: slots * 64)

  /// Appends the hexadecimal code of `message` under `code` to `text`, from the cache or
  /// computed (and kept).
  mutating func appendHexDigest(
    of message: UnsafeBufferPointer<UInt8>, by code: HMACSHA256, to text: inout [UInt8]
  ) {
    let count = message.count
    guard count <= Self.keyLimit else { return code.appendHexDigest(of: message, to: &text) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in message { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let slot = Int(truncatingIfNeeded: (hash ^ hash &>> 29) & UInt64(Self.slots - 1))
    let keyStart = slot * Self.keyLimit
    let codeStart = slot * 64
    if lengths[slot] == count,
      keys.withUnsafeBufferPointer({
        Redactor.same(UnsafeBufferPointer(rebasing: $0[keyStart..<keyStart + count]), message)
      })
    {
      text.append(contentsOf: codes[codeStart..<codeStart + 64])
      return
    }
    let before = text.count
    code.appendHexDigest(of: message, to: &text)
    lengths[slot] = count
    keys.withUnsafeMutableBufferPointer { keys in
      if count > 0 {
        (keys.baseAddress.unsafelyUnwrapped + keyStart).update(
          from: message.baseAddress.unsafelyUnwrapped, count: count)
      }
    }
    codes.replaceSubrange(codeStart..<codeStart + 64, with: text[before..<before + 64])
  }
}
