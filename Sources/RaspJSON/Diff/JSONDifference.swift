/// One place where two JSON values differ: a member or element added, removed or changed.
///
/// The ``path`` is concrete — keys and indices only — and ``expected`` and ``actual`` are the
/// values found there on each side, `nil` where there is none. In `rasp check` the expected side
/// is the golden file; in `rasp replay --emit diff` it is the previous snapshot.
///
/// ```swift
/// let expected: JSONValue = ["geo": ["heading": 90]]
/// let actual: JSONValue = ["geo": ["heading": 91]]
/// let difference = JSONDiff.differences(from: expected, to: actual)[0]
/// print(difference)                  // geo.heading: 90 -> 91
/// print(difference.patchOperation)   // {"op":"replace","path":"/geo/heading","value":91}
/// ```
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
  /// What happened at a path.
  ///
  /// ```swift
  /// JSONDifference(path: JSONPath(components: [.key("a")]), expected: nil, actual: 1).kind
  /// // .added
  /// ```
  public enum Kind: Sendable, Hashable {
    /// The value is only on the actual side.
    case added
    /// The value is only on the expected side.
    case removed
    /// Both sides have a value, and the values differ.
    case changed
  }

  /// Where the values differ: keys and indices from the root.
  public var path: JSONPath
  /// The expected (or old) value, or `nil` when the expected side has none there.
  public var expected: JSONValue?
  /// The actual (or new) value, or `nil` when the actual side has none there.
  public var actual: JSONValue?

  /// Creates a difference.
  ///
  /// ```swift
  /// let added = JSONDifference(
  ///   path: JSONPath(components: [.key("nav"), .key("stack"), .index(2)]),
  ///   expected: nil, actual: "detail")
  /// ```
  ///
  /// - Parameters:
  ///   - path: A concrete path: keys and indices only.
  ///   - expected: The expected value there, or `nil` for none.
  ///   - actual: The actual value there, or `nil` for none. At least one side has a value.
  public init(path: JSONPath, expected: JSONValue?, actual: JSONValue?) {
    self.path = path
    self.expected = expected
    self.actual = actual
  }

  /// Whether the difference adds, removes or changes a value.
  ///
  /// ```swift
  /// let difference = JSONDiff.differences(from: [1], to: [1, 2])[0]
  /// difference.kind   // .added
  /// ```
  public var kind: Kind {
    switch (expected, actual) {
    case (.none, _): return .added
    case (_, .none): return .removed
    default: return .changed
    }
  }

  /// The RFC 6902 operation that turns the expected side into the actual side here.
  ///
  /// A change is a `replace`, an addition an `add` and a removal a `remove` (without a
  /// `value`); the path is an RFC 6901 pointer, with `~` written `~0` and `/` written `~1`.
  ///
  /// ```swift
  /// let difference = JSONDiff.differences(from: ["a/b": 1], to: [:])[0]
  /// print(difference.patchOperation)   // {"op":"remove","path":"/a~1b"}
  /// ```
  public var patchOperation: JSONValue {
    var operation = JSONObject()
    operation["path"] = .string(path.pointer)
    switch (expected, actual) {
    case (_, .none):
      operation["op"] = "remove"
    case (.none, .some(let value)):
      operation["op"] = "add"
      operation["value"] = value
    case (.some, .some(let value)):
      operation["op"] = "replace"
      operation["value"] = value
    }
    return .object(operation)
  }

  /// The difference on one line: `geo.heading: 90 -> 91`, `nav.stack[2]: + "detail"`,
  /// `geo.fix: - null`.
  ///
  /// ```swift
  /// print(JSONDiff.differences(from: ["a": 1], to: ["a": 2])[0])   // a: 1 -> 2
  /// ```
  public var description: String {
    switch (expected, actual) {
    case (.some(let old), .some(let new)): return "\(path): \(old) -> \(new)"
    case (.none, .some(let new)): return "\(path): + \(new)"
    case (.some(let old), .none): return "\(path): - \(old)"
    case (.none, .none): return "\(path): (no values)"
    }
  }
}
