/// Why a JSON Patch could not be applied, and which operation failed.
///
/// ```swift
/// do {
///   _ = try JSONPatch.apply([["op": "remove", "path": "/missing"]], to: [:])
/// } catch {
///   print(error)   // operation 0: no value at '/missing' to remove
/// }
/// ```
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The position of the failing operation in the patch, from 0; `nil` when the patch itself
  /// is not an array.
  public var operation: Int?
  /// What is wrong.
  public var reason: Reason

  /// Creates an error.
  ///
  /// ```swift
  /// let error = JSONPatchError(operation: 2, reason: .unknownOperation("rename"))
  /// ```
  ///
  /// - Parameters:
  ///   - operation: The position of the failing operation, or `nil` for the whole patch.
  ///   - reason: What is wrong.
  public init(operation: Int?, reason: Reason) {
    self.operation = operation
    self.reason = reason
  }

  /// The reason, after the failing operation's position: `operation 2: unknown operation 'x'`.
  ///
  /// ```swift
  /// print(JSONPatchError(operation: 0, reason: .missingMember("path")))
  /// // operation 0: missing member 'path'
  /// ```
  public var description: String {
    guard let operation else { return reason.description }
    return "operation \(operation): \(reason)"
  }

  /// Why an operation could not be applied.
  ///
  /// ```swift
  /// print(JSONPatchError.Reason.missingValue(pointer: "/a", operation: "remove"))
  /// // no value at '/a' to remove
  /// ```
  public enum Reason: Sendable, Equatable, CustomStringConvertible {
    /// The patch is not an array of operations; `found` names what it is.
    case notAnArray(found: String)
    /// An operation is not an object; `found` names what it is.
    case notAnObject(found: String)
    /// An operation lacks a member it needs (`op`, `path`, `from` or `value`), or has one of
    /// the wrong kind.
    case missingMember(String)
    /// The `op` is not one of RFC 6902's six operations.
    case unknownOperation(String)
    /// A `path` or `from` is not a valid JSON Pointer.
    case invalidPointer(String, detail: String)
    /// Nothing is at the pointer (or at its parent, for `add`).
    case missingValue(pointer: String, operation: String)
    /// An array index is not `-`, `0` or digits without a leading zero, or is out of range.
    case invalidIndex(pointer: String, token: String)
    /// A pointer goes through a value that is neither an object nor an array.
    case notAContainer(pointer: String, found: String)
    /// A `move` whose target is inside what it moves.
    case moveIntoItself(from: String, path: String)
    /// A `remove` of the whole document, which would leave nothing.
    case removesTheDocument
    /// A `test` found a different value.
    case testFailed(pointer: String, expected: JSONValue, found: JSONValue)

    /// The reason as a sentence fragment.
    ///
    /// ```swift
    /// JSONPatchError.Reason.unknownOperation("rename").description
    /// // "unknown operation 'rename'"
    /// ```
    public var description: String {
      switch self {
      case .notAnArray(let found): return "a patch must be an array of operations, found \(found)"
      case .notAnObject(let found): return "an operation must be an object, found \(found)"
      case .missingMember(let name): return "missing member '\(name)'"
      case .unknownOperation(let name): return "unknown operation '\(name)'"
      case .invalidPointer(let pointer, let detail):
        return "invalid pointer '\(pointer)': \(detail)"
      case .missingValue(let pointer, let operation):
        return "no value at '\(pointer)' to \(operation)"
      case .invalidIndex(let pointer, let token):
        return "invalid array index '\(token)' in '\(pointer)'"
      case .notAContainer(let pointer, let found):
        return "'\(pointer)' goes through \(found), which has no members or elements"
      case .moveIntoItself(let from, let path):
        return "cannot move '\(from)' into itself at '\(path)'"
      case .removesTheDocument:
        return "cannot remove the whole document"
      case .testFailed(let pointer, let expected, let found):
        return "test failed at '\(pointer)': expected \(expected), found \(found)"
      }
    }
  }
}
