/// HMAC-SHA256 (RFC 2104, FIPS 198-1) on the package's own ``SHA256``, for `rasp redact`'s
/// `hash` action: a keyed hash, so that equal values stay equal and no one without the key can
/// test a guess (an email address) against the hash.
///
/// ```swift
/// HMACSHA256.hexDigest(key: Array("key".utf8), message: Array("bob@example.com".utf8))
/// // 64 hexadecimal digits
/// ```
enum HMACSHA256 {
  /// SHA-256's block size, in bytes.
  private static let blockSize = 64

  /// The 32-byte authentication code of `message` under `key`.
  ///
  /// A key longer than a block is hashed first, and a shorter one padded with zeros, as the
  /// RFC says.
  ///
  /// - Parameters:
  ///   - key: The secret key, any length.
  ///   - message: The bytes to authenticate.
  /// - Returns: `SHA256((K ^ opad) || SHA256((K ^ ipad) || message))`.
  static func digest(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var block = key.count > blockSize ? SHA256.digest(of: key) : key
    block += [UInt8](repeating: 0, count: blockSize - block.count)
    let inner = SHA256.digest(of: block.map { $0 ^ 0x36 } + message)
    return SHA256.digest(of: block.map { $0 ^ 0x5c } + inner)
  }

  /// The authentication code of `message` under `key`, as 64 lower-case hexadecimal digits.
  ///
  /// - Parameters:
  ///   - key: The secret key.
  ///   - message: The bytes to authenticate.
  /// - Returns: The digest in hexadecimal.
  static func hexDigest(key: [UInt8], message: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in digest(key: key, message: message) {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
