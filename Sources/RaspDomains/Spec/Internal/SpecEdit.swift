import RaspJSON

/// Why an operation cannot change the state: what follows `cannot <verb> '<path>': `.
struct SpecRejection: Error {
  let detail: String
}

/// One step to a place in a state: a member's key, or an element's index.
enum SpecStep {
  case key(String)
  case index(Int)
}

/// How to take back one change an operation made in place, so that an event rejected by a
/// later operation leaves the state as it was (``SpecEdit/undo(_:in:)``).
enum SpecUndo {
  /// The value at the place was `old`; `nil` when there was none.
  case replaced([SpecStep], old: JSONValue?)
  /// The value `old` was removed from the place: an element of an array, whose index is the
  /// last step, or a member of an object.
  case removed([SpecStep], old: JSONValue)
  /// An element was appended to the array at the place.
  case appended([SpecStep])
}

/// Finds the value at a path of a state and lets an operation change it in place.
///
/// Each change is noted in a journal (``SpecUndo``) as it is made, so that a rejected event can
/// be taken back without having copied the state first: the state is changed where it is, in
/// time proportional to the path, not to the size of what the path goes through.
enum SpecEdit {
  /// What an operation's body gets: the value at a place (`nil` when it is not there), the
  /// place, and the journal to note its change in.
  typealias Body = (inout JSONValue?, [SpecStep], inout [SpecUndo]) throws(SpecRejection) -> Void

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
  /// change it or set it to `nil` to remove it from its object or array, and notes what it did
  /// in `journal`. A path with `[]` or a filter calls `body` once for each value it selects.
  ///
  /// `body` must throw before it changes anything. When it throws, or the path cannot be
  /// followed, `root` is as it was but for the changes the journal notes.
  ///
  /// - Throws: ``SpecRejection`` when the path cannot be followed, or from `body`.
  static func update(
    _ root: inout JSONValue, at path: RaspSpecPath, missing: Missing,
    journal: inout [SpecUndo], _ body: Body
  ) throws(SpecRejection) {
    // The state leaves `root` while it changes, so that nothing else holds what it changes.
    var value: JSONValue? = root
    root = .null
    defer { root = value ?? .null }
    var place: [SpecStep] = []
    try update(&value, path.components, depth: 0, missing: missing, &place, &journal, body)
  }

  private static func update(
    _ value: inout JSONValue?, _ components: [RaspSpecPath.Component], depth: Int,
    missing: Missing, _ place: inout [SpecStep], _ journal: inout [SpecUndo], _ body: Body
  ) throws(SpecRejection) {
    guard depth < components.count else {
      try body(&value, place, &journal)
      return
    }
    let component = components[depth]
    func here() -> String { name(components, depth) }
    switch component {
    case .key, .index: break
    case .each, .matching:
      try updateEach(&value, components, depth: depth, missing: missing, &place, &journal, body)
      return
    case .eventKey(let path):
      throw SpecRejection(
        detail: "its key [\(path)] was not read from an event; decode events with RaspSpecDomain")
    }
    // Containers are taken out of `value` with `if case`, not in a `switch`, which would keep
    // a second reference to them for its length and make every change copy them.
    if case .object? = value {
      try updateMember(&value, components, depth: depth, missing: missing, &place, &journal, body)
      return
    }
    if case .array? = value {
      try updateElement(&value, components, depth: depth, missing: missing, &place, &journal, body)
      return
    }
    switch value {
    case nil, .null?:
      switch missing {
      case .ignore: return
      case .create:
        guard case .key = component else {
          throw SpecRejection(
            detail: value == nil
              ? "there is no array at \(here())" : "\(here()) is null, not an array")
        }
        var object: JSONValue? = .object(JSONObject())
        try update(&object, components, depth: depth, missing: missing, &place, &journal, body)
        journal.append(.replaced(place, old: value))
        value = object
      case .fail:
        throw SpecRejection(
          detail: value == nil ? "there is nothing at \(here())" : "\(here()) is null")
      }
    case let scalar?:
      if missing == .ignore { return }
      let expected = if case .key = component { "an object" } else { "an array" }
      throw SpecRejection(detail: "\(here()) holds \(scalar.kind.phrase), not \(expected)")
    }
  }

  /// Follows a key into an object: the rest of the path in the member's value.
  private static func updateMember(
    _ value: inout JSONValue?, _ components: [RaspSpecPath.Component], depth: Int,
    missing: Missing, _ place: inout [SpecStep], _ journal: inout [SpecUndo], _ body: Body
  ) throws(SpecRejection) {
    func here() -> String { name(components, depth) }
    let component = components[depth]
    guard case .object(var object)? = value else { return }
    guard case .key(let key) = component else {
      if missing == .ignore { return }
      throw SpecRejection(detail: "\(here()) holds an object, not an array")
    }
    var child = object[key]
    if child == nil, missing == .ignore { return }
    value = nil
    object[key] = nil
    place.append(.key(key))
    defer {
      place.removeLast()
      object[key] = child
      value = .object(object)
    }
    try update(&child, components, depth: depth + 1, missing: missing, &place, &journal, body)
  }

  /// Follows an index into an array: the rest of the path in the element.
  private static func updateElement(
    _ value: inout JSONValue?, _ components: [RaspSpecPath.Component], depth: Int,
    missing: Missing, _ place: inout [SpecStep], _ journal: inout [SpecUndo], _ body: Body
  ) throws(SpecRejection) {
    func here() -> String { name(components, depth) }
    let component = components[depth]
    guard case .array(var elements)? = value else { return }
    let requested: Int
    switch component {
    case .index(let index): requested = index
    case .key(let key):
      guard let index = arrayIndex(fromKey: key) else {
        if missing == .ignore { return }
        throw SpecRejection(detail: "\(here()) holds an array, not an object")
      }
      requested = index
    case .each, .matching, .eventKey: return
    }
    let index = requested < 0 ? elements.count + requested : requested
    guard elements.indices.contains(index) else {
      if missing == .ignore { return }
      throw SpecRejection(
        detail:
          "index \(requested) is out of range: \(here()) has \(count(elements.count, "element"))")
    }
    value = nil
    var child: JSONValue? = elements[index]
    elements[index] = .null
    place.append(.index(index))
    defer {
      place.removeLast()
      if let child { elements[index] = child } else { elements.remove(at: index) }
      value = .array(elements)
    }
    try update(&child, components, depth: depth + 1, missing: missing, &place, &journal, body)
  }

  /// Follows `[]` or a filter: the rest of the path for every element (or member) selected.
  /// A filter that selects nothing rejects the operation, unless `missing` is `.ignore`;
  /// `[]` of an empty array or object does nothing.
  ///
  /// The elements removed are removed together at the end; each is noted at the index it has
  /// once those before it are gone, so that the journal, taken back from its end, puts them
  /// back in order.
  private static func updateEach(
    _ value: inout JSONValue?, _ components: [RaspSpecPath.Component], depth: Int,
    missing: Missing, _ place: inout [SpecStep], _ journal: inout [SpecUndo], _ body: Body
  ) throws(SpecRejection) {
    var condition: RaspSpecCondition?
    if case .matching(let filter) = components[depth] {
      guard case .literal = filter.value else {
        throw SpecRejection(
          detail:
            "its filter [\(filter)] was not read from an event; decode events with RaspSpecDomain")
      }
      condition = filter
    }
    func here() -> String { name(components, depth) }
    var matched = 0
    if case .array(var elements)? = value {
      value = nil
      var removed: [Int] = []
      defer { value = .array(removing(removed, from: elements)) }
      for index in elements.indices where condition?.matches(elements[index]) ?? true {
        matched += 1
        var child: JSONValue? = elements[index]
        elements[index] = .null
        place.append(.index(index - removed.count))
        defer {
          place.removeLast()
          if let child { elements[index] = child } else { removed.append(index) }
        }
        try update(&child, components, depth: depth + 1, missing: missing, &place, &journal, body)
      }
    } else if case .object(var object)? = value {
      value = nil
      var members = object.members
      object = JSONObject()
      var removed: [Int] = []
      defer { value = .object(JSONObject(sortedMembers: removing(removed, from: members))) }
      for index in members.indices where condition?.matches(members[index].value) ?? true {
        matched += 1
        var child: JSONValue? = members[index].value
        members[index].value = .null
        place.append(.key(members[index].key))
        defer {
          place.removeLast()
          if let child { members[index].value = child } else { removed.append(index) }
        }
        try update(&child, components, depth: depth + 1, missing: missing, &place, &journal, body)
      }
    } else if missing == .ignore {
      return
    } else if let scalar = value, scalar != .null {
      throw SpecRejection(
        detail: "\(here()) holds \(scalar.kind.phrase), not an array or an object")
    } else {
      throw SpecRejection(
        detail: value == nil
          ? "there is no array or object at \(here())"
          : "\(here()) is null, not an array or an object")
    }
    if let condition, matched == 0, missing != .ignore {
      throw SpecRejection(
        detail: "no element of \(here()) has \(String(condition.description.dropFirst()))")
    }
  }

  /// Takes back the changes a journal notes, from the last: the state is then as it was
  /// before the first.
  static func undo(_ journal: [SpecUndo], in root: inout JSONValue) {
    var value: JSONValue? = root
    root = .null
    for entry in journal.reversed() {
      switch entry {
      case .replaced(let place, let old):
        modify(&value, place[...]) { target in target = old }
      case .removed(let place, let old):
        guard case .index(let index)? = place.last else {
          modify(&value, place[...]) { target in target = old }
          continue
        }
        modify(&value, place.dropLast()) { target in
          guard case .array(var elements)? = target, index <= elements.count else { return }
          target = nil
          elements.insert(old, at: index)
          target = .array(elements)
        }
      case .appended(let place):
        modify(&value, place[...]) { target in
          guard case .array(var elements)? = target, !elements.isEmpty else { return }
          target = nil
          elements.removeLast()
          target = .array(elements)
        }
      }
    }
    root = value ?? .null
  }

  /// Calls `body` with the value at a place that a journal noted, in place; a member that is
  /// not there is `nil`, and an element that is not there is left alone.
  private static func modify(
    _ value: inout JSONValue?, _ place: ArraySlice<SpecStep>, _ body: (inout JSONValue?) -> Void
  ) {
    guard let step = place.first else {
      body(&value)
      return
    }
    if case .key(let key) = step, case .object(var object)? = value {
      value = nil
      var child = object[key]
      object[key] = nil
      modify(&child, place.dropFirst(), body)
      object[key] = child
      value = .object(object)
    } else if case .index(let index) = step, case .array(var elements)? = value,
      elements.indices.contains(index)
    {
      value = nil
      var child: JSONValue? = elements[index]
      elements[index] = .null
      modify(&child, place.dropFirst(), body)
      if let child { elements[index] = child } else { elements.remove(at: index) }
      value = .array(elements)
    }
  }

  /// `elements` without those at `indices`, which are in increasing order.
  private static func removing<Element>(_ indices: [Int], from elements: [Element]) -> [Element] {
    guard !indices.isEmpty else { return elements }
    var kept: [Element] = []
    kept.reserveCapacity(elements.count - indices.count)
    var next = 0
    for index in elements.indices {
      if next < indices.count, indices[next] == index {
        next += 1
      } else {
        kept.append(elements[index])
      }
    }
    return kept
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
  static func name(_ components: [RaspSpecPath.Component], _ depth: Int) -> String {
    guard depth > 0 else { return "the state" }
    return "'\(RaspSpecPath(components: Array(components[..<depth])).description)'"
  }

  /// A path for messages: `'items'`, or `the state` for the whole state.
  static func name(_ path: RaspSpecPath) -> String {
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
