import RaspJSON

/// The JSON text a string holds (a kcat message's `payload`), read out of the string's escaped
/// bytes, and the way back from a place in the text to its place in the string.
///
/// ``decode(_:opening:into:escapes:)`` is the fast way for the common string: ASCII, whose
/// escapes are the two-byte ones (`\"`, `\\`, `\n`, …). It goes over eight bytes at a time
/// while none of them is a quote, a backslash, a control character or beyond ASCII, copying
/// them as they are, validates the string as it decodes it, and keeps where each escape's byte
/// is in the text; anything else (a `\u` escape, UTF-8, a mistake) is left to the scanner.
///
/// ```swift
/// var text: [UInt8] = [], escapes: [Int] = []
/// if let (end, count, escaped) = HeldText.decode(
///   line, opening: 11, into: &text, escapes: &escapes)
/// {
///   var cursor = HeldText.Cursor(contents: contents, escapes: escapes, count: escaped)
///   let place = cursor.rawOffset(of: 12)   // where the text's 13th byte is written
/// }
/// ```
enum HeldText {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Decodes the string whose opening quote is at `opening`, when it is ASCII with two-byte
  /// escapes only and holds an object or array (its first byte not a space is `{` or `[`).
  ///
  /// - Parameters:
  ///   - input: The text the string is in.
  ///   - opening: Where its opening quote is.
  ///   - text: Where its decoded bytes go, from the start; grown as needed, not shrunk.
  ///   - escapes: Where the offset in the text of each escape's byte goes, from the start;
  ///     grown as needed, not shrunk.
  /// - Returns: Where the string ends (after its closing quote), how many bytes of `text` it
  ///   decoded into and how many escapes it had; `nil` for any other string, which is then to
  ///   be read by the scanner.
  static func decode(
    _ input: UnsafeBufferPointer<UInt8>, opening: Int, into text: inout [UInt8],
    escapes: inout [Int]
  ) -> (end: Int, count: Int, escapes: Int)? {
    let count = input.count
    var first = opening + 1
    while first < count, input[first] == UInt8(ascii: " ") { first += 1 }
    guard first < count, input[first] == UInt8(ascii: "{") || input[first] == UInt8(ascii: "[")
    else { return nil }
    let room = count - opening
    if text.count < room { text = [UInt8](repeating: 0, count: Swift.max(room, text.count * 2)) }
    // An escape takes two bytes of the string.
    if escapes.count < room / 2 { escapes = [Int](repeating: 0, count: room) }
    let base = input.baseAddress.unsafelyUnwrapped
    return text.withUnsafeMutableBufferPointer { buffer in
      escapes.withUnsafeMutableBufferPointer { escapes in
        decode(
          base, count: count, opening: opening, into: buffer.baseAddress.unsafelyUnwrapped,
          escapes: escapes.baseAddress.unsafelyUnwrapped)
      }
    }
  }

  /// Decodes from `opening`, as the other `decode` says, into buffers with room enough.
  private static func decode(
    _ base: UnsafePointer<UInt8>, count: Int, opening: Int,
    into output: UnsafeMutablePointer<UInt8>,
    escapes: UnsafeMutablePointer<Int>
  ) -> (end: Int, count: Int, escapes: Int)? {
    var index = opening + 1
    var written = 0
    var escapeCount = 0
    while true {
      // Eight bytes at a time, while none of them needs a look.
      while index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let flags =
          ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash
            | (word &- 0x2020_2020_2020_2020) & ~word | word) & highs
        UnsafeMutableRawPointer(output + written).storeBytes(of: word, as: UInt64.self)
        if flags != 0 {
          // The lowest byte flagged is one that needs a look; those above it may not be.
          let clear = flags.trailingZeroBitCount >> 3
          index += clear
          written += clear
          // `\"` and `\\`, a kcat event's every few bytes, without leaving the loop.
          if base[index] == UInt8(ascii: "\\"), index + 1 < count {
            let escaped = base[index + 1]
            if escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") {
              escapes[escapeCount] = written
              escapeCount += 1
              output[written] = escaped
              written += 1
              index += 2
              continue
            }
          }
          break
        }
        index += 8
        written += 8
      }
      guard index < count else { return nil }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") { return (index + 1, written, escapeCount) }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < count else { return nil }
        let decoded: UInt8
        switch base[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        default: return nil
        }
        escapes[escapeCount] = written
        escapeCount += 1
        output[written] = decoded
        written += 1
        index += 2
        continue
      }
      guard byte >= 0x20, byte < 0x80 else { return nil }
      output[written] = byte
      written += 1
      index += 1
    }
  }

  /// Finds, in a string's escaped contents, where the bytes of its decoded text are: a byte
  /// of the text is written as itself or as an escape (`\"`, `\u00e9`, a surrogate pair).
  struct Cursor {
    let contents: UnsafeBufferPointer<UInt8>
    /// The text's offsets of the two-byte escapes, when the string was read by ``decode``.
    private let escapes: [Int]?
    private let escapeCount: Int
    private var raw = 0
    private var decoded = 0
    private var escape = 0

    /// - Parameters:
    ///   - contents: The string's bytes between its quotes.
    ///   - escapes: What ``HeldText/decode(_:opening:into:escapes:)`` kept of them, if it read
    ///     the string; else the contents are read again.
    ///   - count: How many escapes it kept.
    init(contents: UnsafeBufferPointer<UInt8>, escapes: [Int]? = nil, count: Int = 0) {
      self.contents = contents
      self.escapes = escapes
      self.escapeCount = count
    }

    /// The offset in the contents of the escape (or byte) that writes the text's byte at
    /// `target`; `target`s asked for must not decrease.
    mutating func rawOffset(of target: Int) -> Int {
      if let escapes {
        // Each escape before the byte took one byte more than it gave.
        while escape < escapeCount, escapes[escape] < target { escape += 1 }
        return target + escape
      }
      while decoded < target, raw < contents.count {
        guard contents[raw] == UInt8(ascii: "\\"), raw + 1 < contents.count else {
          raw += 1
          decoded += 1
          continue
        }
        guard contents[raw + 1] == UInt8(ascii: "u"), raw + 5 < contents.count else {
          raw += 2
          decoded += 1
          continue
        }
        let unit = hex(at: raw + 2)
        if (0xD800...0xDBFF).contains(unit), raw + 11 < contents.count,
          contents[raw + 6] == UInt8(ascii: "\\"), contents[raw + 7] == UInt8(ascii: "u"),
          (0xDC00...0xDFFF).contains(hex(at: raw + 8))
        {
          raw += 12
          decoded += 4
          continue
        }
        raw += 6
        decoded += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
      }
      return raw
    }

    private func hex(at offset: Int) -> UInt32 {
      var value: UInt32 = 0
      for byte in contents[offset..<offset + 4] {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: digit = 0
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
  }
}
