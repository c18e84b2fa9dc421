import RaspJSON

/// Why a domain could not read its state back from JSON, and where in the state.
///
/// A checkpoint holds each domain's state as the JSON the domain writes; reading it back with
/// ``RaspDomain/decodeState(_:)`` fails with this error when the JSON is not a state the
/// domain could have written, or when the domain cannot read states back at all.
///
/// ```swift
/// let error = RaspStateError(path: "stack[1]", reason: "expected a string, found a number")
/// print(error)   // at 'stack[1]': expected a string, found a number
/// ```
public struct RaspStateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where in the state's JSON the problem is, as a path (`stack[1]`, `location.latitude`);
  /// empty for the state as a whole.
  public var path: String
  /// What is wrong, as a sentence fragment without a closing period.
  public var reason: String

  /// Creates an error.
  ///
  /// ```swift
  /// let error = RaspStateError(path: "", reason: "expected an object, found null")
  /// ```
  ///
  /// - Parameters:
  ///   - path: Where in the state the problem is; empty for the whole state.
  ///   - reason: What is wrong.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The reason, with the path in front when there is one.
  ///
  /// ```swift
  /// print(RaspStateError(path: "tab", reason: "expected a string, found true"))
  /// // at 'tab': expected a string, found true
  /// ```
  public var description: String {
    path.isEmpty ? reason : "at '\(path)': \(reason)"
  }

  /// The same error, its path under `prefix`: `domains.nav` and `stack[1]` make
  /// `domains.nav.stack[1]`.
  ///
  /// ```swift
  /// error.under("nav").path   // nav.stack[1]
  /// ```
  ///
  /// - Parameter prefix: The path of the place the state was read from.
  /// - Returns: The error, its path longer.
  public func under(_ prefix: String) -> RaspStateError {
    guard !prefix.isEmpty else { return self }
    guard !path.isEmpty else { return RaspStateError(path: prefix, reason: reason) }
    let joined = path.hasPrefix("[") ? prefix + path : prefix + "." + path
    return RaspStateError(path: joined, reason: reason)
  }
}
