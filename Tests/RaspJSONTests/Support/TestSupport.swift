import RaspJSON
import RaspTestSupport
import Testing

/// The error parsing `text` throws, or `nil` when it parses.
func parseError(_ text: String) -> JSONError? {
  parseError(bytes: Array(text.utf8))
}

/// The error parsing `bytes` throws, or `nil` when they parse.
func parseError(bytes: [UInt8]) -> JSONError? {
  do {
    _ = try JSONParser.parse(bytes)
    return nil
  } catch {
    return error
  }
}

/// The error skipping the value in `bytes` (and requiring the end after it) throws, or `nil`.
func skipError(bytes: [UInt8]) -> JSONError? {
  do throws(JSONError) {
    try JSONScanner.withScanner(over: bytes.span) { scanner throws(JSONError) in
      try scanner.skipValue()
      try scanner.expectEnd()
    }
    return nil
  } catch {
    return error
  }
}

/// Runs `body` with a scanner over the UTF-8 of `text`.
func withScanner<Result>(
  _ text: String, _ body: (inout JSONScanner) throws(JSONError) -> Result
) throws(JSONError) -> Result {
  try withScanner(bytes: Array(text.utf8), body)
}

/// Runs `body` with a scanner over `bytes`, lent through the public form, a span.
func withScanner<Result>(
  bytes: [UInt8], _ body: (inout JSONScanner) throws(JSONError) -> Result
) throws(JSONError) -> Result {
  try JSONScanner.withScanner(over: bytes.span, body)
}

/// The error `body` throws on a scanner over `text`, or `nil`.
func scannerError(_ text: String, _ body: (inout JSONScanner) throws(JSONError) -> Void)
  -> JSONError?
{
  scannerError(bytes: Array(text.utf8), body)
}

/// The error `body` throws on a scanner over `bytes`, or `nil`.
func scannerError(bytes: [UInt8], _ body: (inout JSONScanner) throws(JSONError) -> Void)
  -> JSONError?
{
  do {
    try withScanner(bytes: bytes, body)
    return nil
  } catch {
    return error
  }
}

/// Canonical compact text of a value.
func compact(_ value: JSONValue) -> String { value.description }

/// Random JSON values, keys, strings and numbers for property tests.
enum RandomJSON {
  /// Keys chosen to exercise sorting, escaping and pointer encoding.
  static let keys = [
    "a", "b", "c", "id", "geo", "heading", "nav", "stack", "x.y", "a/b", "~", "~1", "0", "1",
    "é", "e\u{301}", "😀", "", " ", "\"", "\\", "\n", "Z", "aa",
  ]

  static func key(using generator: inout SplitMix64) -> String {
    if Int.random(in: 0..<8, using: &generator) == 0 { return string(using: &generator) }
    return keys.randomElement(using: &generator)!
  }

  static func string(using generator: inout SplitMix64) -> String {
    let alphabet: [Unicode.Scalar] = [
      "a", "b", "z", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}",
      "\u{D}", "\u{1F}", "\u{7F}", "\u{80}", "é", "\u{301}", "\u{2028}", "\u{FEFF}", "\u{FFFF}",
      "😀", "\u{10FFFF}",
    ]
    let count = Int.random(in: 0..<8, using: &generator)
    var text = String.UnicodeScalarView()
    for _ in 0..<count { text.append(alphabet.randomElement(using: &generator)!) }
    return String(text)
  }

  static func number(using generator: inout SplitMix64) -> JSONNumber {
    switch Int.random(in: 0..<8, using: &generator) {
    case 0: return JSONNumber(Int64.random(in: .min ... .max, using: &generator))
    case 1: return JSONNumber(Int64.random(in: -1000...1000, using: &generator))
    case 2:
      return JSONNumber(
        [Int64.min, Int64.max, 0, -1, 1 << 53, (1 << 53) + 1].randomElement(using: &generator)!)
    case 3: return JSONNumber(Double.random(in: -1000...1000, using: &generator))
    case 4: return JSONNumber(Double(Int.random(in: -100...100, using: &generator)) / 8)
    case 5:
      let bits = UInt64.random(in: .min ... .max, using: &generator)
      let value = Double(bitPattern: bits)
      return JSONNumber(value.isFinite ? value : 0.5)
    case 6:
      return JSONNumber(
        [0.1, 1e-5, 1.5e300, .leastNonzeroMagnitude, -0.0, 1e22, 1e23, 9007199254740992.0]
          .randomElement(
            using: &generator)!)
    default: return JSONNumber(Int64.random(in: 0...10, using: &generator))
    }
  }

  static func value(depth: Int = 4, using generator: inout SplitMix64) -> JSONValue {
    let choice = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &generator)
    switch choice {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .number(number(using: &generator))
    case 3: return .string(string(using: &generator))
    case 4: return .number(JSONNumber(Int64.random(in: 0...9, using: &generator)))
    case 5:
      let count = Int.random(in: 0..<5, using: &generator)
      return .array((0..<count).map { _ in value(depth: depth - 1, using: &generator) })
    default:
      var object = JSONObject()
      for _ in 0..<Int.random(in: 0..<6, using: &generator) {
        object[key(using: &generator)] = value(depth: depth - 1, using: &generator)
      }
      return .object(object)
    }
  }

  /// A random edit of `value`: some members changed, added or removed, arrays grown or shrunk.
  static func mutation(of value: JSONValue, depth: Int = 4, using generator: inout SplitMix64)
    -> JSONValue
  {
    let roll = Int.random(in: 0..<10, using: &generator)
    if roll == 0 { return self.value(depth: depth, using: &generator) }
    switch value {
    case .object(var object):
      for key in object.keys where Int.random(in: 0..<3, using: &generator) == 0 {
        if Bool.random(using: &generator) {
          object[key] = nil
        } else {
          object[key] = mutation(of: object[key]!, depth: depth - 1, using: &generator)
        }
      }
      if Int.random(in: 0..<3, using: &generator) == 0 {
        object[key(using: &generator)] = self.value(depth: depth - 1, using: &generator)
      }
      return .object(object)
    case .array(var elements):
      for index in elements.indices where Int.random(in: 0..<3, using: &generator) == 0 {
        elements[index] = mutation(of: elements[index], depth: depth - 1, using: &generator)
      }
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: elements.removeLast(Int.random(in: 0...elements.count, using: &generator))
      case 1:
        for _ in 0..<Int.random(in: 1..<4, using: &generator) {
          elements.append(self.value(depth: depth - 1, using: &generator))
        }
      default: break
      }
      return .array(elements)
    default:
      return roll < 5 ? value : self.value(depth: 0, using: &generator)
    }
  }

  /// Every concrete path in `value`, in document order, the root first.
  static func paths(in value: JSONValue, prefix: [JSONPath.Component] = []) -> [[JSONPath
    .Component]]
  {
    var result = [prefix]
    switch value {
    case .object(let object):
      for member in object.members {
        result += paths(in: member.value, prefix: prefix + [.key(member.key)])
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        result += paths(in: element, prefix: prefix + [.index(index)])
      }
    default: break
    }
    return result
  }
}

/// Writes a value with random whitespace between tokens, members in a random order, and
/// random escapes in strings, so readers see many spellings of one value.
enum RandomSpelling {
  static func text(of value: JSONValue, using generator: inout SplitMix64) -> String {
    var text = ""
    write(value, to: &text, using: &generator)
    return text
  }

  private static func space(_ text: inout String, using generator: inout SplitMix64) {
    for _ in 0..<Int.random(in: 0..<3, using: &generator) {
      text += [" ", "\t", "\n", "\r\n"].randomElement(using: &generator)!
    }
  }

  static func string(_ string: String, using generator: inout SplitMix64) -> String {
    var text = "\""
    for scalar in string.unicodeScalars {
      let escape = Int.random(in: 0..<4, using: &generator) == 0
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\u{0}"..."\u{1F}": text += unicodeEscape(scalar.value)
      case "/" where escape: text += "\\/"
      default:
        if escape {
          if scalar.value > 0xFFFF {
            let v = scalar.value - 0x10000
            text += unicodeEscape(0xD800 + (v >> 10)) + unicodeEscape(0xDC00 + (v & 0x3FF))
          } else {
            text += unicodeEscape(scalar.value)
          }
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    return text + "\""
  }

  private static func unicodeEscape(_ value: UInt32) -> String {
    let hex = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }

  private static func write(
    _ value: JSONValue, to text: inout String, using generator: inout SplitMix64
  ) {
    space(&text, using: &generator)
    switch value {
    case .string(let string): text += self.string(string, using: &generator)
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        write(element, to: &text, using: &generator)
      }
      space(&text, using: &generator)
      text += "]"
    case .object(let object):
      text += "{"
      for (index, member) in object.members.shuffled(using: &generator).enumerated() {
        if index > 0 { text += "," }
        space(&text, using: &generator)
        text += string(member.key, using: &generator)
        space(&text, using: &generator)
        text += ":"
        write(member.value, to: &text, using: &generator)
      }
      space(&text, using: &generator)
      text += "}"
    default:
      text += value.description
    }
    space(&text, using: &generator)
  }
}

/// Parses `text` with a depth limit, from a span of its bytes (the public form for bytes).
func parse(_ text: String, maximumDepth: Int) throws(JSONError) -> JSONValue {
  let bytes = Array(text.utf8)
  return try JSONParser.parse(bytes.span, maximumDepth: maximumDepth)
}

/// The error parsing `text` with a depth limit throws, or `nil`.
func parseError(_ text: String, maximumDepth: Int) -> JSONError? {
  do {
    _ = try parse(text, maximumDepth: maximumDepth)
    return nil
  } catch {
    return error
  }
}

/// No value at all, spelled so that it cannot be read as JSON `null`: `JSONValue` is
/// `ExpressibleByNilLiteral`, so a bare `nil` compared with a `JSONValue?` may mean `.null`.
let absent: JSONValue? = .none
