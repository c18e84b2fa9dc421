import Testing

@testable import RaspCLI

/// Expressions that do not parse, or name a path no state has: the column and what was
/// expected there.
@Suite struct PredicateParserTests {
  static let domains = ["cart", "geo", "nav"]

  static func error(_ text: String) -> PredicateExpressionError? {
    do {
      _ = try PredicateParser.parse(
        text, domains: domains, fields: { $0 == "nav" ? ["modal", "stack", "tab"] : nil })
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    (".cart.total >=", 15, "expected a value after '>=', found the end"),
    (".cart.total = 0", 13, "expected '==' to compare, not '='"),
    ("(.cart.total > 0", 17, "expected ')' to close the '(' at column 1 after '0', found the end"),
    (".nav.stack[0", 13, "expected ']' to close the '[' at column 11 after '0', found the end"),
    (".cart.total > 0 .nav", 17, "expected an operator or the end after '0', found '.nav'"),
    ("1 < 2 < 3", 7, "comparisons do not chain: join '<' and '<' with 'and'"),
    (".cart.total && true", 13, "unexpected '&': write 'and'"),
    ("lenght", 1, "unknown name 'lenght'; did you mean 'length'?"),
    ("$evnt.type", 1, "unknown variable '$evnt'; did you mean '$event'?"),
    ("\"abc", 1, "unterminated string: expected a closing '\"'"),
    ("has", 4, "expected '(' after 'has', as in has(\"key\") after 'has', found the end"),
    ("", 1, "expected an expression"),
    ("never", 6, "expected an expression after 'never'"),
    (".crt.total > 0", 1, "unknown domain 'crt'; did you mean '.cart'?"),
    ("$prev.crt.total > 0", 6, "unknown domain 'crt'; did you mean '$prev.cart'?"),
    (".nav.stak | length", 5, "unknown field 'stak' of domain 'nav'; did you mean '.nav.stack'?"),
    (".zzzzzz", 1, "unknown domain 'zzzzzz': the state holds 'cart', 'geo', 'nav'"),
  ])
  func namesTheColumnAndWhatWasExpected(_ text: String, _ column: Int, _ message: String) {
    let error = Self.error(text)
    #expect(error?.column == column, "\(text)")
    #expect(error?.description == message, "\(text)")
  }

  @Test func pathsAfterAPipeAreNotDomains() {
    #expect(Self.error(".nav | .stak | length") == nil)
    #expect(Self.error(".nav.stack | any(.zzz == 1)") == nil)
    #expect(Self.error("$event.payload.anything") == nil)
  }

  @Test func neverIsNot() throws {
    let never = try PredicateParser.parse("never .cart.total < 0", domains: Self.domains)
    let not = try PredicateParser.parse("not (.cart.total < 0)", domains: Self.domains)
    #expect(never == not)
  }

  @Test func readsWhatItNames() throws {
    let expression = try PredicateParser.parse(
      "$prev.cart.total <= .cart.total or $event.type == \"x\"", domains: Self.domains)
    let reads = PredicateReads(expression)
    #expect(reads.domains == [0])
    #expect(reads.readsPrevious && reads.readsEvent && !reads.readsKey && !reads.readsWholeState)
    #expect(PredicateReads.statePaths(of: expression).map(\.description) == [".cart.total"])
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
    #expect(Self.error(deep)?.description.contains("nests more than") == true)
    #expect(Self.error(String(repeating: "not ", count: 10_000) + "true") != nil)
    #expect(Self.error(String(repeating: "- ", count: 10_000) + "1") != nil)
    #expect(Self.error(Array(repeating: "1", count: 10_000).joined(separator: " // ")) != nil)
    #expect(Self.error(Array(repeating: "1", count: 10_000).joined(separator: " + ")) != nil)
    #expect(Self.error(Array(repeating: "true", count: 10_000).joined(separator: " and ")) != nil)
    #expect(Self.error(Array(repeating: "1", count: 50).joined(separator: " + ")) == nil)
    #expect(Self.error("$event" + String(repeating: ".a", count: 10_000)) != nil)
    #expect(Self.error("$event" + String(repeating: "[0]", count: 10_000)) != nil)
    #expect(
      Self.error(String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50)) == nil
    )
  }
}
