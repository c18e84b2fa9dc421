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
/// | `nav.stack[]`       | each element, as a value of its own (filters, where allowed) |
/// | `nav.stack[1:]`     | a slice of an array or a string (filters, where allowed) |
/// | `rest.links|keys`   | the sorted keys, or the indices (filters, where allowed) |
/// | `nav.stack|first`   | `[0]`; `|last` is `[-1]`                           |
///
/// A bare segment of digits selects an element when applied to an array (`stack.0`), and a key
/// when applied to an object. The forms marked "filters" are jq's, for `--select`: they are
/// parsed only with `allowsFilters` and kept in ``filters``.
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

  /// One of jq's filters, applied after the ``components`` to each value in turn: the steps
  /// from the first that is not a key or an index on.
  ///
  /// A filter turns a value into one value, or (`[]`) into any number of them. Where it finds
  /// nothing, or jq would stop with an error (`keys` of a string), the value is not there, and
  /// the filters after it are skipped: `--select` prints `null` in its place.
  ///
  /// ```swift
  /// let path = try JSONPath("nav.stack[1:]|length", allowsFilters: true)
  /// path.filters   // [.slice(start: 1, end: nil), .length]
  /// try JSONPath("a[].b", allowsFilters: true).filters   // [.each, .key("b")]
  /// ```
  public enum Filter: Sendable, Hashable {
    /// A member of an object, or for a key of digits an element of an array (`.title`).
    case key(String)
    /// An element of an array; negative counts from the end (`[0]`, `|first`, `|last`).
    case index(Int)
    /// The elements, or characters (Unicode scalars), from `start` up to but not including
    /// `end`, as jq slices (`[1:3]`, `[:-1]`): negative bounds count from the end, bounds out
    /// of range are clamped, and a missing bound is the start or the end.
    case slice(start: Int?, end: Int?)
    /// Each element of an array, or each member's value of an object in key order (`[]`).
    case each
    /// The number of elements, members or characters; 0 for `null`; a number's absolute value
    /// (`|length`).
    case length
    /// An object's keys, sorted, or an array's indices (`|keys`).
    case keys
  }

  /// The leading keys and indices (or patterns), from the document's root.
  public let components: [Component]
  /// The filters after the ``components``: empty for a path to a place, `[.length]` for a path
  /// ending in `|length`.
  public let filters: [Filter]

  /// Whether the path is a place followed by `|length`, selecting the size of the value rather
  /// than the value.
  ///
  /// ```swift
  /// try JSONPath("rest.links|length").selectsLength   // true
  /// ```
  public let selectsLength: Bool

  /// Whether ``locate(in:droppingFirst:)`` can find what the path selects in JSON text: a place,
  /// or a place followed by `|length`; not one with other filters, whose values are computed.
  ///
  /// ```swift
  /// try JSONPath("nav.stack|length").isLocatable                      // true
  /// try JSONPath("nav.stack[]", allowsFilters: true).isLocatable      // false
  /// ```
  public var isLocatable: Bool { filters.isEmpty || selectsLength }

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
    self.filters = selectsLength ? [.length] : []
    self.selectsLength = selectsLength
  }

  /// Creates a path from its components and the filters after them.
  ///
  /// Keys and indices at the start of `filters` are moved to the components, where a parsed
  /// path has them, so that equal paths compare equal.
  ///
  /// ```swift
  /// let path = JSONPath(components: [.key("nav"), .key("stack")], filters: [.each])
  /// path.description   // "nav.stack[]"
  /// ```
  ///
  /// - Parameters:
  ///   - components: The leading keys and indices, from the root.
  ///   - filters: The filters applied after them, in order.
  public init(components: [Component], filters: [Filter]) {
    var components = components
    var leading = 0
    loop: for filter in filters {
      switch filter {
      case .key(let key): components.append(.key(key))
      case .index(let index): components.append(.index(index))
      default: break loop
      }
      leading += 1
    }
    self.components = components
    self.filters = Array(filters[leading...])
    selectsLength = self.filters == [.length]
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
  /// `|first` and `|last` are written as the indices they stand for, `[0]` and `[-1]`.
  ///
  /// ```swift
  /// try JSONPath(".geo.heading").description                          // "geo.heading"
  /// try JSONPath("a | first", allowsFilters: true).description         // "a[0]"
  /// try JSONPath("a[ 1 : ]|keys", allowsFilters: true).description     // "a[1:]|keys"
  /// ```
  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): JSONPath.appendKey(key, to: &text)
      case .index(let index): text += "[\(index)]"
      case .anyChild: text += text.isEmpty ? "*" : ".*"
      case .anyDescendants: text += text.isEmpty ? "**" : ".**"
      }
    }
    for filter in filters {
      switch filter {
      case .key(let key): JSONPath.appendKey(key, to: &text)
      case .index(let index): text += "[\(index)]"
      case .slice(let start, let end):
        // `[:]` does not parse (nor does it in jq): the whole is `[0:]`.
        let from = start.map(String.init) ?? (end == nil ? "0" : "")
        text += "[" + from + ":" + (end.map(String.init) ?? "") + "]"
      case .each: text += "[]"
      case .length: text += text.isEmpty ? ".|length" : "|length"
      case .keys: text += text.isEmpty ? ".|keys" : "|keys"
      }
    }
    return text.isEmpty ? "." : text
  }

  /// Appends a key as a path writes it: `.name`, or `["a.b"]` when it needs quotes.
  private static func appendKey(_ key: String, to text: inout String) {
    if isBare(key) {
      if !text.isEmpty { text += "." }
      text += key
    } else {
      var writer = JSONWriter()
      writer.writeString(key)
      text += "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
    }
  }

  /// The path as an RFC 6901 JSON Pointer, as RFC 6902 patches use: `/nav/stack/0`.
  ///
  /// `~` is written `~0` and `/` is written `~1`; the empty path is the empty pointer, which
  /// points at the whole document. A pointer cannot express a negative index or a pattern, so
  /// those are written as they are (`/-1`, `/*`, `/**`) and point at keys of those names; nor
  /// can it express ``filters``, which are left out.
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
