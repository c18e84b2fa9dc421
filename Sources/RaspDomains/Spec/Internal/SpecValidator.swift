import RaspJSON

/// Turns a spec file's JSON into domains, collecting every mistake with its place.
///
/// Validation does not stop at the first mistake: each part of the document is checked on its
/// own, so that one run reports as many problems as it can. The domains it returns are only
/// meaningful when ``problems`` is empty.
struct SpecValidator {
  typealias Path = [JSONPath.Component]

  /// A mistake, before its line and column are known.
  struct Pending {
    let offset: Int
    let path: Path
    let reason: String
  }

  /// The names of domains defined elsewhere, with where (`built in`, `in other.json`).
  let existingDomains: [String: String]
  /// The mistakes found so far, in the order they were found.
  private(set) var problems: [Pending] = []

  init(existingDomains: [String: String]) {
    self.existingDomains = existingDomains
  }

  mutating func report(_ reason: String, at offset: Int, _ path: Path) {
    problems.append(Pending(offset: offset, path: path, reason: reason))
  }

  /// Validates a whole document.
  mutating func validate(_ root: JSONNode) -> [RaspSpecDomain] {
    guard root.members != nil else {
      report("expected an object with a 'domains' array, found \(root.phrase)", at: root.offset, [])
      return []
    }
    let members = object(root, at: [], allowed: ["domains"], required: ["domains"], owner: "a spec")
    guard let list = members["domains"], let nodes = array(list.value, at: [.key("domains")]) else {
      return []
    }
    if nodes.isEmpty {
      report("a spec must define at least one domain", at: list.value.offset, [.key("domains")])
    }
    var seen: [String: Path] = [:]
    var domains: [RaspSpecDomain] = []
    for (index, node) in nodes.enumerated() {
      if let domain = domain(node, at: [.key("domains"), .index(index)], seen: &seen) {
        domains.append(domain)
      }
    }
    return domains
  }

  private mutating func domain(_ node: JSONNode, at path: Path, seen: inout [String: Path])
    -> RaspSpecDomain?
  {
    guard node.members != nil else {
      report("expected a domain object, found \(node.phrase)", at: node.offset, path)
      return nil
    }
    let members = object(
      node, at: path, allowed: ["name", "summary", "initial", "events"],
      required: ["name", "events"],
      owner: "a domain")
    var name: String?
    if let member = members["name"], let text = string(member.value, at: path + [.key("name")]) {
      let namePath = path + [.key("name")]
      if !SpecValidator.isIdentifier(text) {
        report(
          "domain name '\(JSONError.abbreviated(text))' is not a plain identifier: "
            + "use letters, digits and '_', starting with a letter or '_'",
          at: member.value.offset, namePath)
      } else if let origin = existingDomains[text] {
        report(
          "a domain named '\(JSONError.abbreviated(text))' already exists (\(origin))",
          at: member.value.offset, namePath)
      } else if let first = seen[text] {
        report(
          "domain '\(JSONError.abbreviated(text))' is defined twice: "
            + "first at \(JSONPath(components: first).description)",
          at: member.value.offset, namePath)
      } else {
        seen[text] = namePath
        name = text
      }
    }
    let summary =
      members["summary"].flatMap { string($0.value, at: path + [.key("summary")]) } ?? ""
    let initial = members["initial"]?.value.json ?? .object(JSONObject())
    var events: [RaspSpecEventDefinition] = []
    if let member = members["events"], let nodes = array(member.value, at: path + [.key("events")])
    {
      var seenEvents: [String: Path] = [:]
      for (index, node) in nodes.enumerated() {
        if let event = event(
          node, at: path + [.key("events"), .index(index)], domain: name, seen: &seenEvents)
        {
          events.append(event)
        }
      }
    }
    guard let name else { return nil }
    return RaspSpecDomain(name: name, summary: summary, initial: initial, events: events)
  }

  private mutating func event(
    _ node: JSONNode, at path: Path, domain: String?, seen: inout [String: Path]
  ) -> RaspSpecEventDefinition? {
    guard node.members != nil else {
      report("expected an event object, found \(node.phrase)", at: node.offset, path)
      return nil
    }
    // An event that stands only for other domains' types (`on`) needs no name of its own.
    let hasOn = node.members?.contains { $0.key == "on" } ?? false
    let members = object(
      node, at: path, allowed: ["name", "summary", "on", "ops"],
      required: hasOn ? ["ops"] : ["name", "ops"], owner: "an event")
    let listensTo = members["on"].map {
      on(node: $0.value, at: path + [.key("on")], domain: domain)
    }
    var name: String? = members["name"] == nil && listensTo != nil ? "" : nil
    if let member = members["name"], let text = string(member.value, at: path + [.key("name")]) {
      let namePath = path + [.key("name")]
      if !SpecValidator.isEventName(text) {
        report(
          "event name '\(JSONError.abbreviated(text))' is not valid: an event name is any "
            + "text (such as 'added', 'item.added' or 'Order Completed') without control "
            + "characters, and with no empty part between dots",
          at: member.value.offset, namePath)
      } else if let first = seen[text] {
        let type =
          domain.map { "'\($0).\(JSONError.abbreviated(text))'" }
          ?? "'\(JSONError.abbreviated(text))'"
        report(
          "event type \(type) is defined twice: "
            + "first at \(JSONPath(components: first).description)",
          at: member.value.offset, namePath)
      } else {
        seen[text] = namePath
        name = text
      }
    }
    let summary =
      members["summary"].flatMap { string($0.value, at: path + [.key("summary")]) } ?? ""
    var operations: [RaspSpecOperation] = []
    if let member = members["ops"], let nodes = array(member.value, at: path + [.key("ops")]) {
      for (index, node) in nodes.enumerated() {
        if let operation = operation(node, at: path + [.key("ops"), .index(index)]) {
          operations.append(operation)
        }
      }
    }
    guard let name else { return nil }
    return RaspSpecEventDefinition(
      name: name, summary: summary, operations: operations, on: listensTo ?? [])
  }

  /// The types an event's `on` names: a non-empty array of strings, each a type of another
  /// domain as rasp reads it (`user.loggedOut`) or as Redux writes it (`user/loggedOut`, its
  /// first `/` read as the dot), `*` for any text, or a type of no domain (`ADD_TODO`).
  private mutating func on(node: JSONNode, at path: Path, domain: String?) -> [String] {
    guard let nodes = array(node, at: path) else { return [] }
    if nodes.isEmpty {
      report(
        "expected at least one type, such as 'user.loggedOut' or '*.reset'", at: node.offset,
        path)
    }
    var types: [String] = []
    for (index, node) in nodes.enumerated() {
      let itemPath = path + [.index(index)]
      guard let text = string(node, at: itemPath) else { continue }
      let type = Self.typeAsRead(text)
      if type.isEmpty
        || type.unicodeScalars.contains(where: {
          $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        })
      {
        report(
          "'\(JSONError.abbreviated(text))' is not an event type: a type has no spaces or "
            + "control characters, such as 'user.loggedOut', 'user/loggedOut' or '*.reset'",
          at: node.offset, itemPath)
      } else if let domain, type.hasPrefix(domain + "."), !type.contains("*") {
        report(
          "'\(JSONError.abbreviated(text))' is a type of this domain: its events are the "
            + "domain's own, by their 'name'; 'on' names the types of other domains",
          at: node.offset, itemPath)
      } else {
        types.append(type)
      }
    }
    return types
  }

  /// A type as rasp reads it: Redux's `user/loggedOut` is `user.loggedOut`; a type with a dot
  /// before its first `/`, or with no `/`, is as written.
  static func typeAsRead(_ text: String) -> String {
    guard let slash = text.firstIndex(of: "/"), !text[..<slash].contains(".") else {
      return text
    }
    return text[..<slash] + "." + text[text.index(after: slash)...]
  }

  // MARK: Objects, arrays, strings

  /// The members of an object by key, after reporting unknown and missing keys.
  mutating func object(
    _ node: JSONNode, at path: Path, allowed: [String], required: [String], owner: String
  ) -> [String: JSONNodeMember] {
    var result: [String: JSONNodeMember] = [:]
    for member in node.members ?? [] {
      if allowed.contains(member.key) {
        result[member.key] = member
      } else {
        var reason = "unknown key '\(JSONError.abbreviated(member.key))'"
        if let near = RaspSpelling.nearest(to: member.key, among: allowed) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": \(owner) takes \(SpecValidator.list(allowed, conjunction: "and"))"
        }
        report(reason, at: member.keyOffset, path + [.key(member.key)])
      }
    }
    for key in required where result[key] == nil {
      report("missing required key '\(key)'", at: node.offset, path)
    }
    return result
  }

  /// The elements of an array, or `nil` after reporting a value of another kind.
  mutating func array(_ node: JSONNode, at path: Path) -> [JSONNode]? {
    guard case .array(let elements) = node.content else {
      report("expected an array, found \(node.phrase)", at: node.offset, path)
      return nil
    }
    return elements
  }

  /// The text of a string, or `nil` after reporting a value of another kind.
  mutating func string(_ node: JSONNode, at path: Path) -> String? {
    guard case .string(let text) = node.content else {
      report("expected a string, found \(node.phrase)", at: node.offset, path)
      return nil
    }
    return text
  }

  // MARK: Names

  /// Whether `text` is a plain identifier: ASCII letters, digits and `_`, not starting with a
  /// digit.
  static func isIdentifier<Text: StringProtocol>(_ text: Text) -> Bool {
    guard let first = text.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else {
      return false
    }
    return text.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
        return true
      default:
        return false
      }
    }
  }

  /// Whether `text` names an event: `add`, `item.added`, `Order Completed`, `item-added` — any
  /// text without control characters, whose parts between dots are not empty.
  static func isEventName(_ text: String) -> Bool {
    !text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
      && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
  }

  /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
  static func list(_ words: [String], conjunction: String) -> String {
    let quoted = words.map { "'\($0)'" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted[quoted.count - 1]
  }
}
