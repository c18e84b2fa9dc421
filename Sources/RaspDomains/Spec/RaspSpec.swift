import RaspJSON

/// The domains that a spec file defines: JSON states changed by declared operations, without
/// writing code.
///
/// A spec file is a JSON object with a `domains` array. Each domain has a `name`, an optional
/// `summary`, an `initial` state (an empty object by default) and its `events`; each event has a
/// `name`, an optional `summary` and `ops`, the operations it applies (see
/// ``RaspSpecOperation``). `docs/spec.md` describes the format in full.
///
/// ```swift
/// let text = """
///   {"domains": [{"name": "cart", "initial": {"items": []},
///     "events": [{"name": "add",
///       "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]}]}]}
///   """
/// let spec = try RaspSpec(parsing: Array(text.utf8), existingDomains: ["geo": "built in"])
/// let configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all + spec.domains)
/// ```
public struct RaspSpec: Sendable {
  /// The domains, in the order the file lists them.
  public let domains: [RaspSpecDomain]

  /// Creates a spec from domains built in Swift.
  ///
  /// ```swift
  /// let spec = RaspSpec(domains: [cart])
  /// ```
  ///
  /// - Parameter domains: The domains.
  public init(domains: [RaspSpecDomain]) {
    self.domains = domains
  }

  /// Reads and validates a spec file.
  ///
  /// Every mistake is reported, not only the first: invalid JSON (with its position), keys that
  /// are missing, unknown or of the wrong type, unknown operations, invalid paths, a domain or an
  /// event type defined twice, a domain name that is not a plain identifier or that another
  /// domain already has.
  ///
  /// ```swift
  /// do {
  ///   let spec = try RaspSpec(parsing: bytes)
  /// } catch {
  ///   for problem in error.problems { print("app.json:\(problem)") }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The file's contents, as UTF-8 (a leading byte order mark is skipped).
  ///   - existingDomains: The names of domains defined elsewhere, each with a phrase saying where
  ///     (`built in`, `in other.json`); the spec may not reuse them.
  /// - Throws: ``RaspSpecError`` with every problem found, in document order.
  public init(parsing bytes: [UInt8], existingDomains: [String: String] = [:]) throws(RaspSpecError)
  {
    let root: JSONNode
    do {
      root = try JSONNode.read(file: bytes)
    } catch {
      throw RaspSpecError(
        problems: RaspSpec.locate(
          [.init(offset: error.offset, path: [], reason: error.description)], in: bytes))
    }
    var validator = SpecValidator(existingDomains: existingDomains)
    let domains = validator.validate(root)
    guard validator.problems.isEmpty else {
      throw RaspSpecError(problems: RaspSpec.locate(validator.problems, in: bytes))
    }
    self.domains = domains
  }

  /// The number of event types of all the domains.
  ///
  /// ```swift
  /// spec.eventTypeCount   // 3
  /// ```
  public var eventTypeCount: Int {
    domains.reduce(0) { $0 + $1.eventDefinitions.count }
  }

  /// Sorts problems by offset and gives each its line and column.
  private static func locate(_ pending: [SpecValidator.Pending], in text: [UInt8])
    -> [RaspSpecProblem]
  {
    let sorted = pending.enumerated().sorted { a, b in
      a.element.offset != b.element.offset
        ? a.element.offset < b.element.offset : a.offset < b.offset
    }.map(\.element)
    return sorted.map { problem in
      let position = JSONTextPosition(offset: min(max(problem.offset, 0), text.count), in: text)
      return RaspSpecProblem(
        offset: problem.offset, line: position.line, column: position.column,
        path: problem.path.isEmpty ? nil : JSONPath(components: problem.path).description,
        reason: problem.reason)
    }
  }
}
