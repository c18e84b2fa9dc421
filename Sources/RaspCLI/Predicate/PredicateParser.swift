import RaspDomains
import RaspJSON

/// Parses an expression of the predicate language and binds its paths to a replay's domains.
///
/// The grammar is the table of docs/debugging.md, jq's precedence from loosest to tightest:
/// `|`, `//`, `or`, `and`, `not`, the comparisons (which do not chain), `+ -`, `* /`, unary
/// `-`, then a term and its suffixes (`.name`, `[index]`). `never EXPR`, at the start only, is
/// `not (EXPR)`.
///
/// A path at the top (not after `|`, nor inside `any(…)` or `all(…)`, where `.` is another
/// value) starts with a domain: `.cart.total` is bound to the domain `cart`, and so is
/// `$prev.cart.total`. A domain the replay does not hold, or a field a built-in domain's state
/// never has, is an error with the nearest name, as for `--select`.
///
/// ```swift
/// let expression = try PredicateParser.parse(
///   ".nav.stack | length < 10", domains: ["geo", "nav"], fields: { _ in nil })
/// ```
struct PredicateParser {
  private let tokens: [PredicateToken]
  private var position = 0
  private let domains: [String]
  private let fields: (String) -> [String]?
  /// Whether `.` is the state: at the top, not after `|` nor inside `any`/`all`.
  private var isTop = true
  /// How deeply the expression being parsed nests, which is bounded: a parser (and an
  /// evaluator) that recursed without bound could run out of stack.
  private var depth = 0
  /// The deepest nesting an expression may have.
  static let maximumDepth = 100

  /// Counts one more level of nesting, refused past ``maximumDepth``.
  private mutating func descend() throws(PredicateExpressionError) {
    depth += 1
    if depth > Self.maximumDepth {
      throw .syntax(
        column: current.column,
        message: "the expression nests more than \(Self.maximumDepth) levels deep")
    }
  }

  /// The expression of `text`, its paths bound to `domains`.
  ///
  /// - Parameters:
  ///   - text: The expression.
  ///   - domains: The names of the replay's domains, in the order their values are given to
  ///     the evaluator.
  ///   - fields: The fields a domain's state always has, to check a path's second name
  ///     against, or `nil` for a domain that may have any.
  /// - Returns: The expression.
  /// - Throws: ``PredicateExpressionError/syntax(column:message:)`` or
  ///   ``PredicateExpressionError/unknownPath(column:message:)``.
  static func parse(
    _ text: String, domains: [String], fields: @escaping (String) -> [String]? = { _ in nil }
  ) throws(PredicateExpressionError) -> PredicateExpression {
    var parser = PredicateParser(
      tokens: try PredicateLexer.tokens(of: text), domains: domains, fields: fields)
    var isNever = false
    if case .identifier("never") = parser.current.kind {
      parser.position += 1
      isNever = true
    }
    if case .end = parser.current.kind {
      throw .syntax(
        column: parser.current.column,
        message: isNever ? "expected an expression after 'never'" : "expected an expression")
    }
    let expression = try parser.parsePipe()
    guard case .end = parser.current.kind else {
      throw parser.unexpected("an operator or the end")
    }
    return isNever ? .not(expression) : expression
  }

  private init(
    tokens: [PredicateToken], domains: [String], fields: @escaping (String) -> [String]?
  ) {
    self.tokens = tokens
    self.domains = domains
    self.fields = fields
  }

  private var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

  /// The error for the current token, where `expected` was due.
  private func unexpected(_ expected: String) -> PredicateExpressionError {
    var message = "expected \(expected)"
    if position > 0 { message += " after \(tokens[position - 1].spelling)" }
    if case .end = current.kind {
      message += ", found the end"
    } else {
      message += ", found \(current.spelling)"
    }
    return .syntax(column: current.column, message: message)
  }

  private func isSymbol(_ symbol: String) -> Bool {
    if case .symbol(symbol) = current.kind { return true }
    return false
  }

  private func isKeyword(_ word: String) -> Bool {
    if case .identifier(word) = current.kind { return true }
    return false
  }

  private mutating func expect(_ symbol: String, closing opening: PredicateToken? = nil)
    throws(PredicateExpressionError)
  {
    guard isSymbol(symbol) else {
      var expected = "'\(symbol)'"
      if let opening { expected += " to close the \(opening.spelling) at column \(opening.column)" }
      throw unexpected(expected)
    }
    position += 1
  }

  private mutating func parsePipe() throws(PredicateExpressionError) -> PredicateExpression {
    try descend()
    defer { depth -= 1 }
    let left = try parseAlternative()
    guard isSymbol("|") else { return left }
    position += 1
    let wasTop = isTop
    isTop = false
    defer { isTop = wasTop }
    return .pipe(left, try parsePipe())
  }

  private mutating func parseAlternative() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    let left = try parseOr()
    guard isSymbol("//") else { return left }
    position += 1
    try descend()
    return .alternative(left, try parseAlternative())
  }

  private mutating func parseOr() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    var left = try parseAnd()
    while isKeyword("or") {
      position += 1
      try descend()
      left = .or(left, try parseAnd())
    }
    return left
  }

  private mutating func parseAnd() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    var left = try parseNot()
    while isKeyword("and") {
      position += 1
      try descend()
      left = .and(left, try parseNot())
    }
    return left
  }

  /// `not x`, or `not` alone as jq's filter (`x | not`), or a comparison.
  private mutating func parseNot() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    guard isKeyword("not") else { return try parseComparison() }
    position += 1
    if startsTerm {
      try descend()
      return .not(try parseNot())
    }
    return .not(.dot)
  }

  /// Whether the current token can start a value.
  private var startsTerm: Bool {
    switch current.kind {
    case .number, .string, .field, .variable: return true
    case .identifier(let word): return !["and", "or"].contains(word)
    case .symbol(let symbol): return ["(", "[", "{", ".", "-"].contains(symbol)
    case .end: return false
    }
  }

  private mutating func parseComparison() throws(PredicateExpressionError) -> PredicateExpression {
    let left = try parseAdditive()
    guard case .symbol(let symbol) = current.kind,
      let operation = PredicateComparison(rawValue: symbol)
    else { return left }
    position += 1
    let right = try parseAdditive()
    if case .symbol(let next) = current.kind, PredicateComparison(rawValue: next) != nil {
      throw .syntax(
        column: current.column,
        message: "comparisons do not chain: join '\(symbol)' and '\(next)' with 'and'")
    }
    return .comparison(operation, left, right)
  }

  private mutating func parseAdditive() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    var left = try parseMultiplicative()
    while case .symbol(let symbol) = current.kind, symbol == "+" || symbol == "-",
      let operation = PredicateArithmetic(rawValue: symbol)
    {
      position += 1
      try descend()
      left = .arithmetic(operation, left, try parseMultiplicative())
    }
    return left
  }

  private mutating func parseMultiplicative() throws(PredicateExpressionError)
    -> PredicateExpression
  {
    let start = depth
    defer { depth = start }
    var left = try parseUnary()
    while case .symbol(let symbol) = current.kind, symbol == "*" || symbol == "/",
      let operation = PredicateArithmetic(rawValue: symbol)
    {
      position += 1
      try descend()
      left = .arithmetic(operation, left, try parseUnary())
    }
    return left
  }

  private mutating func parseUnary() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    guard isSymbol("-") else { return try parsePostfix() }
    position += 1
    try descend()
    return .negate(try parseUnary())
  }

  /// A term and its suffixes: `.name`, `."name"`, `[index]`.
  private mutating func parsePostfix() throws(PredicateExpressionError) -> PredicateExpression {
    let start = depth
    defer { depth = start }
    var value = try parsePrimary()
    while true {
      if case .field = current.kind, current.isAdjacent { try descend() }
      if isSymbol("[") || isSymbol(".") { try descend() }
      if case .field(let name) = current.kind, current.isAdjacent {
        let fieldColumn = current.column
        position += 1
        value = try field(of: value, name, column: fieldColumn)
      } else if isSymbol("."), current.isAdjacent, case .string(let name)? = peek(1) {
        let fieldColumn = current.column
        position += 2
        value = try field(of: value, name, column: fieldColumn)
      } else if isSymbol("[") {
        let opening = current
        position += 1
        let index = try parsePipeKeepingTop()
        try expect("]", closing: opening)
        value = .index(value, index)
      } else {
        return value
      }
    }
  }

  private func peek(_ offset: Int) -> PredicateToken.Kind? {
    position + offset < tokens.count ? tokens[position + offset].kind : nil
  }

  /// A whole expression inside brackets or parentheses, where `.` is what it was outside.
  private mutating func parsePipeKeepingTop() throws(PredicateExpressionError)
    -> PredicateExpression
  {
    try parsePipe()
  }

  /// `base.name`: a domain when `base` is the state (`.` at the top, or `$prev`).
  private func field(of base: PredicateExpression, _ name: String, column: Int)
    throws(PredicateExpressionError) -> PredicateExpression
  {
    let previous: Bool
    switch base {
    case .dot where isTop: previous = false
    case .variable(.prev): previous = true
    case .domain(_, let domain, _):
      if let known = fields(domain), !known.contains(name) {
        var message = "unknown field '\(name)' of domain '\(domain)'"
        if let near = RaspSpelling.nearest(to: name, among: known) {
          message += "; did you mean '.\(domain).\(near)'?"
        } else {
          message += ": its fields are \(known.map { "'\($0)'" }.joined(separator: ", "))"
        }
        throw .unknownPath(column: column, message: message)
      }
      return .field(base, name)
    default: return .field(base, name)
    }
    guard let index = domains.firstIndex(of: name) else {
      var message = "unknown domain '\(name)'"
      if let near = RaspSpelling.nearest(to: name, among: domains) {
        message += "; did you mean '\(previous ? "$prev." : ".")\(near)'?"
      } else {
        message += ": the state holds \(domains.map { "'\($0)'" }.joined(separator: ", "))"
      }
      throw .unknownPath(column: column, message: message)
    }
    return .domain(index, name: name, previous: previous)
  }

  /// A term.
  private mutating func parsePrimary() throws(PredicateExpressionError) -> PredicateExpression {
    let token = current
    switch token.kind {
    case .number(let number):
      position += 1
      return .literal(.number(number))
    case .string(let string):
      position += 1
      return .literal(.string(string))
    case .field(let name):
      position += 1
      return try field(of: .dot, name, column: token.column)
    case .variable(let name):
      guard let variable = PredicateVariable(rawValue: name) else {
        let names = PredicateVariable.allCases.map(\.rawValue)
        var message = "unknown variable '$\(name)'"
        if let near = RaspSpelling.nearest(to: name, among: names) {
          message += "; did you mean '$\(near)'?"
        } else {
          message += ": the variables are \(names.map { "'$\($0)'" }.joined(separator: ", "))"
        }
        throw .syntax(column: token.column, message: message)
      }
      position += 1
      return .variable(variable)
    case .symbol("."):
      position += 1
      if case .string(let name) = current.kind {
        position += 1
        return try field(of: .dot, name, column: token.column)
      }
      return .dot
    case .symbol("("):
      position += 1
      let inner = try parsePipeKeepingTop()
      try expect(")", closing: token)
      return inner
    case .symbol("["):
      position += 1
      var elements: [PredicateExpression] = []
      if !isSymbol("]") {
        elements.append(try parseAlternative())
        while isSymbol(",") {
          position += 1
          elements.append(try parseAlternative())
        }
      }
      try expect("]", closing: token)
      return .array(elements)
    case .symbol("{"):
      position += 1
      return try parseObject(opening: token)
    case .identifier(let word):
      position += 1
      return try keyword(word, token)
    default:
      throw unexpected("a value")
    }
  }

  /// A literal or a built-in named `word`.
  private mutating func keyword(_ word: String, _ token: PredicateToken)
    throws(PredicateExpressionError)
    -> PredicateExpression
  {
    switch word {
    case "true": return .literal(.bool(true))
    case "false": return .literal(.bool(false))
    case "null": return .literal(.null)
    case "not":
      // `not(x)` as a function; `not` alone is handled by parseNot.
      position -= 1
      return try parseNot()
    default: break
    }
    guard let builtin = PredicateBuiltin(rawValue: word) else {
      let words =
        ["true", "false", "null", "not", "never"] + PredicateBuiltin.allCases.map(\.rawValue)
      var message = "unknown name '\(word)'"
      if let near = RaspSpelling.nearest(to: word, among: words) {
        message += "; did you mean '\(near)'?"
      } else {
        message += ": paths start with '.' (as '.\(word)'), variables with '$'"
      }
      throw .syntax(column: token.column, message: message)
    }
    switch builtin {
    case .length, .keys: return .builtin(builtin, nil)
    case .has:
      guard isSymbol("(") else { throw unexpected("'(' after 'has', as in has(\"key\")") }
      let opening = current
      position += 1
      let argument = try parsePipeKeepingTop()
      try expect(")", closing: opening)
      return .builtin(.has, argument)
    case .any, .all:
      guard isSymbol("(") else { return .builtin(builtin, nil) }
      let opening = current
      position += 1
      let wasTop = isTop
      isTop = false
      let condition = try parsePipe()
      isTop = wasTop
      try expect(")", closing: opening)
      return .builtin(builtin, condition)
    }
  }

  /// `{"key": value, name: value, …}`, after its `{`.
  private mutating func parseObject(opening: PredicateToken) throws(PredicateExpressionError)
    -> PredicateExpression
  {
    var members: [PredicateObjectMember] = []
    while !isSymbol("}") {
      if !members.isEmpty {
        try expect(",", closing: nil)
      }
      let key: String
      switch current.kind {
      case .string(let text): key = text
      case .identifier(let name): key = name
      default: throw unexpected("a key (a string or a name)")
      }
      position += 1
      try expect(":")
      members.append(PredicateObjectMember(key: key, value: try parseAlternative()))
    }
    try expect("}", closing: opening)
    return .object(members)
  }
}
