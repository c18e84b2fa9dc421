import RaspDomains
import RaspJSON

/// What `rasp redact` does to which values of each event: a policy file's rules, in order.
///
/// A policy file is a JSON object with one member, `rules`, an array of rules. Each rule has a
/// `path`, written as `--ignore` takes it (`payload.email`, `meta.*`, `**.ts`), and an
/// `action`: `hash`, `drop`, `replace` (with `value`), `round` (with `decimals`) or `shift`
/// (with `by`). The first rule whose path matches a value, or one of its ancestors, applies to
/// it, as a whole.
///
/// ```swift
/// let policy = try RedactionPolicy(
///   file: "pii.json",
///   bytes: Array(#"{"rules": [{"path": "payload.email", "action": "hash"}]}"#.utf8))
/// policy.rules[0].action   // .hash
/// ```
struct RedactionPolicy {
  /// What a rule does to the value at its path.
  enum Action: Equatable {
    /// Replace the value by the HMAC-SHA256 of its compact JSON text, in hexadecimal.
    case hash
    /// Remove the member (or the array's element).
    case drop
    /// Replace the value by a constant.
    case replace(JSONValue)
    /// Round a number to so many decimals.
    case round(Int)
    /// Add a constant to a number (a time), so that times keep their order.
    case shift(JSONNumber)

    /// The action's name, as written in a policy file.
    var name: String {
      switch self {
      case .hash: return "hash"
      case .drop: return "drop"
      case .replace: return "replace"
      case .round: return "round"
      case .shift: return "shift"
      }
    }
  }

  /// One rule: a path pattern and its action.
  struct Rule {
    /// The path as written in the file.
    let text: String
    /// The path, which may hold `*` and `**`.
    let pattern: JSONPath
    /// What is done to the value there.
    let action: Action
  }

  /// A rule of a field of gpsd's NMEA sentences (`GGA.lat`), read with `--log-format gpsd`.
  struct SentenceRule {
    /// The path as written in the file.
    let text: String
    /// The field.
    let field: NMEASentences.Field
    /// What is done to it: `round`, `replace` (a number) or `drop`.
    let action: Action
  }

  /// The rules of JSON paths, in the file's order.
  let rules: [Rule]
  /// The rules of NMEA sentences' fields, in the file's order.
  let sentenceRules: [SentenceRule]

  /// The names of the actions, in the order the docs give them.
  static let actionNames = ["hash", "drop", "replace", "round", "shift"]

  /// The most decimals `round` takes: a double has about 15 significant digits.
  static let maximumDecimals = 15

  /// Whether a rule hashes, so that a key is needed.
  var hashes: Bool { rules.contains { $0.action == .hash } }

  /// Creates a policy from rules, for tests.
  init(rules: [Rule], sentenceRules: [SentenceRule] = []) {
    self.rules = rules
    self.sentenceRules = sentenceRules
  }

  /// Reads a policy file.
  ///
  /// - Parameters:
  ///   - file: The file's name, for messages.
  ///   - bytes: Its contents.
  ///   - sentences: Whether a path such as `GGA.lat` names a field of an NMEA sentence (a
  ///     gpsd log's), rather than a JSON path.
  /// - Throws: Every mistake in the file, each with its line, column and path, and a
  ///   did-you-mean for a misspelt key, action, sentence or field.
  init(file: String, bytes: [UInt8], sentences: Bool = false) throws(RaspCommandError) {
    var reader = Reader(sentences: sentences)
    let root: JSONNode
    do {
      root = try JSONNode.read(file: bytes)
    } catch {
      let position = JSONTextPosition(offset: min(max(error.offset, 0), bytes.count), in: bytes)
      throw .invalidFile(
        file, line: position.line, column: position.column, path: nil,
        reason: error.description)
    }
    let rules = reader.policy(root)
    guard reader.problems.isEmpty else {
      let errors = reader.problems.sorted { $0.offset < $1.offset }.map { problem in
        let position = JSONTextPosition(
          offset: min(max(problem.offset, 0), bytes.count), in: bytes)
        return RaspCommandError.invalidFile(
          file, line: position.line, column: position.column,
          path: problem.path.isEmpty ? nil : JSONPath(components: problem.path).description,
          reason: problem.reason)
      }
      throw errors.count == 1 ? errors[0] : .multiple(errors)
    }
    self.rules = rules
    self.sentenceRules = reader.sentenceRules
  }
}

extension RedactionPolicy {
  /// Reads the policy's JSON, collecting every mistake with its place.
  private struct Reader {
    typealias Path = [JSONPath.Component]

    /// A mistake, before its line and column are known.
    struct Problem {
      let offset: Int
      let path: Path
      let reason: String
    }

    /// Whether paths may name NMEA sentences' fields.
    let sentences: Bool
    private(set) var problems: [Problem] = []
    private(set) var sentenceRules: [SentenceRule] = []

    mutating func report(_ reason: String, at offset: Int, _ path: Path) {
      problems.append(Problem(offset: offset, path: path, reason: reason))
    }

    mutating func policy(_ root: JSONNode) -> [Rule] {
      guard root.members != nil else {
        report("expected an object with a 'rules' array, found \(root.phrase)", at: root.offset, [])
        return []
      }
      let members = object(root, at: [], allowed: ["rules"], owner: "a policy")
      guard let list = members["rules"] else {
        report("missing required key 'rules'", at: root.offset, [])
        return []
      }
      guard case .array(let nodes) = list.value.content else {
        report(
          "expected an array of rules, found \(list.value.phrase)", at: list.value.offset,
          [.key("rules")])
        return []
      }
      var rules: [Rule] = []
      for (index, node) in nodes.enumerated() {
        if let rule = rule(node, at: [.key("rules"), .index(index)]) { rules.append(rule) }
      }
      return rules
    }

    private mutating func rule(_ node: JSONNode, at path: Path) -> Rule? {
      guard node.members != nil else {
        report(
          "expected a rule, an object with 'path' and 'action', found \(node.phrase)",
          at: node.offset, path)
        return nil
      }
      let members = object(
        node, at: path, allowed: ["path", "action", "value", "decimals", "by"], owner: "a rule")
      var pattern: (text: String, path: JSONPath)?
      var field: (text: String, field: NMEASentences.Field)?
      if let member = members["path"], sentences, case .string(let text) = member.value.content,
        NMEASentences.namesSentence(text)
      {
        field = sentenceField(text, at: member.value.offset, path + [.key("path")])
        if field == nil { return nil }
      } else if let member = members["path"] {
        pattern = self.pattern(member.value, at: path + [.key("path")])
      } else {
        report("missing required key 'path'", at: node.offset, path)
      }
      guard let actionMember = members["action"] else {
        report("missing required key 'action'", at: node.offset, path)
        return nil
      }
      let actionPath = path + [.key("action")]
      guard case .string(let name) = actionMember.value.content else {
        report(
          "expected an action name, found \(actionMember.value.phrase)",
          at: actionMember.value.offset, actionPath)
        return nil
      }
      let action: Action?
      switch name {
      case "hash": action = .hash
      case "drop": action = .drop
      case "replace":
        if let value = members["value"] {
          action = .replace(value.value.json)
        } else {
          report("missing required key 'value': 'replace' takes one", at: node.offset, path)
          action = nil
        }
      case "round": action = decimals(members["decimals"], node: node, at: path)
      case "shift": action = shift(members["by"], node: node, at: path)
      default:
        var reason = "unknown action '\(JSONError.abbreviated(name))'"
        if let near = RaspSpelling.nearest(to: name, among: RedactionPolicy.actionNames) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": the actions are " + RedactionPolicy.actionNames.joined(separator: ", ")
        }
        report(reason, at: actionMember.value.offset, actionPath)
        action = nil
      }
      if let action {
        let takes: [String: String] = ["replace": "value", "round": "decimals", "shift": "by"]
        for (key, member) in members where ["value", "decimals", "by"].contains(key) {
          if takes[action.name] != key {
            report(
              "'\(action.name)' takes no '\(key)'", at: member.keyOffset, path + [.key(key)])
          }
        }
      }
      if let field, let action {
        let actionNames = field.field.kind.actionNames
        if actionNames.contains(action.name) {
          if case .replace(let value) = action, value.kind != .number {
            report(
              "'replace' of \(field.text) takes a number, found \(value.kind.phrase)",
              at: members["value"]?.value.offset ?? node.offset, path + [.key("value")])
            return nil
          }
          if case .replace(.number(let number)) = action, field.field.kind != .number {
            let limit = field.field.kind == .latitude ? 90.0 : 180.0
            guard abs(number.doubleValue) <= limit else {
              report(
                "'replace' of \(field.text) takes degrees from -\(Int(limit)) to \(Int(limit)), "
                  + "found \(number)", at: members["value"]?.value.offset ?? node.offset,
                path + [.key("value")])
              return nil
            }
          }
          sentenceRules.append(SentenceRule(text: field.text, field: field.field, action: action))
        } else {
          report(
            "'\(action.name)' does not apply to \(field.text): \(field.text) takes "
              + actionNames.map { "'\($0)'" }.joined(separator: ", "),
            at: actionMember.value.offset, actionPath)
        }
        return nil
      }
      guard let pattern, let action else { return nil }
      return Rule(text: pattern.text, pattern: pattern.path, action: action)
    }

    /// The field an NMEA path names (`GGA.lat`), or a mistake with a did-you-mean.
    private mutating func sentenceField(_ text: String, at offset: Int, _ path: Path)
      -> (text: String, field: NMEASentences.Field)?
    {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      let sentence = parts[0]
      guard let fields = NMEASentences.fields[sentence] else {
        var reason = "unknown NMEA sentence '\(JSONError.abbreviated(sentence))'"
        if let near = RaspSpelling.nearest(to: sentence, among: NMEASentences.sentenceNames) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": the sentences are " + NMEASentences.sentenceNames.joined(separator: ", ")
        }
        report(reason, at: offset, path)
        return nil
      }
      let names = fields.map(\.name)
      guard parts.count == 2, let field = NMEASentences.field(parts[1], of: sentence) else {
        let name = parts.dropFirst().joined(separator: ".")
        var reason = "unknown field '\(JSONError.abbreviated(name))' of \(sentence)"
        if let near = RaspSpelling.nearest(to: name, among: names) {
          reason += ". Did you mean '\(sentence).\(near)'?"
        } else {
          reason += ": its fields are " + names.map { "\(sentence).\($0)" }.joined(separator: ", ")
        }
        report(reason, at: offset, path)
        return nil
      }
      return (text, field)
    }

    private mutating func pattern(_ node: JSONNode, at path: Path) -> (String, JSONPath)? {
      guard case .string(let text) = node.content else {
        report("expected a path, found \(node.phrase)", at: node.offset, path)
        return nil
      }
      let pattern: JSONPath
      do {
        pattern = try JSONPath(text, allowsPatterns: true)
      } catch {
        report("invalid path '\(text)': \(error)", at: node.offset, path)
        return nil
      }
      if pattern.selectsLength {
        report("invalid path '\(text)': it cannot end in '|length'", at: node.offset, path)
        return nil
      }
      if pattern.components.count > Redactor.maximumSteps {
        report(
          "invalid path: it has \(pattern.components.count) steps, more than the "
            + "\(Redactor.maximumSteps) a rule's path may have", at: node.offset, path)
        return nil
      }
      if pattern.matches([]) {
        report(
          "invalid path '\(text)': it would take the whole event; name a field such as "
            + "'payload.email'", at: node.offset, path)
        return nil
      }
      return (text, pattern)
    }

    private mutating func decimals(_ member: JSONNodeMember?, node: JSONNode, at path: Path)
      -> Action?
    {
      guard let member else {
        report("missing required key 'decimals': 'round' takes one", at: node.offset, path)
        return nil
      }
      guard case .number(let number) = member.value.content, let count = number.integerValue,
        (0...Int64(RedactionPolicy.maximumDecimals)).contains(count)
      else {
        report(
          "expected a whole number of decimals from 0 to \(RedactionPolicy.maximumDecimals), "
            + "found \(member.value.json)", at: member.value.offset, path + [.key("decimals")])
        return nil
      }
      return .round(Int(count))
    }

    private mutating func shift(_ member: JSONNodeMember?, node: JSONNode, at path: Path)
      -> Action?
    {
      guard let member else {
        report("missing required key 'by': 'shift' takes one", at: node.offset, path)
        return nil
      }
      guard case .number(let number) = member.value.content, number.doubleValue.isFinite else {
        report(
          "expected a number to add to each time, found \(member.value.phrase)",
          at: member.value.offset, path + [.key("by")])
        return nil
      }
      return .shift(number)
    }

    /// The members of an object by key, after reporting unknown keys.
    private mutating func object(
      _ node: JSONNode, at path: Path, allowed: [String], owner: String
    ) -> [String: JSONNodeMember] {
      var result: [String: JSONNodeMember] = [:]
      for member in node.members ?? [] {
        if allowed.contains(member.key) {
          result[member.key] = member
          continue
        }
        var reason = "unknown key '\(JSONError.abbreviated(member.key))'"
        if let near = RaspSpelling.nearest(to: member.key, among: allowed) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": \(owner) takes " + allowed.map { "'\($0)'" }.joined(separator: ", ")
        }
        report(reason, at: member.keyOffset, path + [.key(member.key)])
      }
      return result
    }
  }
}
