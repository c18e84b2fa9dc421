/// Structural differences between two JSON values, compared by meaning.
///
/// Key order, whitespace and number spelling never matter: objects are compared member by
/// member (one ordered walk over their sorted keys), arrays element by element, and scalars by
/// their JSON value (`1` equals `1.0`). The differences come in document order — except that
/// elements removed from the end of an array come last first — so that, as RFC 6902 operations
/// applied in order, they turn one value into the other.
///
/// | expected        | actual            | differences                           |
/// |-----------------|-------------------|---------------------------------------|
/// | `{"a":1,"b":2}` | `{"b":2.0,"a":1}` | none                                  |
/// | `{"a":1}`       | `{"a":2}`         | `a: 1 -> 2`                           |
/// | `{"a":1}`       | `{"b":1}`         | `a: - 1`, `b: + 1`                    |
/// | `[1,2,3]`       | `[1]`             | `[2]: - 3`, `[1]: - 2`                |
/// | `[1]`           | `[0,2,3]`         | `[0]: 1 -> 0`, `[1]: + 2`, `[2]: + 3` |
/// | `{"a":[1]}`     | `{"a":{}}`        | `a: [1] -> {}`                        |
///
/// ```swift
/// let expected = try JSONParser.parse(#"{"geo":{"heading":90},"nav":{"stack":["home"]}}"#)
/// let actual = try JSONParser.parse(#"{"nav":{"stack":["home","list"]},"geo":{"heading":91}}"#)
/// for difference in JSONDiff.differences(from: expected, to: actual) {
///   print(difference)
/// }
/// // geo.heading: 90 -> 91
/// // nav.stack[1]: + "list"
/// ```
public enum JSONDiff {
  /// Every place where `actual` differs from `expected`, in document order.
  ///
  /// ```swift
  /// JSONDiff.differences(from: ["a": 1, "b": [1, 2]], to: ["a": 1.0, "b": [1]])
  /// // [b[1]: - 2]
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The expected (or old) value.
  ///   - actual: The actual (or new) value.
  ///   - options: What to ignore and how close numbers must be.
  /// - Returns: The differences, each at a concrete path; empty when the values are equal.
  /// - Complexity: O(*n*) in the size of the two values (times the number of ignore patterns).
  public static func differences(
    from expected: JSONValue, to actual: JSONValue, options: JSONDiffOptions = .init()
  ) -> [JSONDifference] {
    var walker = DiffWalker(options: options, stopsAtFirstDifference: false)
    walker.compare(expected, actual)
    return walker.differences
  }

  /// Whether `actual` differs from `expected` anywhere, stopping at the first difference.
  ///
  /// ```swift
  /// JSONDiff.hasDifferences(from: ["a": 1.0], to: ["a": 1])   // false
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The expected (or old) value.
  ///   - actual: The actual (or new) value.
  ///   - options: What to ignore and how close numbers must be.
  /// - Returns: `true` when ``differences(from:to:options:)`` would not be empty.
  public static func hasDifferences(
    from expected: JSONValue, to actual: JSONValue, options: JSONDiffOptions = .init()
  ) -> Bool {
    var walker = DiffWalker(options: options, stopsAtFirstDifference: true)
    walker.compare(expected, actual)
    return !walker.differences.isEmpty
  }

  /// The RFC 6902 JSON Patch that turns `expected` into `actual`: an array of operations.
  ///
  /// Applying the patch to `expected` with ``JSONPatch/apply(_:to:)`` gives `actual` (unless
  /// options drop some differences).
  ///
  /// ```swift
  /// let patch = JSONDiff.patch(from: ["geo": ["heading": 90]], to: ["geo": ["heading": 91]])
  /// print(patch)   // [{"op":"replace","path":"/geo/heading","value":91}]
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The value the patch applies to.
  ///   - actual: The value the patch produces.
  ///   - options: What to ignore and how close numbers must be.
  /// - Returns: An array of `add`, `remove` and `replace` operations.
  public static func patch(
    from expected: JSONValue, to actual: JSONValue, options: JSONDiffOptions = .init()
  ) -> JSONValue {
    .array(differences(from: expected, to: actual, options: options).map(\.patchOperation))
  }
}
