import RaspDomains
import RaspJSON

/// Decodes the `{"$jsan": "…"}` tags that Redux DevTools writes with `serialize` (the jsan
/// library's encoding) into the JSON that `JSON.stringify` gives the same value — what the
/// export holds without `serialize` — but for a `Map` or a `Set`, which become the arrays of
/// their entries rather than `{}`.
///
/// A tag is an object whose one member is `$jsan`, a string whose first character says what it
/// stands for (see `fixtures/devtools/FORMAT.md`, §4):
///
/// | tag | value | decoded as |
/// |---|---|---|
/// | `$.a[0]["b c"]` | a second reference to a value met earlier | that value |
/// | `d1764061200000` | a `Date` (milliseconds) | its ISO 8601 text, `2025-11-25T09:00:00.000Z` |
/// | `u`, `f…`, `s…`, `g…` | `undefined`, a function, a symbol | left out (`null` in an array) |
/// | `n`, `i`, `y` | `NaN`, `Infinity`, `-Infinity` | `null` |
/// | `r<flags>,<source>`, `e<message>` | a `RegExp`, an `Error` | `{}` |
/// | `m[…]`, `l[…]` | a `Map`, a `Set` | the array of its entries: `[["a", 1]]`, `["x"]` |
///
/// A real member named `$jsan` is written `"$jsan": [value]`, and decoded back. A reference to
/// a value that contains it (a cycle) cannot be JSON, and is an error.
///
/// ```swift
/// let root = try JSONNode.read(Array(#"{"at": {"$jsan": "d0"}}"#.utf8))
/// try JSANDecoding.decode(root, root: root)   // {"at": "1970-01-01T00:00:00.000Z"}
/// ```
enum JSANDecoding {
  /// Why a tag could not be decoded: at which path below the decoded value, and what is wrong.
  struct Failure: Error {
    /// The path of the tag below the decoded value: `.payload.at`.
    let path: String
    /// What is wrong.
    let reason: String
  }

  /// Whether a value holds a `$jsan` member anywhere.
  static func isEncoded(_ node: JSONNode) -> Bool {
    switch node.content {
    case .object(let members):
      return members.contains { $0.key == "$jsan" || isEncoded($0.value) }
    case .array(let elements):
      return elements.contains(where: isEncoded)
    default:
      return false
    }
  }

  /// Decodes a value whose references count from `root`, the value that was stringified.
  ///
  /// - Returns: The value, or `nil` for a value `JSON.stringify` leaves out (`undefined`).
  /// - Throws: ``Failure`` for an unknown tag, a reference to nothing, or a cycle.
  static func decode(_ node: JSONNode, root: JSONNode) throws(Failure) -> JSONValue? {
    var decoder = Decoder(root: root)
    return try decoder.decode(node, path: "", depth: 0)
  }

  private struct Decoder {
    let root: JSONNode

    /// How deep references may lead: a chain longer than this is a cycle.
    static let maximumDepth = 256

    mutating func decode(_ node: JSONNode, path: String, depth: Int) throws(Failure)
      -> JSONValue?
    {
      guard depth <= Self.maximumDepth else {
        throw Failure(
          path: path, reason: "a '$jsan' reference that leads back into itself (a cycle)")
      }
      switch node.content {
      case .object(let members):
        if members.count == 1, members[0].key == "$jsan",
          case .string(let tag) = members[0].value.content
        {
          return try decodeTag(tag, path: path, depth: depth)
        }
        var object = JSONObject()
        for member in members {
          let memberPath = path + Self.component(member.key)
          if member.key == "$jsan" {
            // A real member named `$jsan`, escaped as `[value]`.
            guard case .array(let wrapped) = member.value.content, wrapped.count == 1 else {
              throw Failure(
                path: memberPath,
                reason: "a '$jsan' member beside others must be an array of one value")
            }
            if let value = try decode(wrapped[0], path: memberPath, depth: depth) {
              object["$jsan"] = value
            }
          } else if let value = try decode(member.value, path: memberPath, depth: depth) {
            object[member.key] = value
          }
        }
        return .object(object)
      case .array(let elements):
        var values: [JSONValue] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
          values.append(try decode(element, path: path + "[\(index)]", depth: depth) ?? .null)
        }
        return .array(values)
      default:
        return node.json
      }
    }

    mutating func decodeTag(_ tag: String, path: String, depth: Int) throws(Failure)
      -> JSONValue?
    {
      guard let kind = tag.first else {
        throw Failure(path: path, reason: "an empty '$jsan' tag")
      }
      let rest = tag.dropFirst()
      switch kind {
      case "$":
        guard let steps = JSANPath.steps(of: rest), let target = JSANPath.node(at: steps, in: root)
        else {
          throw Failure(path: path, reason: "the '$jsan' reference '\(tag)' leads to nothing")
        }
        return try decode(target, path: path, depth: depth + 1)
      case "d":
        guard let milliseconds = Double(rest), milliseconds.isFinite else {
          throw Failure(path: path, reason: "the '$jsan' date '\(tag)' has no time")
        }
        return .string(Self.isoText(milliseconds: Int64(milliseconds.rounded(.down))))
      case "u", "f", "s", "g":
        return nil
      case "n", "i", "y":
        return .null
      case "m", "l":
        // A Map's entries or a Set's values, as a JSON array in a string, whose references
        // count from the same root.
        guard let entries = try? JSONNode.read(Array(rest.utf8)),
          case .array = entries.content
        else {
          throw Failure(
            path: path, reason: "the '$jsan' \(kind == "m" ? "Map" : "Set") holds no JSON array")
        }
        return try decode(entries, path: path, depth: depth + 1)
      case "r", "e":
        return .object(JSONObject())
      default:
        throw Failure(path: path, reason: "an unknown '$jsan' tag '\(tag)'")
      }
    }

    /// A member's path component, as jsan writes it: `.name`, or `["a b"]`.
    static func component(_ key: String) -> String {
      let isWord =
        !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      if isWord { return "." + key }
      var writer = JSONWriter()
      writer.write(.string(key))
      return "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
    }

    /// A time as JavaScript's `Date.prototype.toISOString` writes it:
    /// `2025-11-25T09:00:00.000Z`.
    static func isoText(milliseconds: Int64) -> String {
      let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
      let millisecond = milliseconds - seconds * 1000
      let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
      let ofDay = seconds - days * 86_400
      let (year, month, day) = RaspTimestamp.civil(fromDays: days)
      func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
      }
      return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
        + "\(padded(ofDay / 3600, 2)):\(padded(ofDay / 60 % 60, 2)):\(padded(ofDay % 60, 2))."
        + "\(padded(millisecond, 3))Z"
    }
  }
}
