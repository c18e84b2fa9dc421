import RaspJSON

/// One assertion of `rasp check`: an expression of the predicate language that every state
/// must satisfy (`--assert`, a line of `--assert-file`) or the last state must
/// (`--assert-final`).
///
/// ```swift
/// let assertion = try Assertion(".cart.total >= 0", domains: ["cart"], fields: { _ in nil })
/// assertion.reads.domains   // [0]
/// ```
struct Assertion {
  /// The expression as written, which the report names.
  let text: String
  /// The expression, its paths bound to the replay's domains.
  let expression: PredicateExpression
  /// What it reads: which domains, and whether the event, the key or `$prev`.
  let reads: PredicateReads
  /// The paths into the state it reads, shown before and after a violating event.
  let paths: [PredicateExpression]
  /// Whether it is checked on the last state only (`--assert-final`).
  let isFinal: Bool
  /// Where it was written, for an error at evaluation: `--assert`, or `file:line`.
  let origin: String

  /// Parses an assertion.
  ///
  /// - Parameters:
  ///   - text: The expression.
  ///   - domains: The replay's domains' names, in snapshot order.
  ///   - fields: The fields a domain's state always has, or `nil`.
  ///   - isFinal: Whether it is checked on the last state only.
  ///   - origin: Where it was written.
  /// - Throws: ``PredicateExpressionError`` when it does not parse or names a path no state has.
  init(
    _ text: String, domains: [String], fields: @escaping (String) -> [String]?,
    isFinal: Bool = false, origin: String = "--assert"
  ) throws(PredicateExpressionError) {
    self.text = text
    expression = try PredicateParser.parse(text, domains: domains, fields: fields)
    reads = PredicateReads(expression)
    paths = PredicateReads.statePaths(of: expression)
    self.isFinal = isFinal
    self.origin = origin
  }

  /// The assertion that holds where `other` does not: a violation of it is an event after
  /// which `other` holds and did not before (`rasp find`).
  ///
  /// - Parameter other: The assertion to negate.
  init(negating other: Assertion) {
    text = other.text
    expression = .not(other.expression)
    reads = other.reads
    paths = other.paths
    isFinal = other.isFinal
    origin = other.origin
  }

  /// Whether the assertion must be evaluated again after an event of the domain at `index`:
  /// otherwise nothing it reads changed, and neither did its value.
  func dependsOnEvent(ofDomainAt index: Int) -> Bool {
    reads.readsWholeState || reads.readsEvent || reads.readsKey || reads.readsPrevious
      || reads.domains.contains(index)
  }
}
