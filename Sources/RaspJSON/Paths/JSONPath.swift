/// A path to a value inside a JSON document: `geo.heading`, `nav.stack[-1]`, `rest.links|length`.
///
/// Paths are how users name a field on the command line (`--select`, `--ignore`) and in spec
/// files. The syntax is a subset of jq's, without the leading dot that jq requires:
///
/// | Path                | Selects                                           |
/// |---------------------|---------------------------------------------------|
/// | `geo.heading`       | member `heading` of member `geo`                  |
/// | `.geo.heading`      | the same (jq's leading dot is accepted)           |
/// | `nav.stack[0]`      | the first element of an array; `[-1]` is the last |
/// | `data["a.b"]`       | a key that holds dots or other special characters |
/// | `rest.links|length` | the number of members, elements or characters     |
/// | `.` (or nothing)    | the whole document                                |
/// | `geo.*`, `**.ts`    | patterns: any one key or index; any depth (where allowed) |
///
/// A bare segment of digits selects an element when applied to an array (`stack.0`), and a key
/// when applied to an object.
///
/// ```swift
/// let path = try JSONPath("rest.links|length")
/// let state: JSONValue = ["rest": ["links": ["self": "/a", "next": "/b"]]]
/// path.evaluate(state)   // 2
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a path.
  ///
  /// ```swift
  /// try JSONPath("nav.stack[0]").components   // [.key("nav"), .key("stack"), .index(0)]
  /// ```
  public enum Component: Sendable, Hashable {
    /// A member of an object (or, for a key of digits, an element of an array).
    case key(String)
    /// An element of an array; negative counts from the end.
    case index(Int)
    /// Any one key or index (`*`), in patterns only.
    case anyChild
    /// Any sequence of keys and indices, including none (`**`), in patterns only.
    case anyDescendants
  }

  /// The steps, from the document's root.
  public let components: [Component]
  /// Whether the path ends in `|length`, selecting the size of the value rather than the value.
  public let selectsLength: Bool

  /// Creates a path from its components.
  ///
  /// ```swift
  /// let path = JSONPath(components: [.key("geo"), .key("heading")])
  /// ```
  ///
  /// - Parameters:
  ///   - components: The steps from the root.
  ///   - selectsLength: Whether the path selects the size of the value.
  public init(components: [Component], selectsLength: Bool = false) {
    self.components = components
    self.selectsLength = selectsLength
  }

  /// Whether the path holds `*` or `**`, and so matches many concrete paths.
  ///
  /// ```swift
  /// try JSONPath("**.ts").isPattern   // true
  /// ```
  public var isPattern: Bool {
    components.contains { $0 == .anyChild || $0 == .anyDescendants }
  }

  /// The first key of the path, which names the domain in a snapshot.
  ///
  /// ```swift
  /// try JSONPath("geo.heading").firstKey   // "geo"
  /// ```
  public var firstKey: String? {
    if case .key(let key)? = components.first { return key }
    return nil
  }

  /// The path in the syntax it was parsed from, normalized: `nav.stack[0]`, `data["a.b"]`.
  ///
  /// ```swift
  /// try JSONPath(".geo.heading").description   // "geo.heading"
  /// ```
  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if JSONPath.isBare(key) {
          if !text.isEmpty { text += "." }
          text += key
        } else {
          var writer = JSONWriter()
          writer.writeString(key)
          text += "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
        }
      case .index(let index): text += "[\(index)]"
      case .anyChild: text += text.isEmpty ? "*" : ".*"
      case .anyDescendants: text += text.isEmpty ? "**" : ".**"
      }
    }
    if text.isEmpty { text = "." }
    return selectsLength ? text + "|length" : text
  }

  /// The path as an RFC 6901 JSON Pointer, as RFC 6902 patches use: `/nav/stack/0`.
  ///
  /// `~` is written `~0` and `/` is written `~1`; the empty path is the empty pointer, which
  /// points at the whole document. A pointer cannot express a negative index or a pattern, so
  /// those are written as they are (`/-1`, `/*`, `/**`) and point at keys of those names.
  ///
  /// ```swift
  /// JSONPath(components: [.key("a/b"), .index(0)]).pointer   // "/a~1b/0"
  /// ```
  public var pointer: String {
    var text = ""
    for component in components {
      text += "/"
      switch component {
      case .key(let key):
        for scalar in key.unicodeScalars {
          switch scalar {
          case "~": text += "~0"
          case "/": text += "~1"
          default: text.unicodeScalars.append(scalar)
          }
        }
      case .index(let index): text += String(index)
      case .anyChild: text += "*"
      case .anyDescendants: text += "**"
      }
    }
    return text
  }

  /// Whether a key can be written without brackets and quotes.
  static func isBare(_ key: String) -> Bool {
    guard !key.isEmpty, key != "*", key != "**" else { return false }
    return key.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
        UInt8(ascii: "$"), UInt8(ascii: "@"), 0x80...0xFF:
        return true
      default:
        return false
      }
    }
  }
}

extension JSONPath {
  /// The array index a key denotes, as RFC 6901 reads a reference token: `0` or digits without
  /// a leading zero. `01`, `+1`, `-1` and `1.0` are keys, never indices.
  static func arrayIndex(fromKey key: String) -> Int? {
    let utf8 = key.utf8
    guard let first = utf8.first, utf8.count <= 18 else { return nil }
    guard first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
    var value = 0
    for byte in utf8 {
      guard JSONScanner.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
