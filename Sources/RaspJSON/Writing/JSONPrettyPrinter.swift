/// Indents compact JSON for people, the way `jq` does.
///
/// The printer reformats text that ``JSONWriter`` wrote (compact, valid JSON): each member and
/// element on its own line, indented by two spaces per level, `": "` after keys, and empty arrays
/// and objects kept as `[]` and `{}`. It never reorders or rewrites values, so pretty output is
/// exactly as canonical as the compact form.
///
/// ```swift
/// var output: [UInt8] = []
/// JSONPrettyPrinter.append(Array(#"{"a":[1,2],"b":{}}"#.utf8)[...], to: &output)
/// // {
/// //   "a": [
/// //     1,
/// //     2
/// //   ],
/// //   "b": {}
/// // }
/// ```
public enum JSONPrettyPrinter {
  /// Appends the indented form of compact JSON text to `output`, without a final line end.
  ///
  /// ```swift
  /// JSONPrettyPrinter.append(compact[...], to: &output)
  /// ```
  ///
  /// - Parameters:
  ///   - compact: Compact JSON text without whitespace outside strings.
  ///   - output: Where to append the indented text.
  ///   - indent: Spaces per level.
  /// - Complexity: O(*n*) in the length of the text.
  public static func append(_ compact: ArraySlice<UInt8>, to output: inout [UInt8], indent: Int = 2)
  {
    var depth = 0
    var inString = false
    var escaped = false
    var index = compact.startIndex
    func newline(_ output: inout [UInt8], _ depth: Int) {
      output.append(0x0A)
      output.append(contentsOf: repeatElement(0x20, count: depth * indent))
    }
    while index < compact.endIndex {
      let byte = compact[index]
      index += 1
      if inString {
        output.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        output.append(byte)
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        output.append(byte)
        if index < compact.endIndex,
          compact[index] == UInt8(ascii: "}") || compact[index] == UInt8(ascii: "]")
        {
          output.append(compact[index])
          index += 1
        } else {
          depth += 1
          newline(&output, depth)
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        newline(&output, depth)
        output.append(byte)
      case UInt8(ascii: ","):
        output.append(byte)
        newline(&output, depth)
      case UInt8(ascii: ":"):
        output.append(byte)
        output.append(0x20)
      default:
        output.append(byte)
      }
    }
  }
}
