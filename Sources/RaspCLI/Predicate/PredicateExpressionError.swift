/// What is wrong with an expression of the predicate language, or with its value for one
/// state.
///
/// ```swift
/// // rasp: error: invalid assertion '.cart.total >=' at column 15: expected a value after '>='
/// ```
enum PredicateExpressionError: Error, Equatable, CustomStringConvertible {
  /// The expression does not parse: the column (counting Unicode scalars from 1) and what was
  /// expected there.
  case syntax(column: Int, message: String)
  /// A path that no state can have: a domain the replay does not hold, with the nearest.
  case unknownPath(column: Int, message: String)
  /// The expression cannot be evaluated for a state: indexing a number, adding a string to a
  /// number, dividing by zero. `path` is the part of the expression that failed.
  case evaluation(path: String, message: String)

  /// The message, without the place.
  var description: String {
    switch self {
    case .syntax(_, let message), .unknownPath(_, let message): return message
    case .evaluation(let path, let message): return "\(message) in '\(path)'"
    }
  }

  /// The column, for the two errors of parsing.
  var column: Int? {
    switch self {
    case .syntax(let column, _), .unknownPath(let column, _): return column
    case .evaluation: return nil
    }
  }
}
