import RaspDomains
import RaspJSON

/// One intended change that `rasp compare --allow` declares: an operation — a value added,
/// removed or changed — at a path, as `--ignore` writes paths.
///
/// `--allow 'add:cart.coupon'` allows the new version's states to have `cart.coupon` where the
/// old ones had none; `remove:` the opposite; `change:` a value both have that differs;
/// without an operation (`--allow cart.total`) any of the three. A path allows differences at
/// it and below it, with `*` for any one key or index and `**` for any depth, as `--ignore`
/// does: `add:cart` allows a whole new domain `cart`, `change:**.updatedAt` every member of
/// that name. What the allowed changes leave is what the comparison reports.
///
/// ```swift
/// let allowed = try AllowedChange(parsing: "add:cart.coupon")
/// allowed.allows(difference)   // true for `cart.coupon: + "SAVE10"`
/// ```
struct AllowedChange: Equatable {
  /// The operations a change may be.
  enum Operation: String, CaseIterable {
    /// A value that only the new version's state has.
    case add
    /// A value that only the old version's state has.
    case remove
    /// A value both have, which differs.
    case change
  }

  /// The operation allowed, or `nil` for any.
  let operation: Operation?
  /// Where: a path with patterns, as `--ignore` takes it.
  let path: JSONPath
  /// The value as written, for messages.
  let text: String

  /// Reads `[add:|remove:|change:]<path>`.
  ///
  /// - Throws: A message (without the option's name) for an unknown operation, a path that is
  ///   not valid, or one that would allow every difference.
  init(parsing text: String) throws(AllowedChangeError) {
    self.text = text
    var rest = Substring(text)
    var operation: Operation?
    if let colon = text.firstIndex(of: ":") {
      let word = String(text[..<colon])
      if let known = Operation(rawValue: word) {
        operation = known
        rest = text[text.index(after: colon)...]
      } else if word.allSatisfy({ $0.isLetter }), !word.isEmpty {
        let names = Operation.allCases.map(\.rawValue)
        var reason = "unknown operation '\(word)': expected 'add', 'remove' or 'change'"
        if let near = RaspSpelling.nearest(to: word, among: names) {
          reason = "unknown operation '\(word)'; did you mean '\(near)'?"
        }
        throw AllowedChangeError(reason: reason)
      }
    }
    self.operation = operation
    do {
      path = try JSONPath(String(rest), allowsPatterns: true)
    } catch {
      throw AllowedChangeError(reason: "\(error)")
    }
    if path.components.isEmpty {
      throw AllowedChangeError(
        reason: "it would allow every difference; name a value such as 'add:cart.coupon'")
    }
    if path.selectsLength {
      throw AllowedChangeError(reason: "it cannot end in '|length'")
    }
    if path.components.contains(where: {
      if case .index(let index) = $0 { index < 0 } else { false }
    }) {
      throw AllowedChangeError(reason: "negative indices match nothing; use '*' for every element")
    }
  }

  /// Whether this allows `difference`: its kind is the operation (or any), and the path
  /// matches the difference's path or an ancestor of it.
  func allows(_ difference: JSONDifference) -> Bool {
    if let operation {
      switch (operation, difference.kind) {
      case (.add, .added), (.remove, .removed), (.change, .changed): break
      default: return false
      }
    }
    return path.matches(difference.path.components)
  }
}

/// Why an `--allow` value cannot be read.
struct AllowedChangeError: Error {
  /// What is wrong, as a clause.
  let reason: String
}
