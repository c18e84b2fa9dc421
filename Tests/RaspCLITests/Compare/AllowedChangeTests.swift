import RaspJSON
import Testing

@testable import RaspCLI

/// `--allow`'s values: which differences each allows, by operation and path, as a table of
/// differences written here, and the mistakes it refuses.
@Suite struct AllowedChangeTests {
  /// A difference at `path` (dotted keys) of a kind: `+` added, `-` removed, `~` changed.
  static func difference(_ kind: Character, _ path: String) throws -> JSONDifference {
    let concrete = try JSONPath(path)
    switch kind {
    case "+": return JSONDifference(path: concrete, expected: nil, actual: 1)
    case "-": return JSONDifference(path: concrete, expected: 1, actual: nil)
    default: return JSONDifference(path: concrete, expected: 1, actual: 2)
    }
  }

  @Test(arguments: [
    ("add:cart.coupon", "+", "cart.coupon", true),
    ("add:cart.coupon", "~", "cart.coupon", false),
    ("add:cart.coupon", "-", "cart.coupon", false),
    ("add:cart.coupon", "+", "cart.coupon.code", true),
    ("add:cart.coupon", "+", "cart.total", false),
    ("add:cart.coupon", "+", "cart", false),
    ("remove:cart", "-", "cart", true),
    ("remove:cart", "-", "cart.items", true),
    ("remove:cart", "+", "cart.items", false),
    ("change:cart.*", "~", "cart.total", true),
    ("change:cart.*", "~", "cart", false),
    ("change:**.at", "~", "app.session.at", true),
    ("change:**.at", "+", "app.session.at", false),
    ("cart.total", "+", "cart.total", true),
    ("cart.total", "-", "cart.total", true),
    ("cart.total", "~", "cart.total", true),
    ("cart.total", "~", "cart.totals", false),
  ])
  func allowsByOperationAndPath(
    _ text: String, _ kind: String, _ path: String, _ allows: Bool
  ) throws {
    let change = try AllowedChange(parsing: text)
    let difference = try Self.difference(kind.first ?? "~", path)
    #expect(change.allows(difference) == allows, "\(text) for \(kind) \(path)")
  }

  @Test(arguments: [
    ("bogus:cart", "unknown operation 'bogus': expected 'add', 'remove' or 'change'"),
    ("ad:cart", "unknown operation 'ad'; did you mean 'add'?"),
    ("add:", "it would allow every difference; name a value such as 'add:cart.coupon'"),
    ("remove:cart.items[-1]", "negative indices match nothing; use '*' for every element"),
    ("change:cart.items|length", "it cannot end in '|length'"),
  ])
  func refusesWhatIsNotAChange(_ text: String, _ reason: String) {
    #expect(throws: AllowedChangeError.self) { try AllowedChange(parsing: text) }
    do {
      _ = try AllowedChange(parsing: text)
    } catch {
      #expect(error.reason == reason)
    }
  }
}
