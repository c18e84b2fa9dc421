/// Writes a JSON value the way `jq -r` (`--raw-output`) does: a string as its text, without
/// quotes and with its escapes decoded; any other value as it is.
///
/// A string's text is written as UTF-8, whatever it holds: a `\n` in it becomes a line end,
/// a `\u0000` a NUL byte, as jq writes them. Arrays and objects stay JSON, even when they hold
/// strings.
///
/// ```swift
/// var output: [UInt8] = []
/// JSONRawPrinter.append(Array(#""Zoë\tN""#.utf8)[...], to: &output)   // Zoë<tab>N
/// JSONRawPrinter.append(Array(#"["a"]"#.utf8)[...], to: &output)      // ["a"]
/// ```
public enum JSONRawPrinter {
  /// Appends the raw form of one JSON value to `output`, without a final line end.
  ///
  /// ```swift
  /// JSONRawPrinter.append(record[...], to: &output)
  /// ```
  ///
  /// - Parameters:
  ///   - json: The text of one JSON value, without whitespace around it.
  ///   - output: Where to append the raw form.
  /// - Complexity: O(*n*) in the length of the text.
  public static func append(_ json: ArraySlice<UInt8>, to output: inout [UInt8]) {
    guard json.first == UInt8(ascii: "\"") else {
      output.append(contentsOf: json)
      return
    }
    let text: String? = json.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      guard let text = try? scanner.readString(), scanner.position == buffer.count else {
        return nil
      }
      return text
    }
    if let text {
      output.append(contentsOf: text.utf8)
    } else {
      // Not one string after all: left as it is.
      output.append(contentsOf: json)
    }
  }
}
