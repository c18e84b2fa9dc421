import RaspJSON

/// A Redux DevTools export, read as a log: one line of JSON for each action it replays, in
/// order, and for each line the place of its action in the export (`--log-format devtools`).
///
/// An export is one JSON document, often pretty-printed over many lines, in one of three
/// shapes (see `fixtures/devtools/FORMAT.md`):
/// - the *lifted state*, `{"actionsById": {…}, "stagedActionIds": […], "skippedActionIds":
///   […], "computedStates": […], …}`: the actions of `stagedActionIds`, in that order, each
///   `{"type": "PERFORM_ACTION", "action": {…}, "timestamp": ms}`; the skipped ones are left
///   out, and counted (``skippedCount``);
/// - the extension's default export, `{"payload": "<JSON text of an array of actions>",
///   "preloadedState": "<JSON text>"}`;
/// - a lifted state wrapped the same way, `{"payload": "<JSON text of a lifted state>", …}`, as
///   `@redux-devtools/remote` sends it and DevTools' `importState` reads it: read as the lifted
///   state, whose `committedState` is the start (a `preloadedState` beside it is ignored, as
///   DevTools ignores it);
/// - a bare array of actions.
///
/// Each line is the action itself, with the entry's `timestamp` put in its `meta.timestamp`,
/// where the `fsa` format reads an action's time: `{"type": "todos/todoAdded", "payload":
/// "Buy milk", "meta": {"timestamp": 1764061200250}}`. An action (or an entry, or `payload`)
/// written as a string holding JSON is read from that string. An action that cannot be
/// read becomes a line no format reads, `0`, and its ``Line/problem`` says why: the replay
/// then reports it as a bad line, in order, and `--on-error` decides.
///
/// ```swift
/// let export = try DevToolsExport(bytes: Array(text.utf8))
/// let input = ReplayInput(name: "session.json", source: .memory(JSONMemorySource(export.lines)))
/// export.places[0].path   // "actionsById[\"0\"].action"
/// ```
public struct DevToolsExport {
  /// Where a line's action is in the export, and why it could not be read, if it could not.
  public struct Line: Sendable, Equatable {
    /// The action's JSON path in the export: `actionsById["3"].action`, `payload[2]`, `[0]`.
    public let path: String
    /// The byte offset in the export of the action, or of the string that holds it.
    public let offset: Int
    /// Why the action could not be read, or `nil`.
    public let problem: String?
    /// The action's `type`, when it is a string.
    public var type: String? = nil
    /// The byte offset of the action in the JSON text of `payload`, when the export holds its
    /// actions or its lifted state as a string (``offset`` is then the string's); `nil`
    /// otherwise. ``DevToolsExport/positionInPayload(of:)`` gives its line and column there.
    public var payloadOffset: Int? = nil
    /// The entry's `timestamp`, which the line has in its `meta.timestamp` (a lifted state's
    /// action only).
    public var timestamp: Int64? = nil
  }

  /// A state the app recorded: an entry of the lifted state's `computedStates`, the state after
  /// the staged action at the same position.
  ///
  /// ```swift
  /// let recorded = export.recordedState(afterLine: 2)
  /// recorded?.path    // "computedStates[1].state"
  /// recorded?.state   // {"todos": […]}
  /// ```
  public struct RecordedState: Sendable {
    /// The action's position in `stagedActionIds`: its number in DevTools' list, where 0 is
    /// `@@INIT`.
    public let index: Int
    /// The state after the action.
    public let state: JSONValue
    /// What the app's reducer threw for the action, when it threw: the state is then the one
    /// before it.
    public let error: String?
    /// The byte offset of the state in the export.
    public let offset: Int
    /// The state's JSON path in the export: `computedStates[3].state`, or
    /// `payload.computedStates[3].state` in a lifted state that `payload` holds.
    public let path: String
  }

  /// The shapes an export has.
  public enum Shape: String, Sendable {
    /// The DevTools' lifted state: `actionsById`, `stagedActionIds`, `computedStates`, …, the
    /// export itself or the JSON text of its `payload`.
    case liftedState
    /// The extension's default export: `payload` (and `preloadedState`), JSON text.
    case payload
    /// An array of actions.
    case actions
  }

  /// The export's shape.
  ///
  /// ```swift
  /// try DevToolsExport(bytes: Array("[]".utf8)).shape   // .actions
  /// ```
  public let shape: Shape
  /// The JSON lines, each ending in a line feed: one per staged action, `@@INIT` among them,
  /// skipped ones left out.
  ///
  /// ```swift
  /// String(decoding: export.lines, as: UTF8.self)   // {"type":"@@INIT",…}\n…
  /// ```
  public private(set) var lines: [UInt8] = []
  /// For each line, in order, where its action is.
  ///
  /// ```swift
  /// export.places[2].path   // "actionsById[\"2\"].action"
  /// ```
  public private(set) var places: [Line] = []
  /// How many staged actions `skippedActionIds` skips: they are not replayed.
  ///
  /// ```swift
  /// export.skippedCount   // 1
  /// ```
  public var skippedCount: Int { skippedPlaces.count }
  /// For each skipped action, how many lines come before it.
  private var skippedPlaces: [Int] = []
  /// The lifted state's `computedStates`, one per staged action, when it has them.
  private var computedStates: [JSONNode]?
  /// The `computedStates` member's value, for messages, or `nil` when there is none.
  private var computedStatesNode: JSONNode?
  /// The document's root: what the `$jsan` references of a serialized export count from.
  private let documentRoot: JSONNode
  /// The root of `computedStates` when it was written as a string of JSON, whose references
  /// count from there.
  private var statesRoot: JSONNode?
  /// The offset of the document's root, for messages about what it lacks.
  private var rootOffset: Int { documentRoot.offset }
  /// How many ids `stagedActionIds` lists.
  private var stagedCount = 0
  /// The app's state before the export's first action: the lifted state's `committedState`,
  /// or the default export's `preloadedState`; `nil` when the export has neither.
  ///
  /// DevTools commits the oldest actions when there are more than its `maxAge` (50 by
  /// default): they leave the export, and this is the state they left. A replay of the export
  /// starts its spec domains from it.
  ///
  /// ```swift
  /// export.startState   // {"todos": […], "filters": {…}}
  /// ```
  public private(set) var startState: JSONValue?
  /// For each line, its index in `stagedActionIds` (a lifted state only).
  private(set) var stagedIndices: [Int] = []

  /// Reads an export.
  ///
  /// ```swift
  /// let export = try DevToolsExport(bytes: try environment.readFile("session.json"))
  /// ```
  ///
  /// - Parameter bytes: The export's text.
  /// - Throws: ``DevToolsExportError`` when the text is not JSON or not an export; a bad
  ///   action is a ``Line/problem`` instead.
  /// - Complexity: O(*n*) in the export's size.
  public init(bytes: [UInt8]) throws(DevToolsExportError) {
    let root: JSONNode
    do {
      // An export `rasp replay --emit devtools` wrote holds each event a few levels deeper
      // than its line did.
      root = try JSONNode.read(file: bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
    } catch {
      throw DevToolsExportError(offset: error.offset, path: nil, reason: error.reason.description)
    }
    documentRoot = root
    if case .array(let actions) = root.content {
      shape = .actions
      for (index, action) in actions.enumerated() {
        add(action, path: "[\(index)]", timestamp: nil, root: root)
      }
      return
    }
    guard let members = root.members else {
      throw DevToolsExportError(
        offset: root.offset, path: nil,
        reason: "not a Redux DevTools export: expected an object or an array, found "
          + root.phrase)
    }
    let fields = Self.fields(members)
    if let payload = fields["payload"] {
      // What `importState` reads from the string: an array of actions (the extension's
      // Export), or a whole lifted state (`@redux-devtools/remote`'s `STATE` message).
      let inner = try Self.unwrap(payload, path: "payload")
      if case .string(let text) = payload.content { payloadText = Array(text.utf8) }
      if let liftedMembers = inner.members {
        shape = .liftedState
        wrapper = WrappedLiftedState(
          root: inner, offset: inner.offset == payload.offset ? nil : payload.offset)
        try readLifted(Self.fields(liftedMembers), root: inner)
      } else {
        shape = .payload
        try readPayload(payload, list: inner, preloadedState: fields["preloadedState"])
      }
    } else if fields["actionsById"] != nil {
      shape = .liftedState
      try readLifted(fields, root: root)
    } else {
      throw DevToolsExportError(
        offset: root.offset, path: nil,
        reason: "not a Redux DevTools export: no 'actionsById' or 'payload' at the top level, "
          + "and not an array of actions")
    }
  }

  /// How many skipped actions come before the line after `count` lines: those a replay that
  /// stopped after reading `count` lines passed.
  ///
  /// ```swift
  /// export.skippedCount(withinLines: 3)   // 1, when the second action was skipped
  /// ```
  ///
  /// - Parameter count: How many lines were read.
  /// - Returns: The skipped actions among them.
  public func skippedCount(withinLines count: Int) -> Int {
    skippedPlaces.prefix { $0 < count }.count
  }

  /// Checks that the export records a state after each of its staged actions, so that
  /// ``recordedState(afterLine:)`` has one for every line: `rasp check` against the export.
  ///
  /// ```swift
  /// try export.checkRecordedStates()
  /// ```
  ///
  /// - Throws: ``DevToolsExportError`` when the export is not a lifted state (the extension's
  ///   default Export records only actions), has no `computedStates`, has fewer than
  ///   `stagedActionIds`, or one that is not an object with a `state`.
  public func checkRecordedStates() throws(DevToolsExportError) {
    guard shape == .liftedState else {
      throw DevToolsExportError(
        offset: rootOffset, path: nil,
        reason: "the export records no states, only actions: it is "
          + (shape == .payload ? "the extension's default Export ('payload')" : "an array")
          + "; export DevTools' lifted state instead (see docs/devtools.md)")
    }
    guard let node = computedStatesNode else {
      throw DevToolsExportError(
        offset: rootOffset, path: nil,
        reason: "the lifted state has no 'computedStates': there are no recorded states to "
          + "check against")
    }
    guard let states = computedStates else {
      throw failure(
        at: node, path: path("computedStates"),
        reason: "'computedStates' must be an array of states, found \(node.phrase)")
    }
    guard states.count >= stagedCount else {
      throw failure(
        at: node, path: path("computedStates"),
        reason: "\(states.count) recorded \(states.count == 1 ? "state" : "states") for "
          + "\(stagedCount) staged actions: each action of 'stagedActionIds' needs the state "
          + "after it")
    }
    for (index, entry) in states.prefix(stagedCount).enumerated() {
      guard let members = entry.members else {
        throw failure(
          at: entry, path: path("computedStates[\(index)]"),
          reason: "a recorded state must be an object with a 'state', found \(entry.phrase)")
      }
      guard let state = members.first(where: { $0.key == "state" })?.value else {
        throw failure(
          at: entry, path: path("computedStates[\(index)]"),
          reason: "the recorded state has no 'state'")
      }
      _ = try decodedState(state, path: "computedStates[\(index)].state")
    }
  }

  /// Where a line's action is in the JSON text of `payload`, when the export holds its
  /// actions or its lifted state as a string: the place in the string, which the line's
  /// ``Line/offset`` (the string's own place in the export) cannot say.
  ///
  /// ```swift
  /// export.positionInPayload(of: export.places[2])?.description   // "1:418"
  /// ```
  ///
  /// - Parameter line: A line of ``places``.
  /// - Returns: Its line and column in the string, or `nil` when it is not read from one.
  /// - Complexity: O(*n*) in the string's length.
  public func positionInPayload(of line: Line) -> JSONTextPosition? {
    guard let offset = line.payloadOffset, let text = payloadText else { return nil }
    return JSONTextPosition(offset: offset, in: text)
  }

  /// The state the app recorded after the action of a line: `nil` when the export has none
  /// for it (see ``checkRecordedStates()``).
  ///
  /// ```swift
  /// export.recordedState(afterLine: 1)?.state   // {"todos": []}
  /// ```
  ///
  /// - Parameter line: The line, counting from 1.
  /// - Returns: The entry of `computedStates` at the action's place in `stagedActionIds`.
  public func recordedState(afterLine line: Int) -> RecordedState? {
    guard let states = computedStates, line >= 1, line <= stagedIndices.count else { return nil }
    let index = stagedIndices[line - 1]
    guard index < states.count, let entry = states[index].members,
      let state = entry.first(where: { $0.key == "state" })
    else { return nil }
    var error: String?
    if case .string(let text)? = entry.first(where: { $0.key == "error" })?.value.content {
      error = text
    }
    let value =
      (try? decodedState(state.value, path: "computedStates[\(index)].state")) ?? state.value.json
    return RecordedState(
      index: index, state: value, error: error, offset: place(state.value),
      path: path("computedStates[\(index)].state"))
  }

  /// Reads Shape A: `payload`, a string holding an array of actions (`list`, read from it).
  private mutating func readPayload(
    _ payload: JSONNode, list: JSONNode, preloadedState: JSONNode?
  ) throws(DevToolsExportError) {
    if let state = preloadedState, case .string = state.content {
      let value = try Self.unwrap(state, path: "preloadedState")
      startState = try Self.decodingJSAN(value, root: value, path: "preloadedState").json
    }
    guard case .array(let actions) = list.content else {
      throw DevToolsExportError(
        offset: payload.offset, path: "payload",
        reason: "'payload' must hold an array of actions or a lifted state, found "
          + list.phrase)
    }
    for (index, action) in actions.enumerated() {
      // Actions inside a string have offsets in the string: point at the string.
      let isInString = list.offset != payload.offset
      add(
        action, path: "payload[\(index)]", timestamp: nil, root: list,
        offset: isInString ? payload.offset : action.offset,
        payloadOffset: isInString ? action.offset : nil)
    }
  }

  /// Reads a lifted state, the document's or the one its `payload` holds: its recorded
  /// states, its start state, its actions.
  private mutating func readLifted(_ fields: [String: JSONNode], root: JSONNode)
    throws(DevToolsExportError)
  {
    do {
      try readLiftedParts(fields, root: root)
    } catch {
      // Whatever is wrong inside a string is reported at the string.
      guard let offset = wrapper?.offset else { throw error }
      throw DevToolsExportError(offset: offset, path: error.path, reason: error.reason)
    }
  }

  private mutating func readLiftedParts(_ fields: [String: JSONNode], root: JSONNode)
    throws(DevToolsExportError)
  {
    guard let actions = fields["actionsById"] else {
      throw failure(
        at: root, path: "payload",
        reason: "'payload' holds an object without 'actionsById': it must hold an array of "
          + "actions or a lifted state")
    }
    if let node = fields["computedStates"] {
      computedStatesNode = node
      if let states = try? Self.unwrap(node, path: path("computedStates")),
        case .array(let entries) = states.content
      {
        computedStates = entries
        if case .string = node.content { statesRoot = states }
      }
    }
    // A lifted state in `payload` starts where its `committedState` says: DevTools' import
    // ignores `preloadedState` beside it.
    if let node = fields["committedState"] {
      startState = try decodedState(node, path: "committedState")
    }
    try readLiftedState(actions, fields: fields, root: root)
  }

  /// Reads Shape B: the actions of `stagedActionIds`, less those of `skippedActionIds`.
  private mutating func readLiftedState(
    _ actionsNode: JSONNode, fields: [String: JSONNode], root: JSONNode
  ) throws(DevToolsExportError) {
    let actions = try unwrapped(actionsNode, path: path("actionsById"))
    guard let entries = actions.members else {
      throw failure(
        at: actionsNode, path: path("actionsById"),
        reason: "'actionsById' must be an object, found \(actions.phrase)")
    }
    guard let stagedNode = fields["stagedActionIds"] else {
      throw failure(
        at: root, path: wrapper == nil ? nil : "payload",
        reason: "a lifted state with 'actionsById' but no 'stagedActionIds': the order of "
          + "the actions is unknown")
    }
    guard case .array(let staged) = stagedNode.content else {
      throw failure(
        at: stagedNode, path: path("stagedActionIds"),
        reason: "'stagedActionIds' must be an array of ids, found \(stagedNode.phrase)")
    }
    stagedCount = staged.count
    var skipped: Set<Int64> = []
    if let node = fields["skippedActionIds"] {
      guard case .array(let ids) = node.content else {
        throw failure(
          at: node, path: path("skippedActionIds"),
          reason: "'skippedActionIds' must be an array of ids, found \(node.phrase)")
      }
      for id in ids {
        if case .number(let number) = id.content, let value = number.integerValue {
          skipped.insert(value)
        }
      }
    }
    let byID = Self.fields(entries)
    for (index, idNode) in staged.enumerated() {
      let idPath = path("stagedActionIds[\(index)]")
      guard case .number(let number) = idNode.content, let id = number.integerValue else {
        addProblem(
          "an action's id must be an integer, found \(idNode.phrase)", path: idPath,
          at: idNode, stagedIndex: index)
        continue
      }
      if skipped.contains(id) {
        skippedPlaces.append(places.count)
        continue
      }
      let key = String(id)
      let entryPath = path("actionsById[\"\(key)\"]")
      guard let entryNode = byID[key] else {
        addProblem(
          "no action with the id \(id) in 'actionsById'", path: idPath, at: idNode,
          stagedIndex: index)
        continue
      }
      let entry: JSONNode
      do {
        entry = try Self.unwrap(entryNode, path: entryPath)
      } catch {
        addProblem(
          error.reason, path: entryPath, at: entryNode, stagedIndex: index)
        continue
      }
      guard let members = entry.members else {
        addProblem(
          "an entry of 'actionsById' must be an object, found \(entry.phrase)", path: entryPath,
          at: entryNode, stagedIndex: index)
        continue
      }
      guard let action = members.first(where: { $0.key == "action" })?.value else {
        addProblem(
          "the entry has no 'action'", path: entryPath, at: entryNode, stagedIndex: index)
        continue
      }
      var timestamp: Int64?
      if case .number(let time)? = members.first(where: { $0.key == "timestamp" })?.value.content {
        timestamp = time.integerValue ?? Int64(exactly: time.doubleValue.rounded())
      }
      let node = entry.offset == entryNode.offset ? action : entryNode
      stagedIndices.append(index)
      // A `$jsan` reference counts from what was stringified: the entry, or the lifted state.
      let root = entry.offset == entryNode.offset ? liftedRoot : entry
      add(
        action, path: entryPath + ".action", timestamp: timestamp, root: root,
        offset: place(node), payloadOffset: payloadText == nil ? nil : node.offset)
    }
  }

  /// Adds the line of an action; `root` is the value its `$jsan` references count from.
  private mutating func add(
    _ node: JSONNode, path: String, timestamp: Int64?, root: JSONNode, offset: Int? = nil,
    payloadOffset: Int? = nil
  ) {
    let place = offset ?? node.offset
    var action: JSONNode
    do {
      action = try Self.unwrap(node, path: path)
      if case .string = node.content {
        action = try Self.decodingJSAN(action, root: action, path: path)
      } else {
        action = try Self.decodingJSAN(action, root: root, path: path)
      }
    } catch {
      addProblem(
        error.reason, path: path, offset: place, payloadOffset: payloadOffset, stagedIndex: nil)
      return
    }
    var writer = JSONWriter(capacity: 128)
    if let members = action.members {
      writer.writeRaw("{")
      var first = true
      var hasMeta = false
      for member in members {
        if !first { writer.writeRaw(",") }
        first = false
        writer.writeKey(member.key)
        if member.key == "meta", let timestamp, let meta = member.value.members {
          hasMeta = true
          writer.writeRaw("{")
          for field in meta where field.key != "timestamp" {
            writer.writeKey(field.key)
            writer.write(field.value.json)
            writer.writeRaw(",")
          }
          writer.writeRaw(#""timestamp":"#)
          writer.writeInteger(timestamp)
          writer.writeRaw("}")
        } else {
          if member.key == "meta" { hasMeta = true }
          writer.write(member.value.json)
        }
      }
      if let timestamp, !hasMeta {
        if !first { writer.writeRaw(",") }
        writer.writeRaw(#""meta":{"timestamp":"#)
        writer.writeInteger(timestamp)
        writer.writeRaw("}")
      }
      writer.writeRaw("}")
    } else {
      // Not an object: the format reports it, at this place.
      writer.write(action.json)
    }
    writer.writeRaw("\n")
    lines.append(contentsOf: writer.bytes)
    var type: String?
    if case .string(let text)? = action.members?.first(where: { $0.key == "type" })?.value.content {
      type = text
    }
    places.append(
      Line(
        path: path, offset: place, problem: nil, type: type, payloadOffset: payloadOffset,
        timestamp: timestamp))
  }

  /// Adds a line that no format reads, `0`, for an action that could not be read.
  private mutating func addProblem(
    _ reason: String, path: String, offset: Int, payloadOffset: Int? = nil, stagedIndex: Int?
  ) {
    if let stagedIndex { stagedIndices.append(stagedIndex) }
    lines.append(contentsOf: "0\n".utf8)
    places.append(Line(path: path, offset: offset, problem: reason, payloadOffset: payloadOffset))
  }

  /// Adds a line that no format reads for an action of the lifted state that could not be
  /// read, at `node`.
  private mutating func addProblem(
    _ reason: String, path: String, at node: JSONNode, stagedIndex: Int
  ) {
    addProblem(
      reason, path: path, offset: place(node),
      payloadOffset: payloadText == nil ? nil : node.offset, stagedIndex: stagedIndex)
  }

  /// The error about `node` of the lifted state: at it, or at the string that holds it, then
  /// with its line and column in that string.
  private func failure(at node: JSONNode, path: String?, reason: String) -> DevToolsExportError {
    var reason = reason
    if payloadText != nil, wrapper != nil { reason += inPayload(node.offset) }
    return DevToolsExportError(offset: place(node), path: path, reason: reason)
  }

  /// ` (at 1:234 of the payload string)`: where an offset in the JSON text of `payload` is.
  private func inPayload(_ offset: Int) -> String {
    guard let text = payloadText else { return "" }
    return " (at \(JSONTextPosition(offset: offset, in: text)) of the payload string)"
  }

  /// ``unwrap(_:path:)`` of a node of the lifted state, its error at the string that holds it.
  private func unwrapped(_ node: JSONNode, path: String) throws(DevToolsExportError) -> JSONNode {
    do {
      return try Self.unwrap(node, path: path)
    } catch {
      throw failure(at: node, path: error.path, reason: error.reason)
    }
  }

  /// A node, or the JSON a string node holds, read.
  private static func unwrap(_ node: JSONNode, path: String) throws(DevToolsExportError)
    -> JSONNode
  {
    guard case .string(let text) = node.content else { return node }
    do {
      return try JSONNode.read(Array(text.utf8))
    } catch {
      throw DevToolsExportError(
        offset: node.offset, path: path, reason: innerReason(error, in: text))
    }
  }

  /// The reason a string holds no JSON, with the place in the string.
  private static func innerReason(_ error: JSONError, in text: String) -> String {
    let place = JSONTextPosition(offset: error.offset, in: Array(text.utf8))
    return "the string holds no JSON: \(error.reason) (at \(place) of the string)"
  }

  /// A value with its `$jsan` tags decoded (``JSANDecoding``), or the value itself when it has
  /// none.
  private static func decodingJSAN(_ node: JSONNode, root: JSONNode, path: String)
    throws(DevToolsExportError) -> JSONNode
  {
    guard JSANDecoding.isEncoded(node) else { return node }
    do {
      var writer = JSONWriter()
      writer.write(try JSANDecoding.decode(node, root: root) ?? .null)
      return try JSONNode.read(writer.bytes)
    } catch let failure as JSANDecoding.Failure {
      // The action's path names the line; the tag's own path goes in the reason.
      throw DevToolsExportError(
        offset: node.offset, path: path,
        reason: failure.path.isEmpty
          ? failure.reason : "\(failure.reason), at \(path)\(failure.path)")
    } catch {
      throw DevToolsExportError(offset: node.offset, path: path, reason: "\(error)")
    }
  }

  /// A recorded value with its `$jsan` tags decoded: a state, or `committedState`.
  private func decodedState(_ node: JSONNode, path: String) throws(DevToolsExportError)
    -> JSONValue
  {
    guard JSANDecoding.isEncoded(node) else { return node.json }
    do {
      return try JSANDecoding.decode(node, root: statesRoot ?? liftedRoot) ?? .null
    } catch {
      throw failure(
        at: node, path: self.path(path) + error.path, reason: error.reason)
    }
  }

  /// A lifted state that the export's `payload` holds, rather than the export itself.
  private struct WrappedLiftedState {
    /// The lifted state, read from the string.
    let root: JSONNode
    /// The offset of the string in the export, which every place inside it is reported at;
    /// `nil` when `payload` holds the lifted state as an object, not as JSON text.
    let offset: Int?
  }

  /// The lifted state that `payload` holds, or `nil` when the export is not such a wrapper.
  private var wrapper: WrappedLiftedState?
  /// The JSON text of `payload` when it is a string: what the places of the actions and the
  /// lifted state it holds count from.
  private var payloadText: [UInt8]?

  /// The lifted state the actions and states are read from: what their `$jsan` references
  /// count from.
  private var liftedRoot: JSONNode { wrapper?.root ?? documentRoot }

  /// Where a node of the lifted state is reported: at the string that holds it, when it is
  /// read from one.
  private func place(_ node: JSONNode) -> Int {
    wrapper?.offset ?? node.offset
  }

  /// The path of a member of the lifted state: under `payload` when the export wraps it.
  private func path(_ path: String) -> String {
    wrapper == nil ? path : "payload." + path
  }

  /// An object's members by key, the first of a key kept.
  private static func fields(_ members: [JSONNodeMember]) -> [String: JSONNode] {
    Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
  }
}

/// Why a file is not a Redux DevTools export that rasp reads: where, and what is wrong.
///
/// ```swift
/// do { _ = try DevToolsExport(bytes: bytes) } catch {
///   print("session.json:\(error.position(in: bytes)): error: \(error)")
/// }
/// ```
public struct DevToolsExportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The byte offset of the mistake in the export.
  public let offset: Int
  /// The JSON path of the value at fault, such as `payload`, or `nil` for the whole document.
  public let path: String?
  /// What is wrong.
  public let reason: String

  /// The mistake, with its path: `at payload: the string holds no JSON: …`.
  public var description: String { (path.map { "at \($0): " } ?? "") + reason }

  /// The line and column of the mistake in `bytes`, the export's text.
  ///
  /// ```swift
  /// error.position(in: bytes).description   // "3:14"
  /// ```
  ///
  /// - Parameter bytes: The export's text.
  /// - Returns: The position.
  public func position(in bytes: [UInt8]) -> JSONTextPosition {
    JSONTextPosition(offset: offset, in: bytes)
  }
}
