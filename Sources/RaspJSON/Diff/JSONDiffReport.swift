/// Renders the differences between two values as a tree for people to read.
///
/// Only the paths that differ are expanded. A changed value shows a `-` line with the expected
/// value and a `+` line with the actual one; an added member or element shows only its `+` line
/// and a removed one only its `-` line. Runs of siblings that are equal are collapsed into one
/// line, `... (2 unchanged)`, in their place. Values are printed as canonical compact JSON, keys
/// as JSON strings and array elements with their index (`[1]: "list"`), so the same pair of
/// values always renders the same text. The first two columns are the gutter (`-` or `+`, plain
/// ASCII so that `grep '^-'` and patch tools read them, or spaces), so the lines can be coloured
/// by their first character; the report itself has no colour codes.
///
/// ```swift
/// let expected = try JSONParser.parse(
///   #"{"geo":{"heading":90,"location":null},"nav":{"stack":[]}}"#)
/// let actual = try JSONParser.parse(
///   #"{"geo":{"heading":91,"location":null},"nav":{"stack":[]}}"#)
/// print(JSONDiffReport.render(expected: expected, actual: actual))
/// //   {
/// //     "geo": {
/// // -     "heading": 90,
/// // +     "heading": 91,
/// //       ... (1 unchanged)
/// //     },
/// //     ... (1 unchanged)
/// //   }
/// ```
public enum JSONDiffReport {
  /// The report for a pair of values, or an empty string when they do not differ.
  ///
  /// Siblings whose differences are all ignored, or whose numbers are within the tolerance,
  /// count as unchanged.
  ///
  /// ```swift
  /// print(JSONDiffReport.render(
  ///   expected: ["stack": ["home"]], actual: ["stack": ["home", "list"]]))
  /// //   {
  /// //     "stack": [
  /// //       ... (1 unchanged),
  /// // +     [1]: "list"
  /// //     ]
  /// //   }
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The expected (or old) value.
  ///   - actual: The actual (or new) value.
  ///   - options: What to ignore and how close numbers must be.
  /// - Returns: The report's lines joined by `\n`, without a final line end.
  public static func render(
    expected: JSONValue, actual: JSONValue, options: JSONDiffOptions = .init()
  ) -> String {
    var report = ReportWriter(options: options)
    guard report.differs(expected, actual) else { return "" }
    report.writeDifference(label: "", expected: expected, actual: actual, depth: 0, isLast: true)
    return report.lines.joined(separator: "\n")
  }
}

/// Builds the lines of a ``JSONDiffReport``.
private struct ReportWriter {
  let options: JSONDiffOptions
  var path: [JSONPath.Component] = []
  var lines: [String] = []

  init(options: JSONDiffOptions) { self.options = options }

  /// One member or element of a container, on one side or both.
  ///
  /// (Absent sides are spelled `.none`, never `nil` in a conditional expression: JSONValue is
  /// ExpressibleByNilLiteral, so `condition ? value : nil` can make `.null`.)
  struct Child {
    let component: JSONPath.Component
    let label: String
    let expected: JSONValue?
    let actual: JSONValue?
  }

  /// Whether the values at the current path differ, under the options.
  func differs(_ expected: JSONValue?, _ actual: JSONValue?) -> Bool {
    var walker = DiffWalker(options: options, stopsAtFirstDifference: true)
    walker.path = path
    switch (expected, actual) {
    case (.some(let old), .some(let new)): walker.compare(old, new)
    case (.none, .none): return false
    default: return !walker.isIgnored
    }
    return !walker.differences.isEmpty
  }

  /// Writes a line: the gutter, the indentation, then the text.
  mutating func line(_ gutter: String, _ depth: Int, _ text: String) {
    lines.append(gutter + " " + String(repeating: "  ", count: depth) + text)
  }

  /// Writes the lines for two values known to differ.
  mutating func writeDifference(
    label: String, expected: JSONValue, actual: JSONValue, depth: Int, isLast: Bool
  ) {
    let comma = isLast ? "" : ","
    switch (expected, actual) {
    case (.object(let old), .object(let new)):
      line(" ", depth, label + "{")
      writeChildren(members(old, new), depth: depth + 1)
      line(" ", depth, "}" + comma)
    case (.array(let old), .array(let new)):
      line(" ", depth, label + "[")
      writeChildren(elements(old, new), depth: depth + 1)
      line(" ", depth, "]" + comma)
    default:
      line("-", depth, label + expected.description + comma)
      line("+", depth, label + actual.description + comma)
    }
  }

  /// Writes the children of a container: differing ones expanded, runs of others collapsed.
  mutating func writeChildren(_ children: [Child], depth: Int) {
    enum Entry {
      case unchanged(Int)
      case changed(Child)
    }
    var entries: [Entry] = []
    for child in children {
      path.append(child.component)
      let isChanged = differs(child.expected, child.actual)
      path.removeLast()
      if isChanged {
        entries.append(.changed(child))
      } else if case .unchanged(let count)? = entries.last {
        entries[entries.count - 1] = .unchanged(count + 1)
      } else {
        entries.append(.unchanged(1))
      }
    }
    for (index, entry) in entries.enumerated() {
      let isLast = index == entries.count - 1
      let comma = isLast ? "" : ","
      switch entry {
      case .unchanged(let count):
        line(" ", depth, "... (\(count) unchanged)" + comma)
      case .changed(let child):
        switch (child.expected, child.actual) {
        case (.some(let old), .some(let new)):
          path.append(child.component)
          writeDifference(
            label: child.label, expected: old, actual: new, depth: depth, isLast: isLast)
          path.removeLast()
        case (.some(let old), .none):
          line("-", depth, child.label + old.description + comma)
        case (.none, .some(let new)):
          line("+", depth, child.label + new.description + comma)
        case (.none, .none):
          break
        }
      }
    }
  }

  /// The members of two objects, merged in key order.
  func members(_ old: JSONObject, _ new: JSONObject) -> [Child] {
    var children: [Child] = []
    let oldMembers = old.members
    let newMembers = new.members
    var i = 0
    var j = 0
    while i < oldMembers.count || j < newMembers.count {
      let order: Int
      if i == oldMembers.count {
        order = 1
      } else if j == newMembers.count {
        order = -1
      } else {
        order = UTF8Order.compare(oldMembers[i].key, newMembers[j].key)
      }
      let key = order <= 0 ? oldMembers[i].key : newMembers[j].key
      children.append(
        Child(
          component: .key(key), label: JSONValue.string(key).description + ": ",
          expected: order <= 0 ? .some(oldMembers[i].value) : .none,
          actual: order >= 0 ? .some(newMembers[j].value) : .none))
      if order <= 0 { i += 1 }
      if order >= 0 { j += 1 }
    }
    return children
  }

  /// The elements of two arrays, index by index.
  func elements(_ old: [JSONValue], _ new: [JSONValue]) -> [Child] {
    (0..<max(old.count, new.count)).map { index in
      Child(
        component: .index(index), label: "[\(index)]: ",
        expected: index < old.count ? .some(old[index]) : .none,
        actual: index < new.count ? .some(new[index]) : .none)
    }
  }
}
