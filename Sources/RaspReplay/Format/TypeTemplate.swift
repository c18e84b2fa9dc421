import RaspJSON

/// How a format makes an event's type from a line's fields: `{type}`, or Segment's
/// `{type}.{event|name|type}` — literal text, and placeholders that take the first of their
/// fields that the line has.
///
/// ```swift
/// let template = try TypeTemplate("{type}.{event|name|type}")
/// template.render { _, path in path.description == "event" ? "Order Completed" : "track" }
/// // "track.Order Completed"
/// ```
struct TypeTemplate: Sendable {
  /// One piece of a template.
  enum Part: Sendable {
    /// Text written as it is.
    case literal(String)
    /// The first of these fields that the line has, as text.
    case field([JSONPath])
  }

  /// The pieces, in order.
  let parts: [Part]

  /// Every path a placeholder reads, in order.
  var paths: [JSONPath] {
    parts.flatMap { part -> [JSONPath] in
      if case .field(let paths) = part { return paths }
      return []
    }
  }

  /// Reads a template.
  ///
  /// - Throws: A reason, when a brace is unmatched, a placeholder empty or a path invalid.
  init(_ text: String) throws(TemplateError) {
    var parts: [Part] = []
    var literal = ""
    var rest = Substring(text)
    while let first = rest.first {
      rest = rest.dropFirst()
      if first == "}" { throw TemplateError("'}' without a '{' before it") }
      guard first == "{" else {
        literal.append(first)
        continue
      }
      guard let close = rest.firstIndex(of: "}") else {
        throw TemplateError("'{' without a '}' after it")
      }
      let inside = rest[..<close]
      rest = rest[rest.index(after: close)...]
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
      var paths: [JSONPath] = []
      for alternative in inside.split(separator: "|", omittingEmptySubsequences: false) {
        paths.append(try FieldPaths.path(String(alternative)))
      }
      parts.append(.field(paths))
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    // A template without a field is one type for every event: "geo.location" for a log of
    // GPS fixes.
    guard !parts.isEmpty else { throw TemplateError("it is empty: write a field as '{type}'") }
    self.parts = parts
  }

  /// The type, from the text of the fields a line has; `nil` names the first placeholder none
  /// of whose fields the line has.
  ///
  /// - Parameter text: The text of the field at a path — given with its position in
  ///   ``paths`` — or `nil` when the line has none there.
  /// - Returns: The type, or the placeholder whose fields the line lacks.
  func render(_ text: (Int, JSONPath) -> String?) -> Result<String, Missing> {
    var type = ""
    var index = 0
    for part in parts {
      switch part {
      case .literal(let literal): type += literal
      case .field(let paths):
        var value: String?
        for (offset, path) in paths.enumerated() where value == nil {
          value = text(index + offset, path)
        }
        index += paths.count
        guard let value else { return .failure(Missing(paths: paths)) }
        type += value
      }
    }
    return .success(type)
  }

  /// The fields a line lacks to make its type.
  struct Missing: Error {
    /// The alternatives of the placeholder.
    let paths: [JSONPath]
  }

  /// Why a template does not parse.
  struct TemplateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// The paths a map file names: keys only, joined by dots, such as `meta.timestamp`; `.` for
/// the event itself.
enum FieldPaths {
  /// Reads one path.
  ///
  /// - Throws: A reason for an empty path, an index, `|length`, or a path that does not parse.
  static func path(_ text: String) throws(TypeTemplate.TemplateError) -> JSONPath {
    let trimmed = text.trimmingWhitespace
    guard !trimmed.isEmpty else { throw .init("an empty field name") }
    if trimmed == "." { return JSONPath(components: []) }
    let path: JSONPath
    do {
      path = try JSONPath(trimmed)
    } catch {
      throw .init("'\(trimmed)' is not a field path: \(error)")
    }
    guard !path.selectsLength,
      path.components.allSatisfy({ if case .key = $0 { true } else { false } })
    else { throw .init("'\(trimmed)' is not a field path: use keys and dots, such as 'meta.time'") }
    return path
  }

  /// Reads alternatives: `properties|traits`.
  static func alternatives(_ text: String) throws(TypeTemplate.TemplateError) -> [JSONPath] {
    var paths: [JSONPath] = []
    for part in text.split(separator: "|", omittingEmptySubsequences: false) {
      paths.append(try path(String(part)))
    }
    return paths
  }
}

extension String {
  /// The text without spaces and tabs at either end.
  var trimmingWhitespace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[start...end])
  }
}
