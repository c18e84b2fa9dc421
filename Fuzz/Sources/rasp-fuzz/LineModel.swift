/// The lines of a JSON-lines input, split the plain way, to check the streaming reader against.
///
/// A UTF-8 byte order mark at the very start is dropped; every `\n` ends a line; a last line
/// without `\n` counts only if it is not empty (so an empty input has no line); one `\r` before
/// the line end is dropped; a line longer than the limit keeps no bytes.
///
/// ```swift
/// LineModel.lines(of: Array("{}\r\n\n[1]".utf8), maximumLineLength: 16).count   // 3
/// ```
enum LineModel {
  /// One line: its bytes without the line end, or `nil` when it was too long.
  typealias Line = ArraySlice<UInt8>?

  /// Splits `input` into lines.
  ///
  /// - Parameters:
  ///   - input: The whole input.
  ///   - maximumLineLength: The longest line kept, in bytes, without its line end.
  /// - Returns: The lines, in order.
  static func lines(of input: [UInt8], maximumLineLength: Int) -> [Line] {
    var start = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var lines: [Line] = []
    while start < input.count {
      let newline = input[start...].firstIndex(of: 0x0A)
      var end = newline ?? input.count
      if end > start, input[end - 1] == 0x0D { end -= 1 }
      lines.append(end - start > maximumLineLength ? nil : input[start..<end])
      guard let newline else { break }
      start = newline + 1
    }
    return lines
  }

  /// How many lines `input` has for the replay, whose limit no fuzz input reaches.
  static func count(of input: [UInt8]) -> Int {
    let body = input.starts(with: [0xEF, 0xBB, 0xBF]) ? input.dropFirst(3) : input[...]
    let newlines = body.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return newlines + (body.isEmpty || body.last == 0x0A ? 0 : 1)
  }
}
