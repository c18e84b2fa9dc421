extension JSONScanner {
  /// Describes the byte at `offset` for a message: `'x'`, `end of input`, `a NUL byte`.
  ///
  /// ```swift
  /// scanner.describe(at: 0)   // "'{'"
  /// ```
  ///
  /// - Parameter offset: A byte offset in the buffer.
  /// - Returns: A short description of what is there.
  public func describe(at offset: Int) -> String {
    guard offset < input.count else { return "end of input" }
    let byte = input[offset]
    switch byte {
    case 0: return "a NUL byte"
    case 0x01..<0x20, 0x7F: return "control character U+00\(JSONError.hex(byte))"
    case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
    default:
      var probe = JSONScanner(input, position: offset)
      guard (try? probe.skipUTF8Sequence()) != nil else {
        return "invalid UTF-8 byte 0x\(JSONError.hex(byte))"
      }
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: input[offset..<probe.position]), as: UTF8.self)
      if text == "\u{FEFF}" { return "a byte order mark (U+FEFF)" }
      return "'\(text)'"
    }
  }

  @usableFromInline
  func unexpectedEnd(expected: String, openedAt opening: Int? = nil) -> JSONError {
    if let opening {
      let container = input[opening] == UInt8(ascii: "{") ? "object" : "array"
      return JSONError(
        offset: position, reason: .unterminatedContainer(container, expected: expected))
    }
    return JSONError(offset: position, reason: .unexpectedEnd(expected: expected))
  }

  /// The error for a comma directly before the closing bracket at ``position``, reported at
  /// the comma (found again here, off the hot path).
  @usableFromInline
  func trailingComma(before closing: String) -> JSONError {
    var comma = position - 1
    while comma > 0, input[comma] != UInt8(ascii: ",") { comma -= 1 }
    return JSONError(offset: comma, reason: .trailingComma(before: closing))
  }

  /// The error for text after a complete value, at ``position``.
  @usableFromInline
  func trailingContent() -> JSONError {
    let byte = input[position]
    if byte == 0 { return JSONError(offset: position, reason: .nulByte) }
    if isByteOrderMark(at: position) { return JSONError(offset: position, reason: .byteOrderMark) }
    if byte >= 0x80 {
      var probe = self
      do throws(JSONError) {
        try probe.skipUTF8Sequence()
      } catch {
        return error
      }
    }
    return JSONError(offset: position, reason: .trailingContent(found: describe(at: position)))
  }

  /// Whether the bytes at `offset` are a UTF-8 byte order mark.
  @usableFromInline
  func isByteOrderMark(at offset: Int) -> Bool {
    offset + 2 < input.count && input[offset] == 0xEF && input[offset + 1] == 0xBB
      && input[offset + 2] == 0xBF
  }

  /// The error for a value of the wrong kind, or for text that is no value at all.
  @usableFromInline
  func expectedValue(_ expected: String) -> JSONError {
    guard position < input.count else { return unexpectedEnd(expected: expected) }
    if (try? JSONScanner(input, position: position).peekKindWithoutSkipping()) != nil {
      return JSONError(
        offset: position, reason: .expected(expected, found: describeValue(at: position)))
    }
    return invalidValueStart()
  }

  /// Explains why no JSON value starts at ``position``.
  @usableFromInline
  func invalidValueStart(negative: Bool = false) -> JSONError {
    guard position < input.count else { return unexpectedEnd(expected: "a value") }
    let byte = input[position]
    let start = negative ? position - 1 : position
    if byte == UInt8(ascii: "'") { return JSONError(offset: position, reason: .singleQuotedString) }
    if byte == 0 { return JSONError(offset: position, reason: .nulByte) }
    if isByteOrderMark(at: position) {
      return JSONError(offset: position, reason: .byteOrderMark)
    }
    if JSONScanner.isWordByte(byte), byte < 0x80 {
      // The word runs to the next byte that cannot be part of one (non-ASCII letters
      // included, so that `trueé` is not reported as `true`), at most about 40 bytes.
      var end = position
      while end < input.count, JSONScanner.isWordByte(input[end]) {
        if end - position >= 40, input[end] & 0xC0 != 0x80 { break }
        end += 1
      }
      let word = String(
        decoding: UnsafeBufferPointer(rebasing: input[position..<end]), as: UTF8.self)
      switch word.lowercased() {
      case "nan", "infinity", "inf":
        return JSONError(offset: start, reason: .notANumber((negative ? "-" : "") + word))
      default:
        return JSONError(offset: start, reason: .bareWord((negative ? "-" : "") + word))
      }
    }
    return JSONError(offset: position, reason: .expected("a value", found: describe(at: position)))
  }

  /// The kind of value starting exactly at ``position``, or an error.
  @usableFromInline
  func peekKindWithoutSkipping() throws(JSONError) -> JSONKind {
    guard position < input.count else { throw unexpectedEnd(expected: "a value") }
    switch input[position] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default:
      var probe = self
      if probe.matchLiteral("true") || probe.matchLiteral("false") { return .bool }
      if probe.matchLiteral("null") { return .null }
      throw invalidValueStart()
    }
  }

  /// Describes the value starting at `offset` by its kind: `a string`, `an object`, `'x'`.
  public func describeValue(at offset: Int) -> String {
    guard let kind = try? JSONScanner(input, position: offset).peekKindWithoutSkipping() else {
      return describe(at: offset)
    }
    return kind.phrase
  }

  /// The syntax error of the text at `offset`, or `nil` when a valid JSON value starts there.
  ///
  /// A decoder that expected a number and found `ninety` reports this error (a bare word)
  /// rather than "found 'n'"; it runs on error paths only.
  ///
  /// ```swift
  /// JSONScanner(buffer).syntaxError(at: 0)   // for `NaN`: 'NaN' is not valid JSON: …
  /// ```
  ///
  /// - Parameter offset: A byte offset in the buffer.
  /// - Returns: The error that reading a value at `offset` throws, if any.
  public func syntaxError(at offset: Int) -> JSONError? {
    var probe = JSONScanner(input, position: offset)
    do {
      _ = try probe.skipValue()
      return nil
    } catch {
      return error
    }
  }

  @usableFromInline
  func describeEscape(at offset: Int) -> String {
    guard offset < input.count else { return "" }
    let byte = input[offset]
    if byte >= 0x20, byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
    return "\\u{\(JSONError.hex(byte))}"
  }
}

extension JSONKind {
  /// The kind as a noun phrase for messages: `a string`, `an object`, `null`.
  ///
  /// ```swift
  /// JSONKind.array.phrase   // "an array"
  /// ```
  public var phrase: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
