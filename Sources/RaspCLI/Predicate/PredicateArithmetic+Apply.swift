import RaspJSON

extension PredicateArithmetic {
  /// `a operation b`, as jq computes it: numbers with numbers; `+` also joins strings, arrays
  /// and objects, and `null + x` is `x`; `-` also removes from an array the elements of
  /// another.
  ///
  /// - Throws: ``PredicateExpressionError/evaluation(path:message:)`` for values it does not
  ///   apply to, and for a division by zero.
  static func apply(_ operation: Self, _ a: JSONValue, _ b: JSONValue, path: String)
    throws(PredicateExpressionError) -> JSONValue
  {
    switch (operation, a, b) {
    case (.add, .null, _): return b
    case (.add, _, .null): return a
    case (_, .number(let x), .number(let y)):
      return .number(try number(operation, x, y, path: path))
    case (.add, .string(let x), .string(let y)): return .string(x + y)
    case (.add, .array(let x), .array(let y)): return .array(x + y)
    case (.add, .object(var x), .object(let y)):
      for member in y.members { x[member.key] = member.value }
      return .object(x)
    case (.subtract, .array(let x), .array(let y)):
      return .array(x.filter { !y.contains($0) })
    default:
      let verb: String
      switch operation {
      case .add: verb = "add"
      case .subtract: verb = "subtract"
      case .multiply: verb = "multiply"
      case .divide: verb = "divide"
      }
      let a = PredicateEvaluator.describe(a)
      let b = PredicateEvaluator.describe(b)
      let words = operation == .subtract ? "\(b) from \(a)" : "\(a) and \(b)"
      throw .evaluation(path: path, message: "cannot \(verb) \(words)")
    }
  }

  private static func number(_ operation: Self, _ x: JSONNumber, _ y: JSONNumber, path: String)
    throws(PredicateExpressionError) -> JSONNumber
  {
    if operation == .divide, y.doubleValue == 0 {
      throw .evaluation(path: path, message: "cannot divide \(x) by zero")
    }
    if operation != .divide, let i = x.integerValue, let j = y.integerValue {
      let (result, overflow): (Int64, Bool)
      switch operation {
      case .add: (result, overflow) = i.addingReportingOverflow(j)
      case .subtract: (result, overflow) = i.subtractingReportingOverflow(j)
      default: (result, overflow) = i.multipliedReportingOverflow(by: j)
      }
      if !overflow { return JSONNumber(result) }
    }
    let (p, q) = (x.doubleValue, y.doubleValue)
    let result: Double
    switch operation {
    case .add: result = p + q
    case .subtract: result = p - q
    case .multiply: result = p * q
    case .divide: result = p / q
    }
    if let exact = JSONNumber(exactly: result), result.rounded() == result,
      abs(result) < 1e15
    {
      return exact
    }
    return JSONNumber(result)
  }
}
