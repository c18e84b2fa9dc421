import RaspJSON

extension SpecValidator {
  /// What an operand must hold.
  enum Role {
    case any
    case number
    case integer
    case object

    var phrase: String {
      switch self {
      case .any: return "a value"
      case .number: return "a number"
      case .integer: return "an integer"
      case .object: return "an object"
      }
    }
  }

  /// Every key an operation may have, for one operation or another.
  static let operationKeys = [
    "op", "path", "value", "from", "default", "by", "index", "unique", "if",
  ]

  /// The keys each operation takes.
  static func keys(of operation: String) -> [String] {
    switch operation {
    case "set", "merge": return ["op", "path", "value", "from", "default", "if"]
    case "append": return ["op", "path", "value", "from", "default", "unique", "if"]
    case "remove": return ["op", "path", "value", "from", "default", "index", "if"]
    case "increment", "decrement": return ["op", "path", "by", "from", "default", "if"]
    default: return ["op", "path", "if"]
    }
  }

  /// Validates one operation, with its `if` condition.
  mutating func operation(_ node: JSONNode, at path: Path) -> RaspSpecOperation? {
    guard let member = node.members?.first(where: { $0.key == "if" }) else {
      return bareOperation(node, at: path)
    }
    let condition = self.condition(member.value, at: path + [.key("if")])
    guard let operation = bareOperation(node, at: path), let condition else { return nil }
    return .onlyIf(condition, operation)
  }

  /// An `if` condition: `payload.changeType == 'added'`.
  private mutating func condition(_ node: JSONNode, at path: Path) -> RaspSpecCondition? {
    guard let text = string(node, at: path) else { return nil }
    var parser = SpecPathParser(text)
    let condition: RaspSpecCondition
    do {
      condition = try parser.parseCondition()
    } catch {
      report("invalid condition '\(JSONError.abbreviated(text))': \(error)", at: node.offset, path)
      return nil
    }
    var valid = checkEventPath(
      condition.field, what: "an 'if' condition", at: node.offset, path)
    if case .event(let source, _) = condition.value {
      valid = checkEventPath(source, what: "an 'if' value", at: node.offset, path) && valid
    }
    return valid ? condition : nil
  }

  /// Validates one operation, without its `if` condition.
  private mutating func bareOperation(_ node: JSONNode, at path: Path) -> RaspSpecOperation? {
    guard let list = node.members else {
      report("expected an operation object, found \(node.phrase)", at: node.offset, path)
      return nil
    }
    var name: String?
    if let member = list.first(where: { $0.key == "op" }),
      let text = string(member.value, at: path + [.key("op")])
    {
      if RaspSpecOperation.names.contains(text) {
        name = text
      } else {
        var reason = "unknown operation '\(JSONError.abbreviated(text))'"
        if let near = RaspSpelling.nearest(to: text, among: RaspSpecOperation.names) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": use \(SpecValidator.list(RaspSpecOperation.names, conjunction: "or"))"
        }
        report(reason, at: member.value.offset, path + [.key("op")])
      }
    }
    let allowed = name.map(SpecValidator.keys(of:)) ?? SpecValidator.operationKeys
    var members: [String: JSONNodeMember] = [:]
    for member in list {
      if allowed.contains(member.key) {
        members[member.key] = member
      } else if let name, SpecValidator.operationKeys.contains(member.key) {
        let takes = SpecValidator.list(allowed.filter { $0 != "op" }, conjunction: "and")
        report(
          "key '\(JSONError.abbreviated(member.key))' does not apply to operation '\(name)', "
            + "which takes \(takes)",
          at: member.keyOffset, path + [.key(member.key)])
      } else {
        var reason = "unknown key '\(JSONError.abbreviated(member.key))'"
        if let near = RaspSpelling.nearest(to: member.key, among: allowed) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": an operation takes \(SpecValidator.list(allowed, conjunction: "and"))"
        }
        report(reason, at: member.keyOffset, path + [.key(member.key)])
      }
    }
    for key in ["op", "path"] where members[key] == nil {
      report("missing required key '\(key)'", at: node.offset, path)
    }
    let target = members["path"].flatMap {
      statePath($0.value, at: path + [.key("path")], operation: name)
    }
    guard let name else {
      // The operation is unknown, so its other keys cannot be checked; a `from` still can.
      if let from = members["from"] { _ = eventPath(from.value, at: path + [.key("from")]) }
      return nil
    }
    switch name {
    case "unset", "pop", "clear", "toggle":
      guard let target else { return nil }
      switch name {
      case "unset": return .unset(target)
      case "pop": return .pop(target)
      case "toggle": return .toggle(target)
      default: return .clear(target)
      }
    case "increment", "decrement":
      let amount = operand(
        members, main: "by", alternatives: [], role: .number, at: path, operation: name,
        offset: node.offset)
      guard let target, let amount else { return nil }
      return name == "increment"
        ? .increment(target, by: amount ?? .literal(1))
        : .decrement(target, by: amount ?? .literal(1))
    case "remove":
      if let index = members["index"] {
        if let other = members["value"] ?? members["from"] {
          reportConflict(index, other, at: path)
          return nil
        }
        let operand = self.operand(index.value, role: .integer, at: path + [.key("index")])
        if let fallback = members["default"] {
          report(
            "'default' applies only with 'from'", at: fallback.keyOffset, path + [.key("default")])
        }
        guard let target, let operand else { return nil }
        return .removeAt(target, index: operand)
      }
      if let target, SpecValidator.endsInSelection(target),
        members["value"] == nil, members["from"] == nil, members["default"] == nil
      {
        return .removeSelected(target)
      }
      let value = operand(
        members, main: "value", alternatives: ["index"], role: .any, at: path, operation: name,
        offset: node.offset)
      guard let target, let value, let value else { return nil }
      return .remove(target, value: value)
    default:
      let role: Role = name == "merge" ? .object : .any
      let value = operand(
        members, main: "value", alternatives: [], role: role, at: path, operation: name,
        offset: node.offset)
      var unique = false
      if let member = members["unique"] {
        guard case .bool(let flag) = member.value.content else {
          report(
            "expected true or false, found \(member.value.phrase)", at: member.value.offset,
            path + [.key("unique")])
          return nil
        }
        unique = flag
      }
      guard let target, let value, let value else { return nil }
      switch name {
      case "set": return .set(target, value: value)
      case "append":
        return unique ? .appendUnique(target, value: value) : .append(target, value: value)
      default: return .merge(target, value: value)
      }
    }
  }

  /// The operand given by `main` or by `from` (with `default`).
  ///
  /// - Returns: `nil` after a problem; `.some(nil)` when neither is given and `main` is optional
  ///   (`by`); the operand otherwise.
  private mutating func operand(
    _ members: [String: JSONNodeMember], main: String, alternatives: [String], role: Role,
    at path: Path,
    operation: String, offset: Int
  ) -> RaspSpecOperand?? {
    let direct = members[main]
    let from = members["from"]
    if let direct, let from {
      reportConflict(direct, from, at: path)
      return nil
    }
    if from == nil, let fallback = members["default"] {
      report("'default' applies only with 'from'", at: fallback.keyOffset, path + [.key("default")])
    }
    if let direct {
      guard let operand = operand(direct.value, role: role, at: path + [.key(main)]) else {
        return nil
      }
      return .some(operand)
    }
    if let from {
      guard let source = eventPath(from.value, at: path + [.key("from")]) else { return nil }
      var fallback: JSONValue?
      if let member = members["default"] {
        guard check(member.value, role: role, at: path + [.key("default")]) else { return nil }
        fallback = member.value.json
      }
      return .some(.event(source, default: fallback))
    }
    if main == "by" { return .some(nil) }
    let choices = SpecValidator.list([main, "from"] + alternatives, conjunction: "or")
    let selection =
      operation == "remove" ? ", or a path that ends in '[]', a filter or a key from the event" : ""
    report("operation '\(operation)' needs \(choices)\(selection)", at: offset, path)
    return nil
  }

  private mutating func reportConflict(_ a: JSONNodeMember, _ b: JSONNodeMember, at path: Path) {
    let later = a.keyOffset > b.keyOffset ? a : b
    let earlier = a.keyOffset > b.keyOffset ? b : a
    report(
      "'\(later.key)' cannot be given with '\(earlier.key)': give one of them",
      at: later.keyOffset, path + [.key(later.key)])
  }

  /// An operand written as a literal, `{"from": …, "default": …}` or `{"literal": …}`.
  mutating func operand(_ node: JSONNode, role: Role, at path: Path) -> RaspSpecOperand? {
    if let members = node.members,
      members.contains(where: { $0.key == "from" || $0.key == "literal" })
    {
      if members.contains(where: { $0.key == "literal" }) {
        let checked = object(
          node, at: path, allowed: ["literal"], required: ["literal"], owner: "a literal operand")
        guard checked.count == members.count, let literal = checked["literal"],
          check(literal.value, role: role, at: path + [.key("literal")])
        else { return nil }
        return .literal(literal.value.json)
      }
      let checked = object(
        node, at: path, allowed: ["from", "default"], required: ["from"],
        owner: "an operand that reads the event")
      guard checked.count == members.count, let from = checked["from"],
        let source = eventPath(from.value, at: path + [.key("from")])
      else { return nil }
      var fallback: JSONValue?
      if let member = checked["default"] {
        guard check(member.value, role: role, at: path + [.key("default")]) else { return nil }
        fallback = member.value.json
      }
      return .event(source, default: fallback)
    }
    guard check(node, role: role, at: path) else { return nil }
    return .literal(node.json)
  }

  /// Whether a literal suits its role, after reporting it when it does not.
  private mutating func check(_ node: JSONNode, role: Role, at path: Path) -> Bool {
    let fits: Bool
    switch (role, node.content) {
    case (.any, _), (.number, .number), (.object, .object): fits = true
    case (.integer, .number(let number)):
      fits = number.integerValue.flatMap { Int(exactly: $0) } != nil
    default: fits = false
    }
    guard !fits else { return true }
    let found = if case .number(let number) = node.content { "\(number)" } else { node.phrase }
    report("expected \(role.phrase), found \(found)", at: node.offset, path)
    return false
  }

  /// A path into the state, relative to the domain.
  private mutating func statePath(_ node: JSONNode, at path: Path, operation: String?)
    -> RaspSpecPath?
  {
    guard let text = string(node, at: path) else { return nil }
    var parser = SpecPathParser(text)
    let parsed: RaspSpecPath
    do {
      parsed = try parser.parse()
    } catch {
      report("invalid path '\(JSONError.abbreviated(text))': \(error)", at: node.offset, path)
      return nil
    }
    if parser.selectsLength {
      report("a path to change cannot end in '|length'", at: node.offset, path)
      return nil
    }
    if operation == "unset", parsed.components.isEmpty {
      report(
        "'unset' needs a path inside the state; to empty it, use 'set' or 'clear'", at: node.offset,
        path)
      return nil
    }
    var valid = true
    for component in parsed.components {
      switch component {
      case .eventKey(let source):
        valid = checkEventPath(source, what: "a key from the event", at: node.offset, path) && valid
      case .matching(let condition):
        if case .event(let source, _) = condition.value {
          valid =
            checkEventPath(source, what: "a filter's value", at: node.offset, path) && valid
        }
      case .key, .index, .each: break
      }
    }
    return valid ? parsed : nil
  }

  /// Whether a path ends in `[]`, a filter or a key from the event: what `remove` without an
  /// operand removes.
  static func endsInSelection(_ path: RaspSpecPath) -> Bool {
    switch path.last {
    case .each?, .matching?, .eventKey?: return true
    case .key?, .index?, nil: return false
    }
  }

  /// A `from` path into the event.
  private mutating func eventPath(_ node: JSONNode, at path: Path) -> JSONPath? {
    guard let text = string(node, at: path) else { return nil }
    let parsed: JSONPath
    do {
      parsed = try JSONPath(text)
    } catch {
      report("invalid path '\(JSONError.abbreviated(text))': \(error)", at: node.offset, path)
      return nil
    }
    return checkEventPath(parsed, what: "a 'from' path", at: node.offset, path) ? parsed : nil
  }

  /// Whether a path of the event starts with one of its parts, after reporting it when not.
  ///
  /// - Parameters:
  ///   - parsed: The path, parsed.
  ///   - what: What the path is, for messages: `a 'from' path`.
  ///   - offset: Where the path is in the spec, for messages.
  ///   - path: Where in the spec the path is.
  /// - Returns: Whether the path starts with one of the event's parts.
  private mutating func checkEventPath(
    _ parsed: JSONPath, what: String, at offset: Int, _ path: Path
  ) -> Bool {
    let roots = RaspSpecOperand.eventRoots
    let parts = roots.map { "'\($0)'" }.joined(separator: ", ")
    let lineField = "or another field of the log's line, such as 'meta.user'"
    guard let first = parsed.firstKey else {
      report(
        "\(what) must start with \(parts) "
          + "\(lineField), found '\(JSONError.abbreviated(parsed.description))'",
        at: offset, path)
      return false
    }
    // Any field of the line may be read, but one a letter or two from `payload` or `source`
    // is taken for a typo of them (short names such as `id` and `time` are real fields).
    if !roots.contains(first), first.count >= 5,
      let near = RaspSpelling.nearest(to: first, among: ["payload", "source"])
    {
      report(
        "\(what) starts with \(parts) "
          + "\(lineField), found '\(JSONError.abbreviated(first))'. Did you mean '\(near)'?",
        at: offset, path)
      return false
    }
    if ["ts", "source", "type"].contains(first), parsed.components.count > 1 {
      report("'\(first)' holds a single value: only 'payload' has fields", at: offset, path)
      return false
    }
    return true
  }
}
