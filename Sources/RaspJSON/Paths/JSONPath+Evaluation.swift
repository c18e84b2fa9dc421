extension JSONPath {
  /// The value the path selects in `root`, or `nil` when it is not there.
  ///
  /// With `|length`, the result is the number of elements of an array, of members of an object
  /// or of characters (Unicode scalars) of a string, 0 for `null` and the absolute value of a
  /// number, as in jq; a boolean has no length and gives `nil`. A path with ``filters`` that
  /// selects several values, or none (`[]`), gives `nil` too: ``values(in:)`` gives them all.
  ///
  /// ```swift
  /// let state: JSONValue = ["nav": ["stack": ["home", "list"]]]
  /// try JSONPath("nav.stack[-1]").evaluate(state)        // "list"
  /// try JSONPath("nav.stack|length").evaluate(state)     // 2
  /// try JSONPath("nav.modal").evaluate(state)            // nil
  /// ```
  ///
  /// - Parameter root: The document.
  /// - Returns: The selected value.
  public func evaluate(_ root: JSONValue) -> JSONValue? {
    var value = root
    for component in components {
      guard let child = JSONPath.child(of: value, at: component) else { return nil }
      value = child
    }
    if filters.isEmpty { return value }
    if selectsLength { return JSONPath.length(of: value) }
    let results = JSONPath.apply(filters[...], to: value)
    return results.count == 1 ? results[0] : nil
  }

  /// Each value the path selects in `root`, in order, as `--select` prints them: `null` for
  /// one that is not there.
  ///
  /// A path without `[]` selects one value; with `[]`, one for each element (or member) of
  /// each value it applies to, none for an empty array. Where a step finds nothing, or jq
  /// would stop with an error (`keys` of a string, `[]` of a number), the value is not there
  /// and the steps after it are skipped.
  ///
  /// ```swift
  /// let state: JSONValue = ["nav": ["stack": [["title": "Home"], ["title": "List"]]]]
  /// try JSONPath("nav.stack[].title", allowsFilters: true).values(in: state)  // ["Home", "List"]
  /// try JSONPath("nav.stack|keys", allowsFilters: true).values(in: state)     // [[0, 1]]
  /// try JSONPath("nav.modal[]", allowsFilters: true).values(in: state)        // [null]
  /// ```
  ///
  /// - Parameter root: The document.
  /// - Returns: The selected values.
  /// - Complexity: O(*n*) in the size of the values selected, and of the keys sorted.
  public func values(in root: JSONValue) -> [JSONValue] {
    var value: JSONValue? = root
    for component in components {
      guard let current = value else { break }
      value = JSONPath.child(of: current, at: component)
    }
    guard let value else { return [.null] }
    return JSONPath.apply(filters[...], to: value).map { $0 ?? .null }
  }

  /// The child of `value` that one component selects.
  static func child(of value: JSONValue, at component: Component) -> JSONValue? {
    switch (component, value) {
    case (.key(let key), .object(let object)): return object[key]
    case (.key(let key), .array(let elements)):
      guard let index = arrayIndex(fromKey: key), index < elements.count else { return nil }
      return elements[index]
    case (.index(let index), .array(let elements)):
      let resolved = index < 0 ? elements.count + index : index
      guard resolved >= 0, resolved < elements.count else { return nil }
      return elements[resolved]
    default:
      return nil
    }
  }

  /// The length of a value as `|length` computes it.
  static func length(of value: JSONValue) -> JSONValue? {
    switch value {
    case .null: return .number(JSONNumber(0))
    case .array(let elements): return .number(JSONNumber(elements.count))
    case .object(let object): return .number(JSONNumber(object.count))
    case .string(let text): return .number(JSONNumber(text.unicodeScalars.count))
    case .number(let number): return .number(absoluteValue(of: number))
    case .bool: return nil
    }
  }

  /// Whether this pattern matches a concrete path or one of its ancestors.
  ///
  /// A concrete path has only keys and indices. `*` matches any one step and `**` any number of
  /// steps, including none. Keys match by code points; a key of digits (`stack.1`) matches the
  /// index it denotes, and an index matches a key of its digits. A pattern that matches an
  /// ancestor matches everything below it, so ignoring `lifecycle.changedAt` ignores the whole
  /// value there.
  ///
  /// ```swift
  /// let pattern = try JSONPath("**.ts", allowsPatterns: true)
  /// pattern.matches([.key("geo"), .key("ts")])             // true
  /// pattern.matches([.key("geo"), .key("ts"), .index(0)])  // true: below a match
  /// ```
  ///
  /// - Parameter concrete: The steps of a concrete path.
  /// - Returns: `true` when the pattern matches the path or an ancestor of it.
  public func matches(_ concrete: [Component]) -> Bool {
    guard components.contains(.anyDescendants) else {
      // Step by step: without `**`, there is one way to match, or none.
      guard components.count <= concrete.count else { return false }
      for (pattern, step) in zip(components, concrete) where !Self.stepMatches(pattern, step) {
        return false
      }
      return true
    }
    // Which positions of the path the pattern's steps so far can end at, all at once: trying
    // each `**`'s every length in turn would take time that grows as a power of the depth,
    // with a few `**` (`**.**.**.ts` on a value 100 levels deep).
    var reached = [Bool](repeating: false, count: concrete.count + 1)
    reached[0] = true
    for pattern in components {
      var next = [Bool](repeating: false, count: concrete.count + 1)
      var isReached = false
      if pattern == .anyDescendants {
        for position in next.indices {
          isReached = isReached || reached[position]
          next[position] = isReached
        }
      } else {
        for (position, step) in concrete.enumerated()
        where reached[position] && Self.stepMatches(pattern, step) {
          next[position + 1] = true
          isReached = true
        }
      }
      guard isReached else { return false }
      reached = next
    }
    // The pattern matched the path, or an ancestor of it.
    return true
  }

  private static func stepMatches(_ pattern: Component, _ step: Component) -> Bool {
    switch (pattern, step) {
    case (.anyChild, _): return true
    case (.key(let a), .key(let b)): return UTF8Order.equal(a, b)
    case (.index(let a), .index(let b)): return a == b
    case (.key(let a), .index(let b)): return arrayIndex(fromKey: a) == b
    case (.index(let a), .key(let b)): return arrayIndex(fromKey: b) == a
    default: return false
    }
  }
}
