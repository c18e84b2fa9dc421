import RaspJSON

/// Reads the relations of a `rest.response` — rasp's `links` or HAL's `_links` — straight from
/// the log line's bytes, building no tree.
///
/// The reader works on its own copy of the payload's scanner: a value that does not read as
/// links leaves the payload where it was, so that `rest.response` can tell a HAL resource's own
/// `links` property from rasp's. Every mistake names its full path, array indexes included
/// (`payload._links.item[1].href`), and points at the offending value, or at the link object
/// that lacks a member.
struct RestLinksReader {
  /// How the relations are written.
  enum Dialect {
    /// rasp's `links`: a relation is an href string or a link object.
    case compact
    /// HAL's `_links`: a relation is a link object, or an array of link objects.
    case hal
  }

  /// The scanner, at the value to read, then past it.
  var scanner: JSONScanner
  let dialect: Dialect

  /// A reader of the value at the scanner's position.
  init(scanner: JSONScanner, dialect: Dialect) {
    self.scanner = scanner
    self.dialect = dialect
  }

  /// The path of the value read.
  var field: String { dialect == .hal ? "payload._links" : "payload.links" }

  /// Reads the object of relations.
  mutating func readRelations() throws(RaspEventError) -> [RestRelation] {
    guard try kind() == .object else {
      throw RaspEventError.wrongType(
        field: field, expected: "an object", at: scanner.position, in: scanner)
    }
    var members = try lift { () throws(JSONError) in try scanner.beginObject() }
    var keys = JSONKeyTracker()
    var relations: [RestRelation] = []
    relations.reserveCapacity(8)  // a response's relations rarely number more: one allocation
    while let key = try lift({ () throws(JSONError) in try scanner.nextMember(&members) }) {
      try lift { () throws(JSONError) in try keys.record(key, in: scanner) }
      let rel = scanner.string(key)
      let isCuries = scanner.matches(key, "curies")
      switch try kind() {
      case .object:
        relations.append(RestRelation(try readLink(rel: rel, key: key, index: nil)))
      case .array where dialect == .hal:
        relations.append(RestRelation(rel: rel, list: try readList(rel: rel, key: key)))
      case .string where dialect == .compact && !isCuries:
        let href = try lift { () throws(JSONError) in try scanner.readString() }
        relations.append(RestRelation(rel: rel, href: href))
      default:
        throw wrongType(path(key, nil), expected: expectation(isCuries, isElement: false))
      }
    }
    return relations
  }

  /// Reads a HAL array of link objects.
  private mutating func readList(rel: String, key: JSONRawString) throws(RaspEventError)
    -> [RestLink]
  {
    var elements = try lift { () throws(JSONError) in try scanner.beginArray() }
    var links: [RestLink] = []
    while try lift({ () throws(JSONError) in try scanner.nextElement(&elements) }) {
      let index = elements.count - 1
      guard try kind() == .object else {
        let isCuries = scanner.matches(key, "curies")
        throw wrongType(path(key, index), expected: expectation(isCuries, isElement: true))
      }
      links.append(try readLink(rel: rel, key: key, index: index))
    }
    return links
  }

  /// Reads a link object: `href` is required, `templated`, `name` and `deprecation` are kept
  /// (`null` counts as absent), other members are checked as JSON and skipped. A curie must
  /// have a name.
  private mutating func readLink(rel: String, key: JSONRawString, index: Int?)
    throws(RaspEventError) -> RestLink
  {
    let objectStart = scanner.position
    var members = try lift { () throws(JSONError) in try scanner.beginObject() }
    var keys = JSONKeyTracker()
    var link = RestLink(rel: rel, href: "")
    var hasHref = false
    while let member = try lift({ () throws(JSONError) in try scanner.nextMember(&members) }) {
      try lift { () throws(JSONError) in try keys.record(member, in: scanner) }
      if scanner.matches(member, "href") {
        guard try kind() == .string else {
          throw wrongType(path(key, index, "href"), expected: "a string")
        }
        link.href = try lift { () throws(JSONError) in try scanner.readString() }
        hasHref = true
      } else if scanner.matches(member, "templated") {
        link.isTemplated = try readBool(at: key, index, "templated")
      } else if scanner.matches(member, "name") {
        link.name = try readOptionalString(at: key, index, "name")
      } else if scanner.matches(member, "deprecation") {
        link.deprecation = try readOptionalString(at: key, index, "deprecation")
      } else {
        try lift { () throws(JSONError) in _ = try scanner.skipValue() }
      }
    }
    guard hasHref else {
      throw RaspEventError(
        offset: objectStart, reason: .missingField(path(key, index, "href")))
    }
    if link.name == nil, scanner.matches(key, "curies") {
      throw RaspEventError(
        offset: objectStart, reason: .missingField(path(key, index, "name")))
    }
    return link
  }

  /// Reads a link's boolean member, `null` being `false`.
  private mutating func readBool(at key: JSONRawString, _ index: Int?, _ member: String)
    throws(RaspEventError) -> Bool
  {
    switch try kind() {
    case .bool: return try lift { () throws(JSONError) in try scanner.readBool() }
    case .null:
      try lift { () throws(JSONError) in _ = try scanner.skipValue() }
      return false
    default: throw wrongType(path(key, index, member), expected: "a boolean")
    }
  }

  /// Reads a link's string member, `null` being `nil`.
  private mutating func readOptionalString(at key: JSONRawString, _ index: Int?, _ member: String)
    throws(RaspEventError) -> String?
  {
    switch try kind() {
    case .string: return try lift { () throws(JSONError) in try scanner.readString() }
    case .null:
      try lift { () throws(JSONError) in _ = try scanner.skipValue() }
      return nil
    default: throw wrongType(path(key, index, member), expected: "a string")
    }
  }

  /// The kind of the next value, after whitespace.
  private mutating func kind() throws(RaspEventError) -> JSONKind {
    try lift { () throws(JSONError) in try scanner.peekKind() }
  }

  /// What a relation, or an element of its array, must be.
  private func expectation(_ isCuries: Bool, isElement: Bool) -> String {
    let link =
      isCuries ? "an object with 'href' and 'name' strings" : "an object with an 'href' string"
    switch dialect {
    case .compact: return isCuries ? link : "a string or " + link
    case .hal: return isElement ? link : link + ", or an array of them"
    }
  }

  /// The error for the value at the scanner's position, of the wrong kind.
  private func wrongType(_ path: String, expected: String) -> RaspEventError {
    RaspEventError.wrongType(field: path, expected: expected, at: scanner.position, in: scanner)
  }

  /// The path of a relation, of an element of its array, or of a member of its link:
  /// `payload._links.item[1].href`.
  private func path(_ key: JSONRawString, _ index: Int?, _ member: String? = nil) -> String {
    var path = field + "." + scanner.string(key)
    if let index { path += "[\(index)]" }
    if let member { path += "." + member }
    return path
  }
}

/// Runs a step of the scanner, turning its syntax error into an event error.
@inline(__always)
private func lift<Value>(_ step: () throws(JSONError) -> Value) throws(RaspEventError) -> Value {
  do {
    return try step()
  } catch {
    throw RaspEventError(error)
  }
}
