// Plain strings — ASCII text without escapes or control characters, as loggers write keys,
// types and most values — found eight bytes at a time: what the quick readers of envelopes
// and payloads use before they hand a line to the careful ones. (Members of the public
// scanner, not of a package type: the optimizer inlines a package type's @inlinable members
// into other modules no more than it does any call, and these are each a handful of
// instructions.)
extension JSONScanner {
  /// The offset of the closing quote of the plain string whose contents start at `start`, or
  /// -1 when the string has an escape, a control character or a non-ASCII byte before it, or
  /// does not end in `line`.
  ///
  /// ```swift
  /// JSONScanner.plainStringEnd(in: bytes, from: 2)   // 9 for `{"heading":…`
  /// ```
  @inlinable
  @inline(__always)
  package static func plainStringEnd(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let count = line.count
    var at = start
    // Eight bytes at a time: the first special byte is found from the word's mask, and the
    // string is plain exactly when that byte is its closing quote.
    if let base = line.baseAddress {
      while at + 8 <= count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
        let mask = specialByteMask(word)
        if mask != 0 {
          let special = at + mask.trailingZeroBitCount >> 3
          return line[special] == UInt8(ascii: "\"") ? special : -1
        }
        at += 8
      }
    }
    while at < count {
      let byte = line[at]
      if byte == UInt8(ascii: "\"") { return at }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return -1 }
      at += 1
    }
    return -1
  }

  /// A mask of eight bytes (read little-endian) whose lowest set bit is the high bit of the
  /// first byte that is a quote, a backslash, a control character or non-ASCII; 0 when none is.
  ///
  /// Bits above the first such byte may be set wrongly (a borrow carries into the next byte),
  /// so only the lowest set bit is meaningful.
  @inlinable
  @inline(__always)
  package static func specialByteMask(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl | word) & highs
  }
}
