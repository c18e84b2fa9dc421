/// A line and a column in a text, both counted from 1, as messages print them.
///
/// A ``JSONError`` knows only its byte offset. To name the place in `file:line:column` form,
/// turn the offset into a position in the text that was read: lines end at `\n`, and columns
/// count Unicode scalars, so a line of `é` characters does not drift. For a JSON-lines log, pass
/// the line's bytes and take the column, since the reader already knows the line number.
///
/// ```swift
/// let text = Array("{\n  \"a\": 1,\n}".utf8)
/// do {
///   _ = try JSONParser.parse(text)
/// } catch {
///   let position = JSONTextPosition(offset: error.offset, in: text)
///   print("spec.json:\(position): error: \(error)")
///   // spec.json:2:9: error: trailing comma before '}'
/// }
/// ```
public struct JSONTextPosition: Sendable, Hashable, CustomStringConvertible {
  /// The line, counting from 1.
  public var line: Int
  /// The column, counting Unicode scalars from 1.
  public var column: Int

  /// Creates a position from a line and a column.
  ///
  /// ```swift
  /// let position = JSONTextPosition(line: 12, column: 7)
  /// ```
  ///
  /// - Parameters:
  ///   - line: The line, counting from 1.
  ///   - column: The column, counting from 1.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// Finds the line and column of a byte offset in UTF-8 text.
  ///
  /// An offset at the end of the text (where an `unexpected end of input` is reported) is
  /// the position just after the last character; offsets beyond the end count as the end. A
  /// byte order mark at the very start takes no column, as editors show none.
  ///
  /// ```swift
  /// JSONTextPosition(offset: 4, in: Array("ab\ncd".utf8))   // 2:2
  /// ```
  ///
  /// - Parameters:
  ///   - offset: A byte offset into `text`.
  ///   - text: The UTF-8 text the offset counts in.
  /// - Complexity: O(*offset*).
  public init(offset: Int, in text: some Sequence<UInt8>) {
    var line = 1
    var column = 1
    let marked = text.starts(with: [0xEF, 0xBB, 0xBF])
    for (index, byte) in text.prefix(max(0, offset)).enumerated() {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80, index != 0 || !marked {
        column += 1
      }
    }
    self.init(line: line, column: column)
  }

  /// The position as `line:column`.
  ///
  /// ```swift
  /// JSONTextPosition(line: 12, column: 7).description   // "12:7"
  /// ```
  public var description: String { "\(line):\(column)" }
}
