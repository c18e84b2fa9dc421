extension JSONWriter {
  /// Writes a string in double quotes, escaped per RFC 8259.
  ///
  /// ```swift
  /// writer.writeString("a\"b\n")   // "a\"b\n"
  /// ```
  ///
  /// - Parameter text: The string.
  @inlinable
  public mutating func writeString(_ text: String) {
    // Read where it is: a copy to make contiguous (`withUTF8`) would retain and release
    // a string stored on the heap, and each retain waits for what was read before it.
    let written: Void? = text.utf8.withContiguousStorageIfAvailable { writeString(utf8: $0) }
    if written == nil {
      var text = text
      text.withUTF8 { writeString(utf8: $0) }
    }
  }

  /// Writes UTF-8 text in double quotes, escaped per RFC 8259.
  ///
  /// The text must be valid UTF-8; only the characters JSON requires (and DEL) are escaped.
  /// The bytes are looked at eight at a time while none of them is to be escaped, and copied
  /// in runs.
  ///
  /// ```swift
  /// writer.writeString(utf8: scanner.bytes(of: key))
  /// ```
  ///
  /// - Parameter utf8: The text's bytes.
  @inlinable
  package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      if let base = utf8.baseAddress {
        while index + 8 <= count {
          let word = UInt64(
            littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
          let flags = Self.escapeFlags(word)
          if flags != 0 {
            index += flags.trailingZeroBitCount >> 3
            break
          }
          index += 8
        }
        guard index < count else { break }
      }
      let byte = utf8[index]
      if Self.isEscaped(byte) {
        if runStart < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        }
        appendEscape(byte)
        runStart = index + 1
      }
      index += 1
    }
    if runStart < count {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The high bit of each byte of `word` (little-endian) that may be one to escape: the
  /// lowest bit set, if any, is that of the first such byte; those above it may be false.
  @inlinable
  @inline(__always)
  static func escapeFlags(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ 0x2222_2222_2222_2222
    let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
    let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
    let flags =
      (quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (delete &- ones) & ~delete
      | (word &- 0x2020_2020_2020_2020) & ~word
    return flags & 0x8080_8080_8080_8080
  }

  /// Whether a byte of a string is written escaped: a control character, `"`, `\` or DEL.
  @inlinable
  @inline(__always)
  static func isEscaped(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
  }

  /// The letter after the backslash of a byte with a short escape (`\"`, `\\`, `\n`, `\r`, `\t`,
  /// `\b`, `\f`); `nil` for the other bytes escaped, written `\u00XX`.
  @inlinable
  @inline(__always)
  static func escapeLetter(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "\""): UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): UInt8(ascii: "\\")
    case 0x0A: UInt8(ascii: "n")
    case 0x0D: UInt8(ascii: "r")
    case 0x09: UInt8(ascii: "t")
    case 0x08: UInt8(ascii: "b")
    case 0x0C: UInt8(ascii: "f")
    default: nil
    }
  }

  @usableFromInline
  mutating func appendEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    if let letter = Self.escapeLetter(byte) {
      bytes.append(letter)
      return
    }
    let digits: StaticString = "0123456789abcdef"
    bytes.append(UInt8(ascii: "u"))
    bytes.append(UInt8(ascii: "0"))
    bytes.append(UInt8(ascii: "0"))
    bytes.append(digits.utf8Start[Int(byte >> 4)])
    bytes.append(digits.utf8Start[Int(byte & 0x0F)])
  }
}
