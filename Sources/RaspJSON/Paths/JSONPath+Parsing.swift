extension JSONPath {
  /// Parses a path such as `geo.heading`, `nav.stack[-1]`, `data["a.b"]` or `rest.links|length`.
  ///
  /// With `allowsFilters`, the path may also hold jq's filters (see ``Filter``): `[]`, slices
  /// (`[1:3]`, `[:-1]`, `[2:]`), and after `|` the functions `keys`, `first` (`[0]`) and `last`
  /// (`[-1]`) besides `length`, each of which may be followed by more steps
  /// (`nav.stack|last.title`) or another function (`rest.links|keys|length`).
  ///
  /// ```swift
  /// let select = try JSONPath("rest.links|length")
  /// let ignore = try JSONPath("**.changedAt", allowsPatterns: true)
  /// let each = try JSONPath("nav.stack[1:][]", allowsFilters: true)
  /// ```
  ///
  /// - Parameters:
  ///   - text: The path.
  ///   - allowsPatterns: Whether `*` and `**` are accepted (for `--ignore`), rather than
  ///     rejected (for `--select` and spec files).
  ///   - allowsFilters: Whether jq's filters beyond `|length` are accepted (for `--select`),
  ///     rather than rejected.
  /// - Throws: ``JSONPathError`` naming the column of the first mistake.
  public init(
    _ text: String, allowsPatterns: Bool = false, allowsFilters: Bool = false
  ) throws(JSONPathError) {
    var parser = PathParser(
      text: Array(text.utf8), source: text, allowsPatterns: allowsPatterns,
      allowsFilters: allowsFilters)
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
  let allowsFilters: Bool
  var position = 0
  var components: [JSONPath.Component] = []
  var filters: [JSONPath.Filter] = []

  init(text: [UInt8], source: String, allowsPatterns: Bool, allowsFilters: Bool) {
    self.text = text
    self.source = source
    self.allowsPatterns = allowsPatterns
    self.allowsFilters = allowsFilters
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
    try parseSteps(afterFunction: false)
    skipSpaces()
    // Without filters, `|length` ends the path.
    while current == UInt8(ascii: "|"), allowsFilters || filters.isEmpty {
      position += 1
      skipSpaces()
      try parseFunction()
      if allowsFilters { try parseSteps(afterFunction: true) }
      skipSpaces()
    }
    guard position == text.count else {
      throw fail("unexpected '\(String(decoding: text[position...], as: UTF8.self))'")
    }
    return JSONPath(components: components, filters: filters)
  }

  /// Reads keys, indices, and with filters `[]` and slices, up to a `|`, a space or the end.
  mutating func parseSteps(afterFunction: Bool) throws(JSONPathError) {
    var expectsSegment =
      !afterFunction && current != nil && current != UInt8(ascii: "|") && current != 0x20
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
    if expectsSegment, !components.isEmpty || !filters.isEmpty || position > 1 {
      throw fail(current == nil ? "the path ends with '.'" : "empty key")
    }
  }

  /// Reads the name of a function after `|`.
  mutating func parseFunction() throws(JSONPathError) {
    let names = ["length", "keys", "first", "last"]
    guard
      let name = names.first(where: { name in
        text.count - position >= name.utf8.count
          && text[position..<(position + name.utf8.count)].elementsEqual(name.utf8)
      })
    else {
      throw fail(
        allowsFilters
          ? "only 'length', 'keys', 'first' or 'last' may follow '|'"
          : "only 'length' may follow '|'")
    }
    guard allowsFilters || name == "length" else {
      throw fail("'\(name)' is only allowed in --select")
    }
    position += name.utf8.count
    switch name {
    case "keys": filters.append(.keys)
    case "first": appendIndex(0)
    case "last": appendIndex(-1)
    default: filters.append(.length)
    }
  }

  /// Appends a key: to the components, or after a filter to the filters.
  mutating func appendKey(_ key: String) {
    if filters.isEmpty { components.append(.key(key)) } else { filters.append(.key(key)) }
  }

  /// Appends an index: to the components, or after a filter to the filters.
  mutating func appendIndex(_ index: Int) {
    if filters.isEmpty { components.append(.index(index)) } else { filters.append(.index(index)) }
  }

  /// Appends `*` or `**`, which only the components may hold.
  mutating func appendPattern(_ component: JSONPath.Component, at start: Int)
    throws(JSONPathError)
  {
    guard filters.isEmpty else {
      throw fail("a pattern cannot follow '[]', a slice or a function", at: start)
    }
    components.append(component)
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
      try appendPattern(key == "*" ? .anyChild : .anyDescendants, at: start)
    default:
      appendKey(key)
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
        appendKey(key)
        position = end
      case .failure(let error):
        throw fail("invalid quoted key: \(error)", at: error.offset)
      }
    } else if byte == UInt8(ascii: "*") {
      guard allowsPatterns else { throw fail("'*' is only allowed in patterns such as --ignore") }
      try appendPattern(.anyChild, at: position)
      position += 1
    } else if byte == UInt8(ascii: "]") {
      guard allowsFilters else { throw fail("'[]' is only allowed in --select", at: open) }
      filters.append(.each)
    } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || JSONScanner.isDigit(byte) {
      var start: Int?
      if byte != UInt8(ascii: ":") { start = try parseInteger() }
      skipSpaces()
      if current == UInt8(ascii: ":") {
        try parseSlice(start: start, open: open)
      } else if let start {
        appendIndex(start)
      }
    } else {
      throw fail(
        allowsFilters
          ? "expected an index, a slice, ']' or a quoted key after '['"
          : "expected an index or a quoted key after '['")
    }
    skipSpaces()
    guard current == UInt8(ascii: "]") else { throw fail("missing ']'") }
    position += 1
  }

  /// Reads the rest of a slice, from its `:`.
  mutating func parseSlice(start: Int?, open: Int) throws(JSONPathError) {
    guard allowsFilters else {
      throw fail("slices such as '[1:3]' are only allowed in --select", at: open)
    }
    let colon = position
    position += 1
    skipSpaces()
    var end: Int?
    if let byte = current, byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) {
      end = try parseInteger()
    }
    guard start != nil || end != nil else {
      throw fail("a slice needs a start or an end, as in '[1:]' or '[:-1]'", at: colon)
    }
    filters.append(.slice(start: start, end: end))
  }

  /// Reads an integer: an optional `-` and digits.
  mutating func parseInteger() throws(JSONPathError) -> Int {
    let start = position
    position += 1
    while let digit = current, JSONScanner.isDigit(digit) { position += 1 }
    let digits = String(decoding: text[start..<position], as: UTF8.self)
    guard let index = Int(digits) else { throw fail("invalid index '\(digits)'", at: start) }
    return index
  }
}
