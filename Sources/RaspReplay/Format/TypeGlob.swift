/// A pattern of event types with `*` for any text, such as `@@redux/*` or `com.example.*.add`:
/// a map file's `drop` and `rename` rules, and `rasp replay`'s `--drop` and `--hide`.
///
/// ```swift
/// let glob = TypeGlob("com.example.*.add")
/// glob.match("com.example.cart.add")   // ["cart"]
/// glob.match("com.other.cart.add")     // nil
/// ```
package struct TypeGlob: Sendable {
  /// The text between the stars: one more piece than there are stars.
  let pieces: [String]
  /// The pattern as written.
  package let text: String

  package init(_ text: String) {
    self.text = text
    self.pieces = text.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
  }

  /// Why `text` is not a pattern of event types, or `nil` when it is one: it is empty, or
  /// holds a space, a control character or a `?`, `[` or `{`, which would be another glob
  /// syntax's (only `*` is special here).
  ///
  /// ```swift
  /// TypeGlob.problem(in: "nav.*")      // nil
  /// TypeGlob.problem(in: "nav.[ab]")   // "'[' is not a pattern here: only '*' is, …"
  /// ```
  package static func problem(in text: String) -> String? {
    if text.isEmpty { return "a type pattern cannot be empty" }
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
        return "an event type has no spaces or control characters"
      }
      if scalar == "?" || scalar == "[" || scalar == "{" {
        return "'\(scalar)' is not a pattern here: only '*' is, for any text (nav.*)"
      }
    }
    return nil
  }

  /// Whether `type` matches the whole pattern.
  ///
  /// ```swift
  /// TypeGlob("nav.*").matches("nav.push")   // true
  /// ```
  package func matches(_ type: String) -> Bool { match(type) != nil }

  /// How many stars the pattern has.
  var starCount: Int { pieces.count - 1 }

  /// What each star matched, when `type` matches the whole pattern; `nil` otherwise. The
  /// shortest match is taken for every star but the last.
  func match(_ type: String) -> [Substring]? {
    let text = Substring(type)
    guard text.hasPrefix(pieces[0]) else { return nil }
    var rest = text.dropFirst(pieces[0].count)
    if pieces.count == 1 { return rest.isEmpty ? [] : nil }
    var captures: [Substring] = []
    for (index, piece) in pieces.enumerated().dropFirst() {
      if index == pieces.count - 1 {
        guard rest.hasSuffix(piece), rest.count >= piece.count else { return nil }
        captures.append(rest.dropLast(piece.count))
        return captures
      }
      guard let found = rest.range(of: piece) else { return nil }
      captures.append(rest[..<found.lowerBound])
      rest = rest[found.upperBound...]
    }
    return captures
  }

  /// `template` with each star replaced by the next of `captures` (the last again when there
  /// are more stars than captures).
  static func fill(_ template: String, with captures: [Substring]) -> String {
    var result = ""
    var next = 0
    for character in template {
      guard character == "*" else {
        result.append(character)
        continue
      }
      if !captures.isEmpty { result += captures[min(next, captures.count - 1)] }
      next += 1
    }
    return result
  }
}

extension Substring {
  /// The range of the first occurrence of `piece`, which may be empty.
  fileprivate func range(of piece: String) -> Range<Index>? {
    if piece.isEmpty { return startIndex..<startIndex }
    var start = startIndex
    while start < endIndex {
      if self[start...].hasPrefix(piece) {
        return start..<index(start, offsetBy: piece.count)
      }
      start = index(after: start)
    }
    return nil
  }
}
