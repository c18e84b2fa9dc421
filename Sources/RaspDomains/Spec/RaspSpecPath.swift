import RaspJSON

/// The path of the value an operation changes, relative to a spec domain's state.
///
/// A spec path is a `--select` path (`items`, `totals.net`, `items[-1]`, `meta["a.b"]`, `.`)
/// that may also select by the event and by content, so that one operation can reach the todo
/// whose id an action carries:
///
/// | Segment               | Selects                                                       |
/// |-----------------------|---------------------------------------------------------------|
/// | `[]`                  | every element of an array (every member of an object), as jq |
/// | `[?id == payload.id]` | the elements whose `id` equals the event's `payload.id`       |
/// | `[?completed != true]`| the elements whose `completed` is not `true`                   |
/// | `[payload.id]`        | the member (or element) whose key (or index) the event holds  |
///
/// See ``RaspSpecCondition`` for filters. Segments that read the event are resolved by
/// ``RaspSpecDomain/decodeEvent(_:payload:context:)``: `[payload.id]` becomes a key or an
/// index, and a filter's event value becomes a literal.
///
/// ```swift
/// let toggle = try RaspSpecPath("[?id == payload].completed")
/// let entity = try RaspSpecPath("entities[payload.id]")
/// let everyTodo = try RaspSpecPath("todos[].completed")
/// ```
public struct RaspSpecPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a spec path.
  ///
  /// ```swift
  /// try RaspSpecPath("todos[?id == 3].completed").components
  /// // [.key("todos"), .matching(…), .key("completed")]
  /// ```
  public enum Component: Sendable, Hashable {
    /// A member of an object (or, for a key of digits, an element of an array).
    case key(String)
    /// An element of an array; negative counts from the end.
    case index(Int)
    /// Every element of an array, or every member of an object (`[]`).
    case each
    /// The elements of an array, or the members of an object, that meet a condition
    /// (`[?id == payload.id]`).
    indirect case matching(RaspSpecCondition)
    /// The member or element whose key or index is the event's value at a path
    /// (`[payload.id]`): a string is a key, an integer an index or a key of digits.
    indirect case eventKey(JSONPath)
  }

  /// The steps from the domain's state.
  public let components: [Component]
  /// Whether a step reads the event: a key from the event, or a filter whose value does.
  public let readsEvent: Bool
  /// Whether a step selects several values: `[]` or a filter.
  public let selectsMany: Bool

  /// Creates a path from its steps.
  ///
  /// ```swift
  /// let path = RaspSpecPath(components: [.key("todos"), .each, .key("completed")])
  /// path.description   // "todos[].completed"
  /// ```
  ///
  /// - Parameter components: The steps from the domain's state.
  public init(components: [Component]) {
    self.components = components
    var readsEvent = false
    var selectsMany = false
    for component in components {
      switch component {
      case .key, .index: break
      case .each: selectsMany = true
      case .eventKey: readsEvent = true
      case .matching(let condition):
        selectsMany = true
        if case .event = condition.value { readsEvent = true }
      }
    }
    self.readsEvent = readsEvent
    self.selectsMany = selectsMany
  }

  /// Creates a path of keys and indices from a `--select` path.
  ///
  /// ```swift
  /// let items = RaspSpecPath(try JSONPath("cart.items"))
  /// ```
  ///
  /// - Parameter path: A path to a place, without patterns or filters; `*` and `**` become
  ///   keys of those names, and filters are left out.
  public init(_ path: JSONPath) {
    self.init(
      components: path.components.map { component in
        switch component {
        case .key(let key): return .key(key)
        case .index(let index): return .index(index)
        case .anyChild: return .key("*")
        case .anyDescendants: return .key("**")
        }
      })
  }

  /// Parses a spec path: `items[0]`, `todos[?id == payload.id].completed`, `byId[payload.id]`.
  ///
  /// ```swift
  /// let path = try RaspSpecPath("todos[?completed == true]")
  /// ```
  ///
  /// - Parameter text: The path.
  /// - Throws: ``JSONPathError`` naming the column of the first mistake.
  public init(_ text: String) throws(JSONPathError) {
    var parser = SpecPathParser(text)
    self = try parser.parse()
  }

  /// The last step, if the path has one.
  ///
  /// ```swift
  /// try RaspSpecPath("todos[]").last   // .each
  /// ```
  public var last: Component? { components.last }

  /// The path as a spec writes it: `todos[?id == 3].completed`, `byId[payload.id]`, `.`.
  ///
  /// ```swift
  /// try RaspSpecPath(".todos[ ?id==3 ]").description   // "todos[?id == 3]"
  /// ```
  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        let plain = JSONPath(components: [.key(key)]).description
        if !text.isEmpty, !plain.hasPrefix("[") { text += "." }
        text += plain
      case .index(let index): text += "[\(index)]"
      case .each: text += "[]"
      case .matching(let condition): text += "[\(condition)]"
      case .eventKey(let path): text += "[\(path)]"
      }
    }
    return text.isEmpty ? "." : text
  }
}
