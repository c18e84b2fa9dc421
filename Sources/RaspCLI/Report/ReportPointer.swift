import RaspJSON

/// RFC 6901 JSON Pointers as the report reads them: the tokens of a patch operation's path,
/// the value at them, and a label in rasp's path syntax.
///
/// ```swift
/// let tokens = ReportPointer.tokens("/geo/location/latitude")   // ["geo", "location", "latitude"]
/// ReportPointer.value(at: tokens[...], in: snapshot)            // 52.520008
/// ```
enum ReportPointer {
  /// The tokens of a pointer, `~1` and `~0` decoded; none for the whole document (`""`).
  static func tokens(_ pointer: String) -> [String] {
    guard !pointer.isEmpty else { return [] }
    return pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      token in
      guard token.contains("~") else { return String(token) }
      return String(token).replacingOccurrences("~1", with: "/").replacingOccurrences(
        "~0", with: "~")
    }
  }

  /// A token as it is written in a pointer: `~` as `~0`, `/` as `~1`.
  static func escaped(_ token: String) -> String {
    guard token.contains("~") || token.contains("/") else { return token }
    return token.replacingOccurrences("~", with: "~0").replacingOccurrences("/", with: "~1")
  }

  /// The value at `tokens` in `document`, or `nil` when there is none.
  static func value(at tokens: ArraySlice<String>, in document: JSONValue) -> JSONValue? {
    var current = document
    for token in tokens {
      switch current {
      case .object(let object):
        guard let next = object[token] else { return nil }
        current = next
      case .array(let elements):
        guard let index = Int(token), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// `geo.location.latitude`, `nav.stack[0]`, `data["a b"]`: the tokens in the syntax of
  /// `--select`, array elements by index.
  static func label(_ tokens: ArraySlice<String>, in document: JSONValue) -> String {
    var text = ""
    var current: JSONValue? = document
    for token in tokens {
      if case .array = current, Int(token) != nil {
        text += "[\(token)]"
      } else if isIdentifier(token) {
        text += text.isEmpty ? token : "." + token
      } else {
        var writer = JSONWriter(capacity: token.utf8.count + 2)
        writer.writeString(token)
        text += "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
      }
      current = current.flatMap { value(at: [token], in: $0) }
    }
    return text
  }

  private static func isIdentifier(_ token: String) -> Bool {
    guard let first = token.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return false }
    return token.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
  }
}

extension String {
  /// The string with every `target` replaced by `replacement`, without Foundation.
  fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
