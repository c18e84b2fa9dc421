extension JSONPath {
  /// Parses an RFC 6901 JSON Pointer such as `/nav/stack/0` or `/a~1b`.
  ///
  /// Each reference token becomes a key (`~1` read as `/` and `~0` as `~`); a key of digits
  /// selects an array element, as the pointer does, so the path evaluates to what the pointer
  /// points at. The empty pointer is the whole document. This is the inverse of ``pointer``
  /// for concrete paths without negative indices.
  ///
  /// ```swift
  /// let path = try JSONPath(pointer: "/nav/stack/0")
  /// path.evaluate(["nav": ["stack": ["home"]]])   // "home"
  /// try JSONPath(pointer: "/a~1b/~0").components  // [.key("a/b"), .key("~")]
  /// ```
  ///
  /// - Parameter pointer: The pointer.
  /// - Throws: ``JSONPathError`` when the pointer is not empty and does not start with `/`, or
  ///   holds a `~` not followed by `0` or `1`.
  public init(pointer: String) throws(JSONPathError) {
    var components: [Component] = []
    var token = String.UnicodeScalarView()
    var column = 1
    var isEscaping = false
    for scalar in pointer.unicodeScalars {
      defer { column += 1 }
      if column == 1 {
        guard scalar == "/" else {
          throw JSONPathError(
            text: pointer, column: 1, reason: "a JSON pointer must start with '/'")
        }
        continue
      }
      if isEscaping {
        switch scalar {
        case "0": token.append("~")
        case "1": token.append("/")
        default:
          throw JSONPathError(
            text: pointer, column: column - 1, reason: "'~' must be followed by '0' or '1'")
        }
        isEscaping = false
      } else if scalar == "~" {
        isEscaping = true
      } else if scalar == "/" {
        components.append(.key(String(token)))
        token = String.UnicodeScalarView()
      } else {
        token.append(scalar)
      }
    }
    if isEscaping {
      throw JSONPathError(
        text: pointer, column: column - 1, reason: "'~' must be followed by '0' or '1'")
    }
    if !pointer.isEmpty { components.append(.key(String(token))) }
    self.init(components: components)
  }
}
