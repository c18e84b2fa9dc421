extension JSONPath {
  /// Parses a path such as `geo.heading`, `nav.stack[-1]`, `data["a.b"]` or `rest.links|length`.
  ///
  /// ```swift
  /// let select = try JSONPath("rest.links|length")
  /// let ignore = try JSONPath("**.changedAt", allowsPatterns: true)
  /// ```
  ///
  /// - Parameters:
  ///   - text: The path.
  ///   - allowsPatterns: Whether `*` and `**` are accepted (for `--ignore`), rather than
  ///     rejected (for `--select` and spec files).
  /// - Throws: ``JSONPathError`` naming the column of the first mistake.
  public init(_ text: String, allowsPatterns: Bool = false) throws(JSONPathError) {
    var parser = PathParser(text: Array(text.utf8), source: text, allowsPatterns: allowsPatterns)
    self = try parser.parse()
  }
}

/// Why a path could not be parsed, and where.
///
/// ```swift
/// do { _ = try JSONPath("geo..heading") } catch { print(error) }
/// // empty key at column 5
/// ```
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path as written.
  public let text: String
  /// The 1-based column of the problem.
  public let column: Int
  /// What is wrong.
  public let reason: String

  /// Creates an error.
  ///
  /// ```swift
  /// let error = JSONPathError(text: "a..b", column: 3, reason: "empty key")
  /// ```
  ///
  /// - Parameters:
  ///   - text: The path as written.
  ///   - column: The 1-based column of the problem.
  ///   - reason: What is wrong.
  public init(text: String, column: Int, reason: String) {
    self.text = text
    self.column = column
    self.reason = reason
  }

  /// The reason and its column: `empty key at column 5`.
  ///
  /// ```swift
  /// print(error)   // empty key at column 5
  /// ```
  public var description: String { "\(reason) at column \(column)" }
}

private struct PathParser {
  let text: [UInt8]
  let source: String
  let allowsPatterns: Bool
  var position = 0
  var components: [JSONPath.Component] = []

  init(text: [UInt8], source: String, allowsPatterns: Bool) {
    self.text = text
    self.source = source
    self.allowsPatterns = allowsPatterns
  }

  func fail(_ reason: String, at offset: Int? = nil) -> JSONPathError {
    let offset = offset ?? position
    let column = text[..<min(offset, text.count)].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    return JSONPathError(text: source, column: column, reason: reason)
  }

  var current: UInt8? { position < text.count ? text[position] : nil }

  /// The whole character at ``position``, for messages; control characters as `U+00XX`.
  var characterAtPosition: String {
    guard let byte = current else { return "" }
    if byte < 0x20 || byte == 0x7F { return "U+00" + JSONError.hex(byte) }
    var end = position + 1
    while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
    return String(decoding: text[position..<end], as: UTF8.self)
  }

  mutating func skipSpaces() {
    while let byte = current, byte == 0x20 || byte == 0x09 { position += 1 }
  }

  mutating func parse() throws(JSONPathError) -> JSONPath {
    skipSpaces()
    if current == UInt8(ascii: ".") {
      position += 1
    }
    var expectsSegment = current != nil && current != UInt8(ascii: "|") && current != 0x20
    while let byte = current, byte != UInt8(ascii: "|"), byte != 0x20, byte != 0x09 {
      if byte == UInt8(ascii: "[") {
        try parseBracket()
      } else if byte == UInt8(ascii: ".") {
        guard !expectsSegment else { throw fail("empty key") }
        position += 1
        expectsSegment = true
        continue
      } else {
        guard expectsSegment else {
          throw fail("expected '.' or '[' before '\(characterAtPosition)'")
        }
        try parseBare()
      }
      expectsSegment = false
    }
    if expectsSegment, !components.isEmpty || position > 1 {
      throw fail(current == nil ? "the path ends with '.'" : "empty key")
    }
    skipSpaces()
    var selectsLength = false
    if current == UInt8(ascii: "|") {
      position += 1
      skipSpaces()
      let word = Array("length".utf8)
      guard text.count - position >= word.count,
        Array(text[position..<(position + word.count)]) == word
      else { throw fail("only 'length' may follow '|'") }
      position += word.count
      selectsLength = true
      skipSpaces()
    }
    guard position == text.count else {
      throw fail("unexpected '\(String(decoding: text[position...], as: UTF8.self))'")
    }
    return JSONPath(components: components, selectsLength: selectsLength)
  }

  mutating func parseBare() throws(JSONPathError) {
    let start = position
    while let byte = current {
      switch byte {
      case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "|"), 0x20, 0x09: break
      case UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","),
        UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), 0..<0x20:
        throw fail("unexpected '\(characterAtPosition)' in a key; write it as [\"…\"]")
      default:
        position += 1
        continue
      }
      break
    }
    let key = String(decoding: text[start..<position], as: UTF8.self)
    switch key {
    case "*", "**":
      guard allowsPatterns else {
        throw fail("'\(key)' is only allowed in patterns such as --ignore", at: start)
      }
      components.append(key == "*" ? .anyChild : .anyDescendants)
    default:
      components.append(.key(key))
    }
  }

  mutating func parseBracket() throws(JSONPathError) {
    let open = position
    position += 1
    skipSpaces()
    guard let byte = current else { throw fail("missing ']'", at: open) }
    if byte == UInt8(ascii: "\"") {
      let result: Result<(String, Int), JSONError> = text.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(buffer, position: position)
        do throws(JSONError) {
          let key = try scanner.readString()
          return .success((key, scanner.position))
        } catch {
          return .failure(error)
        }
      }
      switch result {
      case .success(let (key, end)):
        components.append(.key(key))
        position = end
      case .failure(let error):
        throw fail("invalid quoted key: \(error)", at: error.offset)
      }
    } else if byte == UInt8(ascii: "*") {
      guard allowsPatterns else { throw fail("'*' is only allowed in patterns such as --ignore") }
      position += 1
      components.append(.anyChild)
    } else if byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) {
      let start = position
      position += 1
      while let digit = current, JSONScanner.isDigit(digit) { position += 1 }
      let digits = String(decoding: text[start..<position], as: UTF8.self)
      guard let index = Int(digits) else { throw fail("invalid index '\(digits)'", at: start) }
      components.append(.index(index))
    } else {
      throw fail("expected an index or a quoted key after '['")
    }
    skipSpaces()
    guard current == UInt8(ascii: "]") else { throw fail("missing ']'") }
    position += 1
  }
}
