/// A problem found while reading JSON: where it is and why, in plain English.
///
/// The ``offset`` counts bytes from the start of the buffer that was read (for a JSON-lines
/// log, the start of the line). Callers that know the file and line turn it into
/// `file:line:column` with ``JSONTextPosition/init(offset:in:)``.
///
/// ```swift
/// do {
///   _ = try JSONParser.parse(Array(#"{"a":1,}"#.utf8))
/// } catch {
///   print(error.offset, error)   // 6 trailing comma before '}'
/// }
/// ```
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The byte offset of the problem in the buffer that was read.
  public var offset: Int
  /// What is wrong.
  public var reason: Reason

  /// Creates an error at a byte offset.
  ///
  /// ```swift
  /// let error = JSONError(offset: 0, reason: .unexpectedEnd(expected: "a value"))
  /// ```
  ///
  /// - Parameters:
  ///   - offset: The byte offset of the problem.
  ///   - reason: What is wrong.
  public init(offset: Int, reason: Reason) {
    self.offset = offset
    self.reason = reason
  }

  /// The reason, as a sentence fragment without a trailing period.
  ///
  /// ```swift
  /// JSONError(offset: 3, reason: .unterminatedString).description
  /// // "unterminated string: missing closing '\"'"
  /// ```
  public var description: String { reason.description }

  /// Why a JSON text was rejected or a field could not be decoded.
  ///
  /// ```swift
  /// let reason = JSONError.Reason.duplicateKey("heading")
  /// print(reason)   // duplicate key 'heading'
  /// ```
  public enum Reason: Sendable, Equatable, CustomStringConvertible {
    /// The text ended where `expected` was required.
    case unexpectedEnd(expected: String)
    /// The text ended inside an object or array.
    case unterminatedContainer(String, expected: String)
    /// `expected` was required but something else was `found`.
    case expected(String, found: String)
    /// A comma directly before a closing bracket or brace.
    case trailingComma(before: String)
    /// A word that is not `true`, `false` or `null`.
    case bareWord(String)
    /// `NaN` or `Infinity`, which JSON cannot express.
    case notANumber(String)
    /// A string in single quotes.
    case singleQuotedString
    /// A string without its closing quote.
    case unterminatedString
    /// A backslash followed by a character that is not a JSON escape.
    case invalidEscape(String)
    /// A `\u` escape without four hexadecimal digits.
    case invalidUnicodeEscape
    /// A `\u` escape of half a surrogate pair, without its other half.
    case loneSurrogate(String)
    /// A byte that does not belong to a valid UTF-8 sequence.
    case invalidUTF8(UInt8)
    /// A control character written raw inside a string.
    case controlCharacterInString(UInt8)
    /// A NUL byte outside a string.
    case nulByte
    /// A byte order mark (U+FEFF) anywhere but at the very start of a file.
    case byteOrderMark
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int)
    /// A number whose magnitude does not fit in a double.
    case numberOutOfRange(String)
    /// A malformed number.
    case invalidNumber(String)
    /// More text after a complete value.
    case trailingContent(found: String)
    /// A key written twice in one object.
    case duplicateKey(String)
    /// A line longer than the reader's limit.
    case lineTooLong(limit: Int)

    /// The reason as a sentence fragment.
    ///
    /// ```swift
    /// JSONError.Reason.duplicateKey("type").description   // "duplicate key 'type'"
    /// ```
    public var description: String {
      switch self {
      case .unexpectedEnd(let expected):
        return "unexpected end of input, expected \(expected)"
      case .unterminatedContainer(let container, let expected):
        return "unexpected end of input in an unterminated \(container), expected \(expected)"
      case .expected(let expected, let found):
        return "expected \(expected), found \(found)"
      case .trailingComma(let before):
        return "trailing comma before '\(before)'"
      case .bareWord(let word):
        return "invalid literal '\(word)': strings must be in double quotes"
      case .notANumber(let word):
        return "'\(word)' is not valid JSON: numbers must be finite"
      case .singleQuotedString:
        return "strings must be in double quotes, not single quotes"
      case .unterminatedString:
        return "unterminated string: missing closing '\"'"
      case .invalidEscape(let escape):
        return "invalid escape '\\\(escape)' in string"
      case .invalidUnicodeEscape:
        return "invalid \\u escape: expected four hexadecimal digits"
      case .loneSurrogate(let escape):
        return
          "lone surrogate '\\u\(escape)' in string: a \\u escape of U+D800–U+DFFF must be a pair"
      case .invalidUTF8(let byte):
        return "invalid UTF-8 byte 0x\(JSONError.hex(byte))"
      case .controlCharacterInString(let byte):
        return "control character U+00\(JSONError.hex(byte)) must be escaped in a string"
      case .nulByte:
        return "unexpected NUL byte"
      case .byteOrderMark:
        return "unexpected byte order mark (U+FEFF): it is allowed only at the start of a file"
      case .tooDeep(let limit):
        return "arrays and objects nested more than \(limit) levels deep"
      case .numberOutOfRange(let text):
        return "number '\(JSONError.abbreviated(text))' is out of the range of a double"
      case .invalidNumber(let detail):
        return "invalid number: \(detail)"
      case .trailingContent(let found):
        return "unexpected \(found) after the JSON value"
      case .duplicateKey(let key):
        return "duplicate key '\(JSONError.abbreviated(key))'"
      case .lineTooLong(let limit):
        return "line is longer than the limit of \(limit) bytes"
      }
    }
  }

  /// A value from the input, shortened for a message: its first 40 characters, then `…` and
  /// the whole length, so that a 400-digit number or a megabyte key stays one readable line.
  ///
  /// ```swift
  /// JSONError.abbreviated(String(repeating: "9", count: 400))
  /// // "9999999999999999999999999999999999999999… (400 characters)"
  /// ```
  ///
  /// - Parameter text: The value's text.
  /// - Returns: The text itself when it is short enough, else its start and its length.
  public static func abbreviated(_ text: String) -> String {
    let limit = 40
    guard text.utf8.count > limit else { return text }
    let count = text.count
    guard count > limit else { return text }
    return "\(text.prefix(limit))… (\(count) characters)"
  }

  @usableFromInline
  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }
}
