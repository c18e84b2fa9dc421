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

  /// Messages of every length around SHA-256's padding edges (55, 56, 64, 119, 120 bytes), by one
  /// prepared code used again and again: codes from Python's
  /// `hmac.new(b'k3y', bytes((i * 7 + 3) & 0xff for i in range(n)), hashlib.sha256)`.
  @Test func oneKeyedCodeHashesMessagesOfEveryPaddingLength() {
    let expected: [(Int, String)] = [
      (0, "6debfeadd8df80dd8b3762fd569962db0f3bfbbe252972c28341591bf823aa2c"),
      (1, "e69eb95776f90f907e2301f7763450ef7ec4a39c861481b23d7493ebfd5a2d4c"),
      (55, "58d5be8038417a8b668e2d4713016bf136686830534dbd20c22b0fe02c17bce5"),
      (56, "40f8040ba9c7f126f02d12dd5fe21f813cb81c4a2c2380d842d079ed8b6083d4"),
      (63, "36c803587534ed2f3e9ff7976b6e96c1854906332ec298a63bb88a6af21427bf"),
      (64, "daa1f49d0fb4e8d7130d7e791252110607d08f9aa6229b8c8d8af57f19c6cfff"),
      (65, "519d0f38281ec9d62caba501b4edda379fb2400411323b27b9a182152a4778be"),
      (119, "6bf822d5ec30811bdce5a896986dbd7dbd62af75bdf54d0a7d8bb317fe958deb"),
      (120, "e01fca2a4e916e77aebe122dcff25a728df5a23503daee483d9d680617495ea7"),
      (200, "f640d1105a4a6c95c23d3624f911dc26fd6d582245b9548e999af4d700727460"),
    ]
    let code = HMACSHA256(key: Array("k3y".utf8))
    var text: [UInt8] = []
    for (count, digest) in expected {
      let message = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
      text.removeAll(keepingCapacity: true)
      message.withUnsafeBufferPointer { code.appendHexDigest(of: $0, to: &text) }
      #expect(String(decoding: text, as: UTF8.self) == digest, "length \(count)")
    }
  }
}
