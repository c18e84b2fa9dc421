/// The walk behind ``JSONDiff``: compares two values in one pass, collecting differences.
struct DiffWalker {
  let options: JSONDiffOptions
  /// Whether to stop once one difference is found.
  let stopsAtFirstDifference: Bool
  /// The path of the values being compared.
  var path: [JSONPath.Component] = []
  var differences: [JSONDifference] = []

  init(options: JSONDiffOptions, stopsAtFirstDifference: Bool) {
    self.options = options
    self.stopsAtFirstDifference = stopsAtFirstDifference
  }

  var isDone: Bool { stopsAtFirstDifference && !differences.isEmpty }

  /// Whether differences at the current path are dropped.
  var isIgnored: Bool { !options.ignoring.isEmpty && options.ignores(path) }

  /// Compares the values at the current path.
  mutating func compare(_ expected: JSONValue, _ actual: JSONValue) {
    guard !isIgnored else { return }
    switch (expected, actual) {
    case (.object(let old), .object(let new)): compareMembers(old, new)
    case (.array(let old), .array(let new)): compareElements(old, new)
    default:
      if !scalarsAreEqual(expected, actual) { record(expected, actual) }
    }
  }

  /// Whether two values that are not both objects or both arrays are equal.
  func scalarsAreEqual(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
    switch (expected, actual) {
    case (.number(let a), .number(let b)): return options.numbersAreEqual(a, b)
    default: return expected == actual
    }
  }

  /// Compares two objects in one walk over their sorted keys.
  mutating func compareMembers(_ old: JSONObject, _ new: JSONObject) {
    let oldMembers = old.members
    let newMembers = new.members
    var i = 0
    var j = 0
    while (i < oldMembers.count || j < newMembers.count) && !isDone {
      let order: Int
      if i == oldMembers.count {
        order = 1
      } else if j == newMembers.count {
        order = -1
      } else {
        order = UTF8Order.compare(oldMembers[i].key, newMembers[j].key)
      }
      if order < 0 {
        path.append(.key(oldMembers[i].key))
        if !isIgnored { record(oldMembers[i].value, .none) }
        i += 1
      } else if order > 0 {
        path.append(.key(newMembers[j].key))
        if !isIgnored { record(.none, newMembers[j].value) }
        j += 1
      } else {
        path.append(.key(oldMembers[i].key))
        compare(oldMembers[i].value, newMembers[j].value)
        i += 1
        j += 1
      }
      path.removeLast()
    }
  }

  /// Compares two arrays index by index: changes in the common prefix, then removals from the
  /// end backwards, or additions in order, so that patch operations apply in sequence.
  mutating func compareElements(_ old: [JSONValue], _ new: [JSONValue]) {
    let common = min(old.count, new.count)
    for index in 0..<common where !isDone {
      path.append(.index(index))
      compare(old[index], new[index])
      path.removeLast()
    }
    for index in (common..<old.count).reversed() where !isDone {
      path.append(.index(index))
      if !isIgnored { record(old[index], .none) }
      path.removeLast()
    }
    for index in common..<new.count where !isDone {
      path.append(.index(index))
      if !isIgnored { record(.none, new[index]) }
      path.removeLast()
    }
  }

  mutating func record(_ expected: JSONValue?, _ actual: JSONValue?) {
    differences.append(
      JSONDifference(path: JSONPath(components: path), expected: expected, actual: actual))
  }
}
