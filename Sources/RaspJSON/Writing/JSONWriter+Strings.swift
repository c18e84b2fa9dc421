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
    for index in 0..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
      else { continue }
      if runStart < index {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      appendEscape(byte)
      runStart = index + 1
    }
    if runStart < utf8.count {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  @usableFromInline
  mutating func appendEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    default:
      let digits: StaticString = "0123456789abcdef"
      bytes.append(UInt8(ascii: "u"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(digits.utf8Start[Int(byte >> 4)])
      bytes.append(digits.utf8Start[Int(byte & 0x0F)])
    }
  }
}
