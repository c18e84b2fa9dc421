/// The location of a string's contents in a scanner's buffer, without its quotes.
///
/// Reading a key or a string as a `JSONRawString` validates it (escapes, UTF-8, control
/// characters) but decodes nothing, so comparing a key with a known name costs a byte
/// comparison and no allocation. ``JSONScanner/string(_:)`` decodes it when the text is needed.
///
/// ```swift
/// let key = try scanner.readRawString()
/// if scanner.matches(key, "type") { print("the event type follows") }
/// ```
public struct JSONRawString: Sendable, Equatable {
  /// The offset of the first byte after the opening quote.
  public let start: Int
  /// The offset of the closing quote.
  public let end: Int
  /// Whether the contents hold backslash escapes, so that the bytes differ from the text.
  public let hasEscapes: Bool

  /// Creates a raw string from its offsets.
  ///
  /// ```swift
  /// let raw = JSONRawString(start: 1, end: 5, hasEscapes: false)
  /// ```
  ///
  /// - Parameters:
  ///   - start: The offset after the opening quote.
  ///   - end: The offset of the closing quote.
  ///   - hasEscapes: Whether the contents hold escapes.
  @inlinable
  public init(start: Int, end: Int, hasEscapes: Bool) {
    self.start = start
    self.end = end
    self.hasEscapes = hasEscapes
  }
}

extension JSONScanner {
  /// Reads a string and returns where its contents are, validating but not decoding them.
  ///
  /// ```swift
  /// let raw = try scanner.readRawString()
  /// let text = scanner.string(raw)
  /// ```
  ///
  /// - Returns: The location of the contents.
  /// - Throws: ``JSONError`` for a missing or unterminated string, a bad escape, invalid UTF-8
  ///   or a raw control character.
  @inlinable
  @inline(__always)
  public mutating func readRawString() throws(JSONError) -> JSONRawString {
    skipWhitespace()
    let opening = position
    guard opening < input.count, input[opening] == UInt8(ascii: "\"") else {
      throw expectedValue("a string")
    }
    let start = opening + 1
    var index = start
    // The common case: printable ASCII without escapes, up to the closing quote.
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "\"") {
        position = index + 1
        return JSONRawString(start: start, end: index, hasEscapes: false)
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      index += 1
    }
    position = index
    return try readRawStringSlowly(opening: opening)
  }

  /// Reads the rest of a string that holds escapes, non-ASCII text or an error.
  @usableFromInline
  @inline(never)
  mutating func readRawStringSlowly(opening: Int) throws(JSONError) -> JSONRawString {
    var hasEscapes = false
    while position < input.count {
      let byte = input[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return JSONRawString(start: opening + 1, end: position - 1, hasEscapes: hasEscapes)
      }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        try skipEscape(inStringAt: opening)
      } else if byte < 0x20 {
        throw JSONError(offset: position, reason: .controlCharacterInString(byte))
      } else if byte < 0x80 {
        position += 1
      } else {
        try skipUTF8Sequence()
      }
    }
    throw JSONError(offset: opening, reason: .unterminatedString)
  }

  /// Reads a string value and decodes it.
  ///
  /// ```swift
  /// let screen = try scanner.readString()   // "home"
  /// ```
  ///
  /// - Returns: The decoded text.
  /// - Throws: ``JSONError`` as ``readRawString()`` does.
  @inlinable
  public mutating func readString() throws(JSONError) -> String {
    let raw = try readRawString()
    return string(raw)
  }

  /// Decodes a raw string that this scanner read.
  ///
  /// ```swift
  /// let key = try scanner.readRawString()
  /// print(scanner.string(key))
  /// ```
  ///
  /// - Parameter raw: A raw string read from this scanner's buffer.
  /// - Returns: The text, with escapes decoded.
  @inlinable
  public func string(_ raw: JSONRawString) -> String {
    let contents = UnsafeBufferPointer(rebasing: input[raw.start..<raw.end])
    guard raw.hasEscapes else { return String(decoding: contents, as: UTF8.self) }
    return JSONScanner.unescape(contents)
  }

  /// Whether a raw string that this scanner read is exactly `text`.
  ///
  /// Compares bytes without decoding, unless the raw string holds escapes.
  ///
  /// ```swift
  /// if scanner.matches(key, "payload") { payloadStart = scanner.position }
  /// ```
  ///
  /// - Parameters:
  ///   - raw: A raw string read from this scanner's buffer.
  ///   - text: The text to compare with.
  /// - Returns: `true` when the decoded string equals `text`.
  @inlinable
  public func matches(_ raw: JSONRawString, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    if raw.hasEscapes {
      let decoded = string(raw)
      return decoded.utf8.elementsEqual(
        UnsafeBufferPointer(start: text.utf8Start, count: count))
    }
    guard raw.end - raw.start == count else { return false }
    let base = text.utf8Start
    for index in 0..<count where input[raw.start + index] != base[index] { return false }
    return true
  }

  /// The bytes of a raw string without escapes, for comparing with bytes held elsewhere; valid
  /// as long as the scanner's buffer.
  ///
  /// ```swift
  /// let bytes = scanner.bytes(of: key)
  /// ```
  ///
  /// - Parameter raw: A raw string read from this scanner's buffer.
  /// - Returns: The contents exactly as written, escapes included.
  @inlinable
  package func bytes(of raw: JSONRawString) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: input[raw.start..<raw.end])
  }

  @inlinable
  mutating func skipEscape(inStringAt opening: Int) throws(JSONError) {
    let backslash = position
    position += 1
    guard position < input.count else {
      throw JSONError(offset: opening, reason: .unterminatedString)
    }
    switch input[position] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      position += 1
    case UInt8(ascii: "u"):
      let unit = try readHexQuad(at: position + 1, escapeAt: backslash)
      position += 5
      if unit >= 0xD800 && unit <= 0xDBFF {
        let next = position
        guard next + 1 < input.count, input[next] == UInt8(ascii: "\\"),
          input[next + 1] == UInt8(ascii: "u"),
          let low = try? readHexQuad(at: next + 2, escapeAt: next), low >= 0xDC00, low <= 0xDFFF
        else {
          throw JSONError(offset: backslash, reason: .loneSurrogate(JSONScanner.hex4(unit)))
        }
        position += 6
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw JSONError(offset: backslash, reason: .loneSurrogate(JSONScanner.hex4(unit)))
      }
    default:
      throw JSONError(offset: backslash, reason: .invalidEscape(describeEscape(at: position)))
    }
  }

  @inlinable
  func readHexQuad(at offset: Int, escapeAt backslash: Int) throws(JSONError) -> UInt32 {
    guard offset + 4 <= input.count else {
      throw JSONError(offset: backslash, reason: .invalidUnicodeEscape)
    }
    var value: UInt32 = 0
    for index in offset..<(offset + 4) {
      let byte = input[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONError(offset: backslash, reason: .invalidUnicodeEscape)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Validates one multi-byte UTF-8 sequence at ``position`` and moves past it.
  ///
  /// An ill-formed sequence (a stray continuation byte, an overlong form, a surrogate, a code
  /// point beyond U+10FFFF, or a sequence cut short) is reported at its first byte, naming that
  /// byte: the byte after a truncated sequence may be a perfectly good quote.
  @inlinable
  package mutating func skipUTF8Sequence() throws(JSONError) {
    let lead = input[position]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: throw JSONError(offset: position, reason: .invalidUTF8(lead))
    }
    guard position + length <= input.count else {
      throw JSONError(offset: position, reason: .invalidUTF8(lead))
    }
    let second = input[position + 1]
    guard second >= low, second <= high else {
      throw JSONError(offset: position, reason: .invalidUTF8(lead))
    }
    for index in 2..<max(2, length) where input[position + index] & 0xC0 != 0x80 {
      throw JSONError(offset: position, reason: .invalidUTF8(lead))
    }
    position += length
  }

  /// Decodes the contents of a validated string that holds escapes.
  @usableFromInline
  static func unescape(_ contents: UnsafeBufferPointer<UInt8>) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(contents.count)
    unescape(contents, appendingTo: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes the contents of a validated string, escapes or not, appending its UTF-8 bytes to
  /// `bytes`: the JSON text a string holds (a Kafka message's payload), read without a `String`.
  ///
  /// ```swift
  /// JSONScanner.unescape(contents, appendingTo: &event)
  /// ```
  package static func unescape(
    _ contents: UnsafeBufferPointer<UInt8>, appendingTo bytes: inout [UInt8]
  ) {
    // The text is never longer than its escaped form.
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: contents.count))
    let end = bytes.withUnsafeMutableBufferPointer { output in
      unescape(contents, into: output, at: start)
    }
    bytes.removeLast(bytes.count - end)
  }

  /// Decodes the contents of a validated string into `output` from `start`, which has room for
  /// `contents.count` bytes (the text is never longer than its escaped form), and returns where
  /// the text ends.
  ///
  /// ```swift
  /// let end = JSONScanner.unescape(contents, into: buffer, at: 0)
  /// ```
  package static func unescape(
    _ contents: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
    at start: Int
  ) -> Int {
    var out = start
    var index = 0
    let count = contents.count
    while index < count {
      let byte = contents[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < count else {
        output[out] = byte
        out += 1
        index += 1
        continue
      }
      let escape = contents[index + 1]
      index += 2
      var decoded = escape
      switch escape {
      case UInt8(ascii: "b"): decoded = 0x08
      case UInt8(ascii: "f"): decoded = 0x0C
      case UInt8(ascii: "n"): decoded = 0x0A
      case UInt8(ascii: "r"): decoded = 0x0D
      case UInt8(ascii: "t"): decoded = 0x09
      case UInt8(ascii: "u"):
        var scalar = hexValue(contents, index)
        index += 4
        if scalar >= 0xD800, scalar <= 0xDBFF, index + 6 <= count {
          let low = hexValue(contents, index + 2)
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          index += 6
        }
        switch scalar {
        case 0..<0x80:
          output[out] = UInt8(scalar)
          out += 1
        case 0x80..<0x800:
          output[out] = UInt8(0xC0 | scalar >> 6)
          output[out + 1] = UInt8(0x80 | scalar & 0x3F)
          out += 2
        case 0x800..<0x10000:
          output[out] = UInt8(0xE0 | scalar >> 12)
          output[out + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
          output[out + 2] = UInt8(0x80 | scalar & 0x3F)
          out += 3
        default:
          output[out] = UInt8(0xF0 | scalar >> 18 & 0x07)
          output[out + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
          output[out + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
          output[out + 3] = UInt8(0x80 | scalar & 0x3F)
          out += 4
        }
        continue
      default: break
      }
      output[out] = decoded
      out += 1
    }
    return out
  }

  @usableFromInline
  static func hexValue(_ contents: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
    var value: UInt32 = 0
    for index in offset..<min(offset + 4, contents.count) {
      let byte = contents[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: digit = byte &- UInt8(ascii: "A") &+ 10
      }
      value = value << 4 | UInt32(digit & 0x0F)
    }
    return value
  }

  @usableFromInline
  static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
    switch value {
    case 0..<0x80:
      bytes.append(UInt8(value))
    case 0x80..<0x800:
      bytes.append(UInt8(0xC0 | value >> 6))
      bytes.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      bytes.append(UInt8(0xE0 | value >> 12))
      bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
      bytes.append(UInt8(0x80 | value & 0x3F))
    default:
      bytes.append(UInt8(0xF0 | value >> 18 & 0x07))
      bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
      bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
      bytes.append(UInt8(0x80 | value & 0x3F))
    }
  }

  @usableFromInline
  static func hex4(_ value: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    return String((0..<4).reversed().map { digits[Int((value >> (UInt32($0) * 4)) & 0xF)] })
  }
}
