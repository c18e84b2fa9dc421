import RaspJSON

/// Why an operation cannot change the state: what follows `cannot <verb> '<path>': `.
struct SpecRejection: Error {
  let detail: String
}

/// Finds the value at a path of a state and lets an operation change it in place.
enum SpecEdit {
  /// What to do when the path leads through a value that is not there, or not a container.
  enum Missing {
    /// Create missing or `null` objects for keys; fail for indices and other values.
    case create
    /// Do nothing: there is nothing to change.
    case ignore
    /// Fail: the operation needs its target.
    case fail
  }

  /// Calls `body` with the value at `path` in `root` (`nil` when it is not there); `body` may
  /// change it or set it to `nil` to remove it from its object or array.
  ///
  /// - Throws: ``SpecRejection`` when the path cannot be followed, or from `body`.
  static func update(
    _ root: inout JSONValue, at path: JSONPath, missing: Missing,
    _ body: (inout JSONValue?) throws(SpecRejection) -> Void
  ) throws(SpecRejection) {
    var value: JSONValue? = root
    try update(&value, path.components, depth: 0, missing: missing, body)
    root = value ?? .null
  }

  private static func update(
    _ value: inout JSONValue?, _ components: [JSONPath.Component], depth: Int, missing: Missing,
    _ body: (inout JSONValue?) throws(SpecRejection) -> Void
  ) throws(SpecRejection) {
    guard depth < components.count else {
      try body(&value)
      return
    }
    let component = components[depth]
    let here = name(components, depth)
    switch value {
    case nil, .null?:
      switch missing {
      case .ignore: return
      case .create:
        guard case .key = component else {
          throw SpecRejection(
            detail: value == nil ? "there is no array at \(here)" : "\(here) is null, not an array")
        }
        var object: JSONValue? = .object(JSONObject())
        try update(&object, components, depth: depth, missing: missing, body)
        value = object
      case .fail:
        throw SpecRejection(
          detail: value == nil ? "there is nothing at \(here)" : "\(here) is null")
      }
    case .object(var object)?:
      guard case .key(let key) = component else {
        if missing == .ignore { return }
        throw SpecRejection(detail: "\(here) holds an object, not an array")
      }
      var child = object[key]
      if child == nil, missing == .ignore { return }
      value = nil
      object[key] = nil
      try update(&child, components, depth: depth + 1, missing: missing, body)
      object[key] = child
      value = .object(object)
    case .array(var elements)?:
      let requested: Int
      switch component {
      case .index(let index): requested = index
      case .key(let key):
        guard let index = arrayIndex(fromKey: key) else {
          if missing == .ignore { return }
          throw SpecRejection(detail: "\(here) holds an array, not an object")
        }
        requested = index
      case .anyChild, .anyDescendants:
        throw SpecRejection(detail: "patterns such as '*' cannot name a value to change")
      }
      let index = requested < 0 ? elements.count + requested : requested
      guard elements.indices.contains(index) else {
        if missing == .ignore { return }
        throw SpecRejection(
          detail:
            "index \(requested) is out of range: \(here) has \(count(elements.count, "element"))")
      }
      value = nil
      var child: JSONValue? = elements[index]
      elements[index] = .null
      try update(&child, components, depth: depth + 1, missing: missing, body)
      if let child { elements[index] = child } else { elements.remove(at: index) }
      value = .array(elements)
    case let scalar?:
      if missing == .ignore { return }
      let expected = if case .key = component { "an object" } else { "an array" }
      throw SpecRejection(detail: "\(here) holds \(scalar.kind.phrase), not \(expected)")
    }
  }

  /// The array index a key of digits denotes (`stack.1`), as paths read it: `0` or digits
  /// without a leading zero; `01`, `+1` and `-1` are keys.
  static func arrayIndex(fromKey key: String) -> Int? {
    let utf8 = key.utf8
    guard let first = utf8.first, utf8.count <= 18, first != UInt8(ascii: "0") || utf8.count == 1
    else {
      return nil
    }
    var value = 0
    for byte in utf8 {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// The first `depth` components as a quoted path for messages, or `the state` for none.
  static func name(_ components: [JSONPath.Component], _ depth: Int) -> String {
    guard depth > 0 else { return "the state" }
    return "'\(JSONPath(components: Array(components[..<depth])).description)'"
  }

  /// A path for messages: `'items'`, or `the state` for the whole state.
  static func name(_ path: JSONPath) -> String {
    name(path.components, path.components.count)
  }

  /// A value as compact JSON for messages, shortened when long.
  static func quote(_ value: JSONValue) -> String {
    let text = value.description
    guard text.count > 40 else { return text }
    return String(text.prefix(37)) + "…"
  }

  /// `1 element`, `3 elements`.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
