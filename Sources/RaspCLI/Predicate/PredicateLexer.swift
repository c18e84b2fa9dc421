import RaspJSON

/// A token of the predicate language, with the column it starts at.
struct PredicateToken: Equatable {
  /// What a token is.
  enum Kind: Equatable {
    /// A number, as written.
    case number(JSONNumber)
    /// A string, its escapes read.
    case string(String)
    /// A name: a keyword (`and`, `true`, `length`, …) or a built-in.
    case identifier(String)
    /// `.name`: a field of the value before it, or of `.`.
    case field(String)
    /// `$name`.
    case variable(String)
    /// An operator or punctuation: `.`, `==`, `//`, `(`, `[`, `,`, `|`, ….
    case symbol(String)
    /// The end of the expression.
    case end
  }

  /// What it is.
  let kind: Kind
  /// Its first character's column, counting Unicode scalars from 1.
  let column: Int
  /// Whether it follows the token before it without a space: a field (`.total`) is a suffix
  /// of the term before it only then.
  var isAdjacent = false

  /// The token as the messages name it: `'=='`, `'.total'`, `the end`.
  var spelling: String {
    switch kind {
    case .number(let number): return "'\(number)'"
    case .string(let text): return "'\(PredicateExpression.text(of: .string(text)))'"
    case .identifier(let name): return "'\(name)'"
    case .field(let name): return "'.\(name)'"
    case .variable(let name): return "'$\(name)'"
    case .symbol(let symbol): return "'\(symbol)'"
    case .end: return "the end"
    }
  }
}

/// Splits an expression into tokens (``PredicateToken``).
///
/// ```swift
/// let tokens = try PredicateLexer.tokens(of: ".cart.total >= 0")
/// // field "cart", field "total", symbol ">=", number 0, end
/// ```
enum PredicateLexer {
  /// The symbols, longest first, so that `//` is not read as two `/`.
  private static let symbols = [
    "==", "!=", "<=", ">=", "//", "<", ">", "+", "-", "*", "/", "|", "(", ")", "[", "]", ",",
    ".", "{", "}", ":",
  ]

  /// Whether a character may start a name.
  static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
  }

  /// Whether a character may be part of a name.
  static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
  }

  /// The tokens of `text`, ending with ``PredicateToken/Kind/end``.
  ///
  /// - Throws: ``PredicateExpressionError/syntax(column:message:)`` for a character no token
  ///   starts with, an unterminated string, a bad escape or a bad number.
  static func tokens(of text: String) throws(PredicateExpressionError) -> [PredicateToken] {
    let scalars = Array(text.unicodeScalars)
    var tokens: [PredicateToken] = []
    var position = 0
    var lastEnd = -1
    func name(from start: Int) -> String {
      var end = start
      while end < scalars.count, isIdentifierPart(scalars[end]) { end += 1 }
      position = end
      return String(String.UnicodeScalarView(scalars[start..<end]))
    }
    while position < scalars.count {
      let scalar = scalars[position]
      let column = position + 1
      let count = tokens.count
      defer {
        if tokens.count > count {
          tokens[count].isAdjacent = lastEnd == column - 1
          lastEnd = position
        }
      }
      if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
        position += 1
      } else if scalar == "\"" {
        let string = try readString(scalars, at: &position)
        tokens.append(PredicateToken(kind: .string(string), column: column))
      } else if ("0"..."9").contains(scalar) {
        let number = try readNumber(scalars, at: &position)
        tokens.append(PredicateToken(kind: .number(number), column: column))
      } else if isIdentifierStart(scalar) {
        tokens.append(PredicateToken(kind: .identifier(name(from: position)), column: column))
      } else if scalar == "$" {
        guard position + 1 < scalars.count, isIdentifierStart(scalars[position + 1]) else {
          throw .syntax(column: column, message: "expected a variable's name after '$'")
        }
        tokens.append(PredicateToken(kind: .variable(name(from: position + 1)), column: column))
      } else if scalar == ".", position + 1 < scalars.count,
        isIdentifierStart(scalars[position + 1])
      {
        tokens.append(PredicateToken(kind: .field(name(from: position + 1)), column: column))
      } else if let symbol = symbols.first(where: { matches($0, scalars, at: position) }) {
        position += symbol.unicodeScalars.count
        tokens.append(PredicateToken(kind: .symbol(symbol), column: column))
      } else if scalar == "=" {
        throw .syntax(column: column, message: "expected '==' to compare, not '='")
      } else if scalar == "&" || scalar == "!" {
        let word = scalar == "&" ? "and" : "not"
        throw .syntax(column: column, message: "unexpected '\(scalar)': write '\(word)'")
      } else {
        throw .syntax(column: column, message: "unexpected character '\(scalar)'")
      }
    }
    tokens.append(PredicateToken(kind: .end, column: scalars.count + 1))
    return tokens
  }

  /// Whether `symbol` is written at `position`.
  private static func matches(_ symbol: String, _ scalars: [Unicode.Scalar], at position: Int)
    -> Bool
  {
    var index = position
    for scalar in symbol.unicodeScalars {
      guard index < scalars.count, scalars[index] == scalar else { return false }
      index += 1
    }
    return true
  }

  /// Reads a string from its opening quote, as JSON writes one.
  private static func readString(_ scalars: [Unicode.Scalar], at position: inout Int)
    throws(PredicateExpressionError) -> String
  {
    let start = position
    position += 1
    while position < scalars.count, scalars[position] != "\"" {
      position += scalars[position] == "\\" ? 2 : 1
    }
    guard position < scalars.count else {
      throw .syntax(column: start + 1, message: "unterminated string: expected a closing '\"'")
    }
    position += 1
    let literal = String(String.UnicodeScalarView(scalars[start..<position]))
    guard case .string(let string)? = try? JSONParser.parse(literal) else {
      throw .syntax(column: start + 1, message: "invalid escape in string \(literal)")
    }
    return string
  }

  /// Reads a number as JSON writes one (a leading `-` is an operator).
  private static func readNumber(_ scalars: [Unicode.Scalar], at position: inout Int)
    throws(PredicateExpressionError) -> JSONNumber
  {
    let start = position
    func digits() {
      while position < scalars.count, ("0"..."9").contains(scalars[position]) { position += 1 }
    }
    digits()
    if position + 1 < scalars.count, scalars[position] == ".",
      ("0"..."9").contains(scalars[position + 1])
    {
      position += 1
      digits()
    }
    if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
      position += 1
      if position < scalars.count, scalars[position] == "+" || scalars[position] == "-" {
        position += 1
      }
      digits()
    }
    let literal = String(String.UnicodeScalarView(scalars[start..<position]))
    guard case .number(let number)? = try? JSONParser.parse(literal) else {
      throw .syntax(column: start + 1, message: "invalid number '\(literal)'")
    }
    return number
  }
}
