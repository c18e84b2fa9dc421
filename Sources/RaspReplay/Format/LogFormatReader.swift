import RaspDomains
import RaspJSON

/// What a map's `untyped` says.
private enum Untyped: String, CaseIterable {
  case error, drop
}

/// What a field's `absentIs` says: a field that is not there (or is `null`) is `missing`, for
/// the domain to report if it needs it, or makes the event `skip`ped, not emitted.
private enum Absent: String, CaseIterable {
  case missing, skip
}

/// Reads and checks a map file, collecting every mistake with its place, as a spec file is
/// checked: unknown keys with the nearest known one, values of the wrong kind, templates,
/// globs and paths that do not parse.
struct LogFormatReader {
  /// The keys a map file may have, in the order the docs list them.
  static let keys = [
    "format", "summary", "type", "separator", "split", "defaultDomain", "rename", "drop",
    "keep", "payload", "fields", "emit", "time", "timeUnit", "source", "untyped", "events",
    "inherit", "decode", "inner", "innerFormat", "document", "ignoreLines", "skipTo",
  ]

  /// The keys that describe the event itself, which a map with `inner` leaves to the map of
  /// the event inside (its `innerFormat`).
  static let eventKeys = [
    "type", "separator", "split", "defaultDomain", "rename", "drop", "keep", "payload", "untyped",
  ]

  /// The keys that find the events of a line, which the map of an event in a string has not.
  static let outerOnlyKeys = [
    "inner", "innerFormat", "events", "inherit", "decode", "document", "emit", "ignoreLines",
    "skipTo",
  ]

  /// The keys of an entry of `emit`.
  static let emitKeys = ["type", "payload", "fields"]

  /// The file's text, for the places of problems.
  let bytes: [UInt8]
  /// Where the map being read is in the file: `innerFormat` for the map of a Kafka message's
  /// event, empty for the file's own.
  let pathPrefix: String
  /// The mistakes found so far.
  private(set) var problems: [RaspSpecProblem] = []

  init(bytes: [UInt8], pathPrefix: String = "") {
    self.bytes = bytes
    self.pathPrefix = pathPrefix
  }

  /// A problem at a byte offset of the file.
  func problem(at offset: Int, path: String?, _ reason: String) -> RaspSpecProblem {
    let place = JSONTextPosition(offset: offset, in: bytes)
    var fullPath = path
    if !pathPrefix.isEmpty { fullPath = path.map { pathPrefix + "." + $0 } ?? pathPrefix }
    return RaspSpecProblem(
      offset: offset, line: place.line, column: place.column, path: fullPath, reason: reason)
  }

  private mutating func fail(_ node: JSONNode, _ path: String, _ reason: String) {
    problems.append(problem(at: node.offset, path: path, reason))
  }

  /// The format a map file's root describes.
  ///
  /// - Throws: ``RaspDomains/RaspSpecError`` with every problem, in document order.
  mutating func read(_ root: JSONNode, defaultName: String, text: String)
    throws(RaspSpecError) -> LogFormat
  {
    guard let members = root.members else {
      throw RaspSpecError(
        problems: [problem(at: root.offset, path: nil, "expected an object, found \(root.phrase)")])
    }
    var values: [String: JSONNode] = [:]
    for member in members {
      guard Self.keys.contains(member.key) else {
        var reason = "unknown key '\(JSONError.abbreviated(member.key))'"
        if let near = RaspSpelling.nearest(to: member.key, among: Self.keys) {
          reason += ". Did you mean '\(near)'?"
        } else {
          reason += ": a map file has \(Self.keys.map { "'\($0)'" }.joined(separator: ", "))"
        }
        problems.append(problem(at: member.keyOffset, path: member.key, reason))
        continue
      }
      values[member.key] = member.value
    }
    let name = string(values["format"], "format") ?? defaultName
    if let node = values["format"], name.isEmpty || name.contains(where: { $0 == " " }) {
      fail(node, "format", "a format's name is one word, such as 'fsa'")
    }
    let summary = string(values["summary"], "summary") ?? "Read with the map file '\(name)'."
    var type = TypeTemplate.default
    if let node = values["type"], let text = string(node, "type") {
      do {
        type = try TypeTemplate(text)
      } catch {
        fail(node, "type", "\(error)")
      }
    }
    let separator = string(values["separator"], "separator") ?? "."
    if let node = values["separator"], separator.isEmpty {
      fail(node, "separator", "the separator is empty: use '.', '/' or another text")
    }
    let split = choice(values["split"], "split", default: LogFormat.Split.first)
    let defaultDomain = string(values["defaultDomain"], "defaultDomain")
    if let node = values["defaultDomain"], let domain = defaultDomain,
      domain.isEmpty || domain.contains(separator.first ?? ".")
    {
      fail(node, "defaultDomain", "'\(domain)' is not a domain name")
    }
    let renames = readRenames(values["rename"])
    let drops = strings(values["drop"], "drop").map(TypeGlob.init)
    let payload = paths(values["payload"], "payload") ?? [JSONPath(components: [.key("payload")])]
    let time = paths(values["time"], "time") ?? []
    let problemsBeforeTimeUnit = problems.count
    let timeUnit = choice(values["timeUnit"], "timeUnit", default: LogFormat.TimeUnit.auto)
    if let node = values["timeUnit"], values["time"] == nil,
      problems.count == problemsBeforeTimeUnit
    {
      // Without a time, the unit reads nothing: every event would have no time, and a range
      // by time would select nothing, or all.
      fail(
        node, "timeUnit",
        "'timeUnit' says how the time is written, and the map has no 'time' to read it in: "
          + "give it one, such as \"time\": \"ts\"")
    }
    let source = paths(values["source"], "source") ?? []
    let untyped = choice(values["untyped"], "untyped", default: Untyped.error)
    // The map of an event in a string has none of the keys that find events in a line, which
    // ``innerMap(_:)`` refuses.
    if !pathPrefix.isEmpty {
      for key in Self.outerOnlyKeys { values[key] = nil }
    }
    var events: EventsPath?
    if let node = values["events"], let text = string(node, "events") {
      do {
        events = try EventsPath(text)
      } catch {
        fail(node, "events", "\(error)")
      }
    }
    let inherited = strings(values["inherit"], "inherit")
    if let node = values["inherit"], values["events"] == nil {
      fail(
        node, "inherit",
        "'inherit' gives the members of 'events' fields of their line: give the "
          + "map an 'events'")
    }
    var decoding: LogFormat.Decoding?
    if let node = values["decode"], string(node, "decode") != nil {
      decoding = choice(node, "decode", default: LogFormat.Decoding.otlp)
      if values["events"] == nil {
        fail(node, "decode", "'decode' reads the members of 'events': give the map an 'events'")
      }
    }
    let fieldMoves = readFieldMoves(values["fields"])
    let inner = readInner(values, events: events)
    var document: LogFormat.Document?
    if let node = values["document"], string(node, "document") != nil {
      document = choice(node, "document", default: LogFormat.Document.devtools)
    }
    let (keptTypes, keptFields) = readKeep(values["keep"])
    if let node = values["keep"], values["drop"] != nil, !keptTypes.isEmpty {
      fail(node, "keep", "a map has 'keep' or 'drop' as lists of types, not both")
    }
    var ignoredLines: [TypeGlob] = []
    if let node = values["ignoreLines"] {
      ignoredLines = strings(node, "ignoreLines").map(TypeGlob.init)
      if ignoredLines.contains(where: { $0.matches("{") || $0.matches("[") }) {
        fail(node, "ignoreLines", "a pattern of 'ignoreLines' matches lines that start JSON")
      }
    }
    var skipTo: UInt8?
    if let node = values["skipTo"], let text = string(node, "skipTo") {
      if text == "{" || text == "[" {
        skipTo = text.utf8.first
      } else {
        fail(node, "skipTo", "unknown value '\(JSONError.abbreviated(text))': use '{' or '['")
      }
    }
    for key in ["events", "inner", "document", "decode"] {
      guard let node = values[key] else { continue }
      for other in ["emit", "skipTo"] where values[other] != nil {
        fail(node, key, "a map has '\(other)' or '\(key)', not both")
      }
    }
    let emitted = LogFormat(
      name: name, summary: summary, text: text, type: type, separator: Array(separator.utf8),
      split: split, defaultDomain: defaultDomain, renames: renames, drops: drops,
      payload: payload, time: time, timeUnit: timeUnit, source: source,
      dropsUntyped: untyped == .drop, fieldMoves: fieldMoves, keptTypes: keptTypes,
      keptFields: keptFields, ignoredLines: ignoredLines, skipTo: skipTo)
    var emits: [LogFormat] = []
    if let node = values["emit"] {
      if let typeNode = values["type"] {
        fail(typeNode, "type", "each entry of 'emit' has its own 'type': leave it out here")
      }
      emits = readEmits(node, of: emitted)
    }
    guard problems.isEmpty else {
      throw RaspSpecError(problems: problems.sorted { $0.offset < $1.offset })
    }
    return LogFormat(
      name: name, summary: summary, text: text, type: type, separator: Array(separator.utf8),
      split: split, defaultDomain: defaultDomain, renames: renames, drops: drops,
      payload: payload, time: time, timeUnit: timeUnit, source: source,
      dropsUntyped: untyped == .drop, events: events, inherited: inherited, decoding: decoding,
      inner: inner,
      fieldMoves: fieldMoves, document: document, keptTypes: keptTypes, keptFields: keptFields,
      emits: emits, ignoredLines: ignoredLines, skipTo: skipTo)
  }

  /// `keep`: a list of types, as `drop` has them, or an object of field paths and the value
  /// (or the values, in an array) each must have: `{"class": "TPV"}`.
  private mutating func readKeep(_ node: JSONNode?)
    -> ([TypeGlob], [(path: JSONPath, values: [JSONValue])])
  {
    guard let node else { return ([], []) }
    switch node.content {
    case .array:
      return (strings(node, "keep").map(TypeGlob.init), [])
    case .object(let members):
      var tests: [(path: JSONPath, values: [JSONValue])] = []
      for member in members {
        let path = "keep." + member.key
        guard let paths = try? FieldPaths.alternatives(member.key), paths.count == 1 else {
          problems.append(
            problem(
              at: member.keyOffset, path: path,
              "'\(JSONError.abbreviated(member.key))' is not one field path"))
          continue
        }
        var values: [JSONValue] = []
        if case .array(let elements) = member.value.content {
          values = elements.map(\.json)
          if values.isEmpty { fail(member.value, path, "an empty list keeps no line") }
        } else {
          values = [member.value.json]
        }
        tests.append((paths[0], values))
      }
      if tests.isEmpty, members.isEmpty {
        fail(node, "keep", "an empty test: give it a field, such as {\"class\": \"TPV\"}")
      }
      return ([], tests)
    default:
      fail(
        node, "keep",
        "expected an array of types or an object of fields and values, found \(node.phrase)")
      return ([], [])
    }
  }

  /// `emit`: the events of each line, `[{"type": "geo.location", "fields": […]}, …]`, each
  /// read with `base` but for its own type, payload and fields.
  private mutating func readEmits(_ node: JSONNode, of base: LogFormat) -> [LogFormat] {
    guard case .array(let elements) = node.content, !elements.isEmpty else {
      fail(
        node, "emit",
        "expected an array of events, such as [{\"type\": \"geo.location\"}], found "
          + (node.members == nil ? node.phrase : "an object"))
      return []
    }
    var emits: [LogFormat] = []
    for (index, element) in elements.enumerated() {
      let path = "emit[\(index)]"
      guard let members = element.members else {
        fail(element, path, "expected {\"type\": …}, found \(element.phrase)")
        continue
      }
      var type: TypeTemplate?
      var payload: [JSONPath]?
      var moves: PayloadFieldMoves?
      for member in members {
        switch member.key {
        case "type":
          guard let text = string(member.value, path + ".type") else { continue }
          do {
            type = try TypeTemplate(text)
          } catch {
            fail(member.value, path + ".type", "\(error)")
          }
        case "payload": payload = paths(member.value, path + ".payload")
        case "fields": moves = readFieldMoves(member.value, path: path + ".fields")
        default:
          var reason = "unknown key '\(JSONError.abbreviated(member.key))'"
          if let near = RaspSpelling.nearest(to: member.key, among: Self.emitKeys) {
            reason += ". Did you mean '\(near)'?"
          } else {
            reason += ": an event of 'emit' has 'type', 'payload' and 'fields'"
          }
          problems.append(problem(at: member.keyOffset, path: path + "." + member.key, reason))
        }
      }
      guard let type else {
        if !members.contains(where: { $0.key == "type" }) {
          fail(element, path, "an event of 'emit' needs its 'type', such as \"geo.location\"")
        }
        continue
      }
      emits.append(base.emitting(type: type, payload: payload, fieldMoves: moves))
    }
    return emits
  }

  /// The map's `inner` and `innerFormat`: the string that holds the event, and the event's
  /// format, a preset's name or a map of its own, read here with the same checks.
  private mutating func readInner(_ values: [String: JSONNode], events: EventsPath?)
    -> InnerEvents?
  {
    guard let node = values["inner"] else {
      if let node = values["innerFormat"] {
        fail(node, "innerFormat", "'innerFormat' is the format of 'inner': give the map an 'inner'")
      }
      return nil
    }
    guard let paths = paths(node, "inner") else { return nil }
    if paths.count > 1 { fail(node, "inner", "'inner' is one field, without alternatives") }
    if events != nil { fail(node, "inner", "a map has 'inner' or 'events', not both") }
    for key in Self.eventKeys {
      guard let value = values[key] else { continue }
      fail(
        value, key,
        "'\(key)' says how the event inside '\(paths[0])' is written: put it in the map of "
          + "'innerFormat' (\"innerFormat\": {\"\(key)\": …})")
    }
    var format = LogFormat.rasp
    if let formatNode = values["innerFormat"] {
      switch formatNode.content {
      case .string(let name):
        format = innerPreset(named: name, at: formatNode) ?? format
      case .object:
        format = innerMap(formatNode) ?? format
        if format.fieldMoves != nil, let fields = values["fields"] {
          fail(fields, "fields", "'fields' is given twice: here and in 'innerFormat'")
        }
      default:
        fail(
          formatNode, "innerFormat",
          "expected a format's name or a map, found \(formatNode.phrase)")
      }
    }
    return InnerEvents(path: paths[0], format: format)
  }

  /// A preset named as an inner format: any but `otel`, whose events are not one a line.
  private mutating func innerPreset(named name: String, at node: JSONNode) -> LogFormat? {
    let names = LogFormat.presetNames.filter { $0 != "otel" }
    if name == "otel" {
      fail(
        node, "innerFormat",
        "'otel' is not an inner format: an OTLP request holds many log records, not one event")
      return nil
    }
    guard names.contains(name) else {
      var reason = "unknown format '\(JSONError.abbreviated(name))'"
      if let near = RaspSpelling.nearest(to: name, among: names) {
        reason += ". Did you mean '\(near)'?"
      } else {
        reason +=
          ": an inner format is one of \(names.map { "'\($0)'" }.joined(separator: ", ")), "
          + "or a map"
      }
      fail(node, "innerFormat", reason)
      return nil
    }
    // Read from its text, not from the list of presets, which may be being made.
    guard name != "rasp", let preset = Preset.all.first(where: { $0.name == name }) else {
      return .rasp
    }
    return try? LogFormat(mapFile: Array(preset.text.utf8), name: name)
  }

  /// A map written in the map as the inner format, checked as a map file is.
  private mutating func innerMap(_ node: JSONNode) -> LogFormat? {
    var reader = LogFormatReader(bytes: bytes, pathPrefix: "innerFormat")
    for member in node.members ?? [] where Self.outerOnlyKeys.contains(member.key) {
      reader.problems.append(
        reader.problem(
          at: member.keyOffset, path: member.key,
          "'\(member.key)' cannot be used inside 'innerFormat': the event in the string is "
            + "one event in plain JSON"))
    }
    do {
      return try reader.read(node, defaultName: "inner", text: "")
    } catch {
      problems += error.problems
      return nil
    }
  }

  /// A string value, or `nil` (with a problem) when it is something else.
  private mutating func string(_ node: JSONNode?, _ path: String) -> String? {
    guard let node else { return nil }
    guard case .string(let text) = node.content else {
      fail(node, path, "expected a string, found \(node.phrase)")
      return nil
    }
    return text
  }

  /// An array of strings.
  private mutating func strings(_ node: JSONNode?, _ path: String) -> [String] {
    guard let node else { return [] }
    guard case .array(let elements) = node.content else {
      fail(node, path, "expected an array of strings, found \(node.phrase)")
      return []
    }
    return elements.enumerated().compactMap { index, element in
      string(element, "\(path)[\(index)]")
    }
  }

  /// One of a set of words.
  private mutating func choice<Choice: RawRepresentable & CaseIterable>(
    _ node: JSONNode?, _ path: String, default fallback: Choice
  ) -> Choice where Choice.RawValue == String {
    guard let node, let text = string(node, path) else { return fallback }
    if let value = Choice(rawValue: text) { return value }
    let words = Choice.allCases.map(\.rawValue)
    var reason = "unknown value '\(JSONError.abbreviated(text))'"
    if let near = RaspSpelling.nearest(to: text, among: words) {
      reason += ". Did you mean '\(near)'?"
    } else {
      let quoted = words.map { "'\($0)'" }
      reason +=
        quoted.count == 1
        ? ": use \(quoted[0])"
        : ": use \(quoted.dropLast().joined(separator: ", ")) or \(quoted[quoted.count - 1])"
    }
    fail(node, path, reason)
    return fallback
  }

  /// Field paths with alternatives: `properties|traits`.
  private mutating func paths(_ node: JSONNode?, _ path: String) -> [JSONPath]? {
    guard let node, let text = string(node, path) else { return nil }
    do {
      return try FieldPaths.alternatives(text)
    } catch {
      fail(node, path, "\(error)")
      return nil
    }
  }

  /// `[{"from": "latitudeE7", "to": "latitude", "scale": 1e-7}]`.
  private mutating func readFieldMoves(_ node: JSONNode?, path fieldsPath: String = "fields")
    -> PayloadFieldMoves?
  {
    guard let node else { return nil }
    guard case .array(let elements) = node.content else {
      fail(
        node, fieldsPath, "expected an array of {\"from\": …, \"to\": …}, found \(node.phrase)")
      return nil
    }
    var moves: [PayloadFieldMoves.Move] = []
    for (index, element) in elements.enumerated() {
      let path = "\(fieldsPath)[\(index)]"
      guard let members = element.members else {
        fail(element, path, "expected {\"from\": …, \"to\": …}, found \(element.phrase)")
        continue
      }
      var from: String?
      var to: String?
      var scale: Double?
      var hasScale = false
      var skipsWhenAbsent = false
      var skipValue: JSONValue?
      var hasTest = false
      for member in members {
        switch member.key {
        case "from": from = string(member.value, path + ".from")
        case "to": to = string(member.value, path + ".to")
        case "absentIs":
          hasTest = true
          skipsWhenAbsent =
            choice(member.value, path + ".absentIs", default: Absent.missing) == .skip
        case "skipIf":
          hasTest = true
          skipValue = member.value.json
        case "scale":
          hasScale = true
          if case .number(let number) = member.value.content, case let value = number.doubleValue,
            value.isFinite, value != 0
          {
            scale = value
          } else {
            fail(member.value, path + ".scale", "expected a number other than 0, such as 1e-7")
          }
        default:
          problems.append(
            problem(
              at: member.keyOffset, path: path + "." + member.key,
              "unknown key '\(JSONError.abbreviated(member.key))': a field has 'from', 'to', "
                + "'scale', 'absentIs' and 'skipIf'"))
        }
      }
      let tests = skipsWhenAbsent || skipValue != nil
      guard let from, to != nil || hasScale || hasTest else {
        fail(element, path, "a field needs 'from', and 'to', 'scale', 'absentIs' or 'skipIf'")
        continue
      }
      // A scale that is wrong was reported already.
      guard to != nil || scale != nil || tests else { continue }
      if moves.contains(where: { $0.from == from }) {
        fail(element, path, "'\(JSONError.abbreviated(from))' is moved twice")
      }
      if tests, moves.count >= 64 {
        fail(element, path, "a map tests at most 64 fields with 'absentIs' or 'skipIf'")
      }
      var move = PayloadFieldMoves.Move(from: from, to: to ?? from, scale: scale)
      move.skipsWhenAbsent = skipsWhenAbsent
      move.skipValue = skipValue
      moves.append(move)
    }
    return moves.isEmpty ? nil : PayloadFieldMoves(moves)
  }

  /// `[{"from": "com.example.*", "to": "app.*"}]`.
  private mutating func readRenames(_ node: JSONNode?) -> [(from: TypeGlob, to: String)] {
    guard let node else { return [] }
    guard case .array(let elements) = node.content else {
      fail(node, "rename", "expected an array of {\"from\": …, \"to\": …}, found \(node.phrase)")
      return []
    }
    var renames: [(from: TypeGlob, to: String)] = []
    for (index, element) in elements.enumerated() {
      let path = "rename[\(index)]"
      guard let members = element.members else {
        fail(element, path, "expected {\"from\": …, \"to\": …}, found \(element.phrase)")
        continue
      }
      var from: String?
      var to: String?
      for member in members {
        switch member.key {
        case "from": from = string(member.value, path + ".from")
        case "to": to = string(member.value, path + ".to")
        default:
          problems.append(
            problem(
              at: member.keyOffset, path: path + "." + member.key,
              "unknown key '\(JSONError.abbreviated(member.key))': a rename has 'from' and 'to'"))
        }
      }
      guard let from, let to else {
        fail(element, path, "a rename needs both 'from' and 'to'")
        continue
      }
      let glob = TypeGlob(from)
      if TypeGlob(to).starCount > glob.starCount {
        fail(
          element, path,
          "'\(JSONError.abbreviated(to))' has more '*' than '\(JSONError.abbreviated(from))': "
            + "each '*' of 'to' stands for the text of a '*' of 'from'")
        continue
      }
      renames.append((glob, to))
    }
    return renames
  }
}

extension TypeTemplate {
  /// `{type}`: the line's `type` field, as rasp's own lines have it.
  static var `default`: TypeTemplate {
    TypeTemplate(parts: [.field([JSONPath(components: [.key("type")])])])
  }

  init(parts: [Part]) {
    self.parts = parts
  }
}
