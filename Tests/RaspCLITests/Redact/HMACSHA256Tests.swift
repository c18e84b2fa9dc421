import Testing

@testable import RaspCLI

/// HMAC-SHA256 against the test vectors of RFC 4231, section 4.
@Suite struct HMACSHA256Tests {
  static func bytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return bytes
  }

  @Test(
    arguments: [
      // Test cases 1 to 4, 6 and 7 (5 is a truncated code).
      (
        [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
      ),
      (
        Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
      ),
      (
        [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
      ),
      (
        Array(1...25), [UInt8](repeating: 0xcd, count: 50),
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
      ),
      (
        [UInt8](repeating: 0xaa, count: 131),
        Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
      ),
      (
        [UInt8](repeating: 0xaa, count: 131),
        Array(
          ("This is a test using a larger than block-size key and a larger than block-size "
            + "data. The key needs to be hashed before being used by the HMAC algorithm.").utf8),
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
      ),
    ] as [([UInt8], [UInt8], String)])
  func rfc4231TestCase(key: [UInt8], data: [UInt8], expected: String) {
    #expect(HMACSHA256.hexDigest(key: key, message: data) == expected)
    #expect(HMACSHA256.digest(key: key, message: data) == Self.bytes(expected))
  }

  @Test func rfc4231TestCase5IsTheTruncatedCode() {
    let code = HMACSHA256.digest(
      key: [UInt8](repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8))
    #expect(Array(code.prefix(16)) == Self.bytes("a3b6167473100ee06e0c796c2955552b"))
  }
}
