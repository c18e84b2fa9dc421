/// One mistake in a spec file: where it is, as a line and column and as a JSON path, and why.
///
/// ```swift
/// let problem = RaspSpecProblem(
///   offset: 210, line: 9, column: 17, path: "domains[0].events[1].ops[0].op",
///   reason: "unknown operation 'apend'. Did you mean 'append'?")
/// print(problem)
/// // 9:17: at domains[0].events[1].ops[0].op: unknown operation 'apend'. Did you mean 'append'?
/// ```
public struct RaspSpecProblem: Sendable, Equatable, CustomStringConvertible {
  /// The byte offset in the file of the offending value or key.
  public let offset: Int
  /// The line of ``offset``, counting from 1.
  public let line: Int
  /// The column of ``offset``, counting Unicode scalars from 1.
  public let column: Int
  /// The JSON path of the offending element (`domains[0].events[1].ops[0].op`), or `nil` when
  /// the problem concerns the document as a whole (invalid JSON, a root that is not an object).
  public let path: String?
  /// What is wrong, as a sentence fragment without a trailing period.
  public let reason: String

  /// Creates a problem.
  ///
  /// ```swift
  /// let problem = RaspSpecProblem(offset: 0, line: 1, column: 1, path: nil,
  ///                               reason: "expected an object, found an array")
  /// ```
  ///
  /// - Parameters:
  ///   - offset: The byte offset in the file.
  ///   - line: The line, from 1.
  ///   - column: The column, from 1.
  ///   - path: The JSON path of the offending element, if it has one.
  ///   - reason: What is wrong.
  public init(offset: Int, line: Int, column: Int, path: String?, reason: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.path = path
    self.reason = reason
  }

  /// `line:column: at path: reason`, or `line:column: reason` without a path.
  ///
  /// ```swift
  /// print(problem)   // 3:5: at domains[0].name: expected a string, found a number
  /// ```
  public var description: String {
    let place = "\(line):\(column)"
    guard let path else { return "\(place): \(reason)" }
    return "\(place): at \(path): \(reason)"
  }
}
