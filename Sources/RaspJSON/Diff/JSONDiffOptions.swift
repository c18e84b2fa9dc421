/// How ``JSONDiff`` and ``JSONDiffReport`` compare values: what to ignore, and how close numbers
/// must be.
///
/// By default values are compared by their JSON meaning: object members whatever their order,
/// numbers by value (`1` equals `1.0`), strings by code points.
///
/// ```swift
/// let options = JSONDiffOptions(
///   ignoring: [try JSONPath("**.changedAt", allowsPatterns: true)],
///   tolerance: 1e-9)
/// JSONDiff.differences(from: expected, to: actual, options: options)
/// ```
public struct JSONDiffOptions: Sendable, Hashable {
  /// Paths and patterns whose differences are dropped.
  ///
  /// A difference is dropped when a pattern matches its path or one of its ancestors (see
  /// ``JSONPath/matches(_:)``): ignoring `lifecycle` ignores everything inside it, `**.ts`
  /// ignores every member named `ts` at any depth, and `nav.stack.*` every element of the stack
  /// (but not the stack growing or shrinking as a whole — those are differences at
  /// `nav.stack[n]`, which `nav.stack.*` matches too). Negative indices match nothing.
  public var ignoring: [JSONPath]
  /// The largest difference between two numbers that still counts as equal, or `nil` to
  /// require equal values.
  public var tolerance: Double?

  /// Creates options.
  ///
  /// ```swift
  /// let exact = JSONDiffOptions()
  /// let lenient = JSONDiffOptions(tolerance: 0.001)
  /// ```
  ///
  /// - Parameters:
  ///   - ignoring: Paths and patterns (parsed with `allowsPatterns: true`) to leave out.
  ///   - tolerance: How far apart two numbers may be and still be equal.
  public init(ignoring: [JSONPath] = [], tolerance: Double? = nil) {
    self.ignoring = ignoring
    self.tolerance = tolerance
  }

  /// Whether a difference at `path` is ignored: some pattern matches it or an ancestor.
  ///
  /// ```swift
  /// let options = JSONDiffOptions(ignoring: [try JSONPath("**.ts", allowsPatterns: true)])
  /// options.ignores([.key("geo"), .key("ts")])   // true
  /// ```
  ///
  /// - Parameter path: The steps of a concrete path.
  /// - Returns: `true` when differences there are dropped.
  public func ignores(_ path: [JSONPath.Component]) -> Bool {
    ignoring.contains { $0.matches(path) }
  }

  /// Whether two numbers are equal, within the tolerance if there is one.
  ///
  /// ```swift
  /// JSONDiffOptions(tolerance: 0.01).numbersAreEqual(JSONNumber(1.0), JSONNumber(1.005))   // true
  /// ```
  ///
  /// - Parameters:
  ///   - a: A number.
  ///   - b: Another number.
  /// - Returns: `true` when they are equal, or no further apart than ``tolerance``.
  ///
  /// Numbers exactly ``tolerance`` apart in decimal count as equal although their doubles are
  /// not (52.520009 − 52.520008 is 1.0000000010279564e-06 in binary): the comparison allows
  /// for the rounding of the two numbers and of the tolerance, a few units in the last place.
  /// Two whole numbers are compared exactly, however large: a nanosecond timestamp or a 64-bit
  /// ID that differs by more than the tolerance differs, although its doubles may not.
  public func numbersAreEqual(_ a: JSONNumber, _ b: JSONNumber) -> Bool {
    if a == b { return true }
    guard let tolerance else { return false }
    if case .integer(let m) = a.storage, case .integer(let n) = b.storage {
      // Their distance, exactly, as the magnitude of a difference of two 64-bit numbers.
      let distance = m > n ? UInt64(bitPattern: m &- n) : UInt64(bitPattern: n &- m)
      guard tolerance >= 0 else { return false }
      guard tolerance < 0x1p64 else { return true }
      return distance <= UInt64(tolerance.rounded(.down))
    }
    if a.isInteger || b.isInteger, let m = a.exactInteger, let n = b.exactInteger {
      // Beyond 64 bits: their distance, a whole number, exactly up to 2^127.
      guard tolerance >= 0 else { return false }
      let (difference, overflow) = m.subtractingReportingOverflow(n)
      let distance = overflow ? Double(m) - Double(n) : Double(difference.magnitude)
      return distance.magnitude <= tolerance.rounded(.down)
    }
    let (x, y) = (a.doubleValue, b.doubleValue)
    let rounding = tolerance > 0 ? 4 * max(x.magnitude, y.magnitude, tolerance).ulp : 0
    return (x - y).magnitude <= tolerance + rounding
  }
}
