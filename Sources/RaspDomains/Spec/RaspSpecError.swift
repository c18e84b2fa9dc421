/// Why a spec file was rejected: every mistake found in it, in document order.
///
/// Validation goes on after the first mistake, so that one run reports as many as it can.
///
/// ```swift
/// do {
///   _ = try RaspSpec(parsing: Array(text.utf8))
/// } catch {
///   for problem in error.problems { print("app.json:\(problem)") }
/// }
/// ```
public struct RaspSpecError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The mistakes, sorted by their place in the file; never empty.
  public let problems: [RaspSpecProblem]

  /// Creates an error from its problems.
  ///
  /// ```swift
  /// let error = RaspSpecError(problems: [problem])
  /// ```
  ///
  /// - Parameter problems: The mistakes, in document order.
  public init(problems: [RaspSpecProblem]) {
    self.problems = problems
  }

  /// One problem per line.
  ///
  /// ```swift
  /// print(error)   // 1:1: expected an object, found an array
  /// ```
  public var description: String {
    problems.map(\.description).joined(separator: "\n")
  }
}
