import RaspJSON

/// Parses a spec path: a `--select` path whose brackets may also hold `[]`, a filter
/// (`[?id == payload.id]`) or a key from the event (`[payload.id]`).
///
/// The runs between such brackets are `--select` paths, parsed by ``JSONPath``; their errors
/// are moved to their column in the whole path.
struct SpecPathParser {
  let text: [UInt8]
  let source: String
  var position = 0
  /// Whether a run ended in `|length`, which a path to change cannot; the validator says so.
  var selectsLength = false
  /// Where the first `|length` is.
  var lengthOffset = 0

  init(_ source: String) {
    self.source = source
    self.text = Array(source.utf8)
  }

  var current: UInt8? { position < text.count ? text[position] : nil }

  func fail(_ reason: String, at offset: Int? = nil) -> JSONPathError {
    let offset = min(offset ?? position, text.count)
    let column = text[..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    return JSONPathError(text: source, column: column, reason: reason)
  }

  mutating func skipSpaces() {
    while let byte = current, byte == 0x20 || byte == 0x09 { position += 1 }
  }

  /// Parses the whole path; `|length` is accepted at the end and reported by ``selectsLength``.
  mutating func parse() throws(JSONPathError) -> RaspSpecPath {
    var components: [RaspSpecPath.Component] = []
    var runStart = 0
    var afterSpecial = false
    while position < text.count {
      let byte = text[position]
      if byte == UInt8(ascii: "\"") {
        position = try endOfString(from: position)
        continue
      }
      let open = position
      guard byte == UInt8(ascii: "["), let special = try special(at: open) else {
        position = open + 1
        continue
      }
      components += try run(runStart..<open, afterSpecial: afterSpecial)
      if selectsLength {
        throw fail("'|length' can only end a path to read, not be followed by '['", at: open)
      }
      components.append(special)
      runStart = position
      afterSpecial = true
    }
    components += try run(runStart..<text.count, afterSpecial: afterSpecial)
    return RaspSpecPath(components: components)
  }

  /// Parses the whole text as a condition, `field == value` or `field != value`, as an `if`
  /// writes it: `payload.changeType == 'added'`.
  mutating func parseCondition() throws(JSONPathError) -> RaspSpecCondition {
    let condition = try condition()
    skipSpaces()
    guard position == text.count else {
      throw fail("unexpected '\(String(decoding: text[position...], as: UTF8.self))'")
    }
    return condition
  }

  /// The components of a `--select` run between special brackets.
  private mutating func run(_ range: Range<Int>, afterSpecial: Bool) throws(JSONPathError)
    -> [RaspSpecPath.Component]
  {
    var start = range.lowerBound
    while start < range.upperBound, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
    guard start < range.upperBound else { return [] }
    if afterSpecial, text[start] != UInt8(ascii: "."), text[start] != UInt8(ascii: "[") {
      let end = text[start...].firstIndex { $0 & 0xC0 != 0x80 && $0 != text[start] } ?? start + 1
      let character = String(decoding: text[start..<max(end, start + 1)], as: UTF8.self)
      throw fail("expected '.' or '[' after ']', found '\(character)'", at: start)
    }
    let path = try subpath(range)
    if path.selectsLength {
      selectsLength = true
      lengthOffset = range.lowerBound
    }
    return RaspSpecPath(path).components
  }

  /// A `--select` path in `range`, with its errors placed in the whole path.
  private func subpath(_ range: Range<Int>) throws(JSONPathError) -> JSONPath {
    let part = String(decoding: text[range], as: UTF8.self)
    do {
      return try JSONPath(part)
    } catch {
      // The column counts scalars in the part; move it to the whole path.
      let before = text[..<range.lowerBound].reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
      throw JSONPathError(text: source, column: before + error.column, reason: error.reason)
    }
  }

  /// The end of the JSON string that starts at `start` (a `"`).
  private func endOfString(from start: Int) throws(JSONPathError) -> Int {
    var index = start + 1
    while index < text.count {
      switch text[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    throw fail("unterminated string", at: start)
  }

  /// The bracket at `open` if it is one of the spec's own — `[]`, `[?…]` or `[<event path>]` —
  /// with ``position`` moved past it; `nil` for a `--select` bracket.
  private mutating func special(at open: Int) throws(JSONPathError) -> RaspSpecPath.Component? {
    position = open + 1
    skipSpaces()
    guard let byte = current else { throw fail("missing ']'", at: open) }
    switch byte {
    case UInt8(ascii: "]"):
      position += 1
      return .each
    case UInt8(ascii: "?"):
      position += 1
      let condition = try condition()
      try close(open)
      return .matching(condition)
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      let path = try bracketedPath(stoppingAtSpace: false)
      try close(open)
      return .eventKey(path)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "\""),
      UInt8(ascii: ":"), UInt8(ascii: "*"):
      position = open
      return nil
    default:
      throw fail(
        "expected an index, a quoted key, ']', a filter such as '[?id == payload.id]' or a key "
          + "from the event such as '[payload.id]' after '['")
    }
  }

  private mutating func close(_ open: Int) throws(JSONPathError) {
    skipSpaces()
    guard current == UInt8(ascii: "]") else {
      throw fail(current == nil ? "missing ']'" : "expected ']'", at: current == nil ? open : nil)
    }
    position += 1
  }

  /// `field == value` or `field != value`, after the `?`.
  private mutating func condition() throws(JSONPathError) -> RaspSpecCondition {
    skipSpaces()
    let fieldStart = position
    try skipBalanced { [0x20, 0x09, UInt8(ascii: "="), UInt8(ascii: "!")].contains($0) }
    guard position > fieldStart else {
      throw fail("expected a field to compare, such as 'id' or '.' for the element itself")
    }
    let field = try subpath(fieldStart..<position)
    if field.selectsLength {
      throw fail("a filter compares a field, not its '|length'", at: fieldStart)
    }
    skipSpaces()
    let negated: Bool
    if text[position...].starts(with: "==".utf8) {
      negated = false
    } else if text[position...].starts(with: "!=".utf8) {
      negated = true
    } else {
      throw fail("expected '==' or '!=' after the field")
    }
    position += 2
    skipSpaces()
    return RaspSpecCondition(field: field, isNegated: negated, value: try conditionValue())
  }

  /// A filter's value: a JSON string, number, `true`, `false` or `null`, a string in single
  /// quotes, or a path of the event.
  private mutating func conditionValue() throws(JSONPathError) -> RaspSpecOperand {
    guard let byte = current, byte != UInt8(ascii: "]") else {
      throw fail(
        "expected a value to compare with: a path of the event such as 'payload.id', or a "
          + "literal such as 3, \"red\", 'red', true or null")
    }
    let start = position
    if byte == UInt8(ascii: "'") {
      guard let end = text[(position + 1)...].firstIndex(of: UInt8(ascii: "'")) else {
        throw fail("unterminated string", at: start)
      }
      position = end + 1
      return .literal(.string(String(decoding: text[(start + 1)..<end], as: UTF8.self)))
    }
    let isLiteral: Bool
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "-")
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    {
      isLiteral = true
    } else {
      isLiteral = ["true", "false", "null"].contains { word in
        let end = position + word.utf8.count
        return text[position...].starts(with: word.utf8)
          && (end == text.count || [0x20, 0x09, UInt8(ascii: "]")].contains(text[end]))
      }
    }
    guard isLiteral else { return .event(try bracketedPath(stoppingAtSpace: true), default: nil) }
    var end = byte == UInt8(ascii: "\"") ? try endOfString(from: position) : position
    if byte != UInt8(ascii: "\"") {
      while end < text.count, ![0x20, 0x09, UInt8(ascii: "]")].contains(text[end]) { end += 1 }
    }
    let literal = Array(text[start..<end])
    let value: JSONValue
    do {
      value = try JSONParser.parse(literal)
    } catch {
      throw fail("invalid value '\(String(decoding: literal, as: UTF8.self))'", at: start)
    }
    position = end
    return .literal(value)
  }

  /// A path inside brackets, up to the `]` that closes them (and, in a filter, a space).
  private mutating func bracketedPath(stoppingAtSpace: Bool) throws(JSONPathError) -> JSONPath {
    let start = position
    try skipBalanced { stoppingAtSpace && ($0 == 0x20 || $0 == 0x09) }
    var end = position
    while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
    return try subpath(start..<end)
  }

  /// Moves past a path inside brackets: up to the `]` that closes them, or to a byte outside
  /// any nested brackets and strings for which `isEnd` holds.
  private mutating func skipBalanced(until isEnd: (UInt8) -> Bool) throws(JSONPathError) {
    var depth = 0
    while let byte = current {
      if byte == UInt8(ascii: "\"") {
        position = try endOfString(from: position)
        continue
      }
      if byte == UInt8(ascii: "[") { depth += 1 }
      if byte == UInt8(ascii: "]") {
        if depth == 0 { return }
        depth -= 1
      }
      if depth == 0, isEnd(byte) { return }
      position += 1
    }
  }
}
