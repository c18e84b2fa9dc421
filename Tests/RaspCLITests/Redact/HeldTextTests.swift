import Testing

@testable import RaspCLI
@testable import RaspJSON

/// The fast reading of a string's JSON text against the scanner's: the same text, the same end,
/// and each place in the text found at the same place of the string as by reading the string
/// again byte by byte; strings it leaves to the scanner are those with `\u`, UTF-8 or mistakes.
@Suite struct HeldTextTests {
  static let decoded =
    [
      #""{\"a\":1}""#,
      #""  [1,2,\"x\\\\y\"]""#,
      #""{\"ts\":\"2026-11-22T09:30:00.005Z\",\"source\":\"ui\","#
        + #"\"payload\":{\"n\":\"a\\/b\\n\\t\"}}""#,
      #""{\"long\":\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop\"}" "#,
    ] + everyPlace
  /// Each two-byte escape at each place of a word read eight bytes at a time, twice in a row,
  /// and once more after a run of plain bytes.
  static let everyPlace = (0..<16).flatMap { place in
    [#"\""#, #"\\"#, #"\/"#, #"\n"#].map { escape in
      "\"{" + String(repeating: "a", count: place) + escape + escape
        + String(repeating: "b", count: 15 - place) + escape + "}\""
    }
  }
  static let left = [
    #""{\"e\":\"\u00e9\"}""#, #""{\"é\":1}""#, #""{\"a\":1}"#, #""not JSON""#, #""{\"a\":\x}""#,
    "\"{\u{01}}\"", "\"{abcdefghij\\", "\"{abcdefghijklmn\\\"",
  ]

  @Test(arguments: decoded)
  func aStringOfTwoByteEscapesIsReadAsTheScannerReadsIt(_ string: String) throws {
    let bytes = Array(string.utf8)
    try bytes.withUnsafeBufferPointer { input in
      var text: [UInt8] = []
      var escapes: [Int] = []
      let read = try #require(HeldText.decode(input, opening: 0, into: &text, escapes: &escapes))
      var scanner = JSONScanner(input)
      let raw = try scanner.readRawString()
      #expect(read.end == scanner.position)
      let contents = scanner.bytes(of: raw)
      var expected: [UInt8] = []
      JSONScanner.unescape(contents, appendingTo: &expected)
      #expect(Array(text[..<read.count]) == expected)
      var fast = HeldText.Cursor(contents: contents, escapes: escapes, count: read.escapes)
      var slow = HeldText.Cursor(contents: contents)
      for offset in 0...read.count {
        #expect(fast.rawOffset(of: offset) == slow.rawOffset(of: offset), "\(offset)")
      }
    }
  }

  @Test(arguments: left)
  func otherStringsAreLeftToTheScanner(_ string: String) {
    let bytes = Array(string.utf8)
    bytes.withUnsafeBufferPointer { input in
      var text: [UInt8] = []
      var escapes: [Int] = []
      #expect(HeldText.decode(input, opening: 0, into: &text, escapes: &escapes) == nil)
    }
  }
}
