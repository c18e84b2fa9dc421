/// Finds the word a user meant when they misspelt one, for "Did you mean …?" in messages.
///
/// The command line uses it for options, subcommands and domain names; spec files for their
/// keys and operations. A candidate is suggested only when it is close enough to be a typo: at
/// most two edits, or a third of the shorter word's length for long words.
///
/// ```swift
/// RaspSpelling.nearest(to: "apend", among: ["append", "remove", "set"])   // "append"
/// RaspSpelling.nearest(to: "zzz", among: ["append", "remove", "set"])     // nil
/// ```
public enum RaspSpelling {
  /// The candidate closest to `word`, if it is close enough to be a typo of it.
  ///
  /// Ties go to the earlier candidate.
  ///
  /// ```swift
  /// RaspSpelling.nearest(to: "--selct", among: ["--select", "--final"])   // "--select"
  /// ```
  ///
  /// - Parameters:
  ///   - word: What the user wrote.
  ///   - candidates: The words that would have been accepted.
  /// - Returns: The nearest candidate, or `nil` when none is near.
  /// - Complexity: O(*n* × *m*²) for *n* candidates of about *m* characters.
  public static func nearest(to word: String, among candidates: [String]) -> String? {
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate)
      if distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = max(2, min(word.count, best.candidate.count) / 3)
    return best.distance <= limit ? best.candidate : nil
  }

  /// The optimal-string-alignment distance between two words: the number of insertions,
  /// deletions, substitutions and transpositions of adjacent characters that turn one into the
  /// other.
  ///
  /// ```swift
  /// RaspSpelling.editDistance("apend", "append")   // 1
  /// RaspSpelling.editDistance("ab", "ba")          // 1
  /// ```
  ///
  /// - Parameters:
  ///   - a: A word.
  ///   - b: Another word.
  /// - Returns: The distance, counted in Unicode scalars.
  /// - Complexity: O(*a* × *b*).
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }

  /// The type of a known domain nearest to `type`, a type no domain defines: among the types
  /// of the domain named before its first dot (`geo.headin`: `geo.heading`); `nil` when no
  /// domain has that name, or none of its types is near.
  ///
  /// ```swift
  /// RaspSpelling.nearestType(to: "geo.headin", among: RaspBuiltinDomains.all)   // "geo.heading"
  /// ```
  ///
  /// - Parameters:
  ///   - type: The unknown type, `domain.event`.
  ///   - domains: The domains that might define it.
  /// - Returns: The nearest type, as `domain.event`, or `nil`.
  public static func nearestType(to type: String, among domains: [any RaspDomain]) -> String? {
    guard let dot = type.firstIndex(of: ".") else { return nil }
    let name = type[..<dot]
    guard let domain = domains.first(where: { $0.name == name }) else { return nil }
    // The event's name alone is compared: the domain's, the same in all, would let a name
    // that differs much seem near.
    let event = String(type[type.index(after: dot)...])
    return nearest(to: event, among: domain.events.map(\.name)).map { "\(domain.name).\($0)" }
  }
}
