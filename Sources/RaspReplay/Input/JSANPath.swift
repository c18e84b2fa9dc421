import RaspJSON

/// A path in jsan's references, after their `$`: `.a[0]["b c"]`, the steps from the value
/// that was stringified to the value met again.
///
/// Read by both ends of a Redux DevTools export: ``JSANDecoding`` follows a reference to the
/// value it stands for, and ``DevToolsExportRewriter`` renumbers one whose arrays lost
/// elements. A key is a word after a dot, or a JSON string in brackets; an index is digits in
/// brackets.
///
/// ```swift
/// JSANPath.steps(of: #".a[0]["b c"]"#)   // [.key("a"), .index(0), .key("b c")]
/// JSANPath.steps(of: ".a[x]")            // nil
/// ```
enum JSANPath {
  /// A step of a path: a member's key or an array's index.
  enum Step: Equatable {
    case key(String)
    case index(Int)
  }

  /// The steps of `path`; `nil` when it is not a jsan path.
  static func steps(of path: Substring) -> [Step]? {
    var steps: [Step] = []
    var rest = path
    while let first = rest.first {
      if first == "." {
        let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
        guard !name.isEmpty else { return nil }
        steps.append(.key(String(name)))
        rest = rest.dropFirst(1 + name.count)
      } else if first == "[", rest.dropFirst().first == "\"" {
        // A key as a JSON string: up to the closing quote not escaped.
        var end = rest.index(after: rest.startIndex)
        var escaped = false
        repeat {
          end = rest.index(after: end)
          guard end < rest.endIndex else { return nil }
          let character = rest[end]
          if escaped {
            escaped = false
          } else if character == "\\" {
            escaped = true
          } else if character == "\"" {
            break
          }
        } while true
        let literal = rest[rest.index(after: rest.startIndex)...end]
        guard case .string(let key)? = try? JSONParser.parse(String(literal)) else { return nil }
        rest = rest[rest.index(after: end)...]
        guard rest.first == "]" else { return nil }
        rest = rest.dropFirst()
        steps.append(.key(key))
      } else if first == "[" {
        let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard let index = Int(digits), rest.dropFirst(1 + digits.count).first == "]" else {
          return nil
        }
        steps.append(.index(index))
        rest = rest.dropFirst(2 + digits.count)
      } else {
        return nil
      }
    }
    return steps
  }

  /// The node that `steps` lead to from `node`; `nil` when one of them leads nowhere.
  static func node(at steps: some Sequence<Step>, in node: JSONNode) -> JSONNode? {
    var current = node
    for step in steps {
      switch (step, current.content) {
      case (.key(let key), .object(let members)):
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        current = member.value
      case (.index(let index), .array(let elements)) where index < elements.count:
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
