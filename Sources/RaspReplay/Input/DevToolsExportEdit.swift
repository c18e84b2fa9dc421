import RaspJSON

/// What to change in a Redux DevTools export: which of its lines' actions to keep, and what
/// some actions and recorded states become (``DevToolsExport/edited(_:_:)``).
///
/// ```swift
/// var edit = DevToolsExportEdit()
/// edit.keptLines = [0, 3, 7]
/// let shrunk = try export.edited(bytes, edit)
/// ```
public struct DevToolsExportEdit: Sendable {
  /// The lines whose actions are kept (positions in ``DevToolsExport/places``, ascending), or
  /// `nil` to keep every action.
  public var keptLines: [Int]?
  /// The new JSON text of actions, by their position in ``DevToolsExport/actions(in:)``.
  public var actions: [Int: [UInt8]] = [:]
  /// The new JSON text of recorded states, by their position in
  /// ``DevToolsExport/states(in:)``.
  public var states: [Int: [UInt8]] = [:]

  /// No change.
  public init() {}
}

extension DevToolsExport {
  /// An action of the export, as written: the text a policy reads.
  public struct Action: Sendable {
    /// The line that replays it (a position in ``places``), or `nil` for an action no line
    /// replays: a skipped one.
    public let line: Int?
    /// Its JSON text: as written in the export (or in the string that holds it), or, when it
    /// holds `$jsan` tags, decoded to plain JSON (``isDecoded``).
    public let text: [UInt8]
    /// Whether ``text`` is the action decoded, not as written.
    public let isDecoded: Bool
    /// The byte offset in the export of the action, or of the string that holds it.
    public let offset: Int
    /// Whether the action is written in a string (``offset`` is then the string's).
    public let isInString: Bool
    /// Its JSON path in the export.
    public let path: String
  }

  /// The states the export records, as written: `committedState`, each `computedStates`
  /// entry's `state`, and `preloadedState` (as ``Action`` values, whose ``Action/line`` is
  /// `nil`).
  ///
  /// ```swift
  /// export.states(in: bytes).map(\.path)   // ["committedState", "computedStates[0].state", …]
  /// ```
  ///
  /// - Parameter bytes: The export's text, as read.
  /// - Returns: The states; none when `bytes` is not the export's.
  public func states(in bytes: [UInt8]) -> [Action] {
    guard var layout = try? DevToolsExportLayout(self, bytes: bytes) else { return [] }
    return layout.stateTexts()
  }

  /// Every action of the export, in order: those of its lines, then the others of
  /// `actionsById` (skipped ones).
  ///
  /// ```swift
  /// export.actions(in: bytes).map(\.path)   // ["actionsById[\"0\"].action", …]
  /// ```
  ///
  /// - Parameter bytes: The export's text, as read.
  /// - Returns: The actions; none when `bytes` is not the export's.
  public func actions(in bytes: [UInt8]) -> [Action] {
    guard var layout = try? DevToolsExportLayout(self, bytes: bytes) else { return [] }
    return layout.actionTexts()
  }

  /// The export written anew with `edit` made: the same shape and encoding — the lifted state,
  /// `payload` JSON text, a bare array; `$jsan` tags as they were — and every part not changed
  /// copied byte for byte.
  ///
  /// Removing actions removes, from a lifted state, their `actionsById` entries, their ids
  /// from `stagedActionIds` and their entries of `computedStates` (each kept action keeps the
  /// state recorded after it); `skippedActionIds` becomes empty (skipped actions are no
  /// line: they go too), and `currentStateIndex` the last kept. A `$jsan` reference into what
  /// went is replaced by the value it led to.
  ///
  /// ```swift
  /// var edit = DevToolsExportEdit()
  /// edit.keptLines = [0, 2]
  /// let bytes = try export.edited(original, edit)
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The export's text, as read.
  ///   - edit: What to change.
  /// - Returns: The new export's text.
  /// - Throws: ``DevToolsExportError`` when a `$jsan` reference leads into itself.
  public func edited(_ bytes: [UInt8], _ edit: DevToolsExportEdit) throws(DevToolsExportError)
    -> [UInt8]
  {
    var layout = try DevToolsExportLayout(self, bytes: bytes)
    if let kept = edit.keptLines { layout.keep(lines: kept) }
    if !edit.actions.isEmpty {
      let actions = layout.actionNodes()
      for (position, text) in edit.actions where position < actions.count {
        layout.replace(actions[position], with: text)
      }
    }
    if !edit.states.isEmpty {
      let states = layout.stateNodes()
      for (position, text) in edit.states where position < states.count {
        layout.replace(states[position].located, with: text)
      }
    }
    return try layout.rewriter.write()
  }
}

/// Where the parts of an export are, in the rewriter's texts.
struct DevToolsExportLayout {
  var rewriter: DevToolsExportRewriter
  let export: DevToolsExport
  /// A node and the text it is in.
  typealias Located = (node: JSONNode, text: Int)
  /// The array of actions (a bare array, `payload`'s).
  private var list: Located?
  /// The lifted state's parts.
  private var lifted: [String: Located] = [:]
  /// The entries of `actionsById`, and the text they are in.
  private var entries: Located?
  private var computedStates: Located?
  private var preloadedState: Located?
  /// Whether the lifted state is the one `payload` holds.
  private var isWrapped = false
  /// The `actionsById` key of each action of ``actionNodes()``.
  private var actionKeys: [String] = []

  init(_ export: DevToolsExport, bytes: [UInt8]) throws(DevToolsExportError) {
    self.export = export
    let root: JSONNode
    do {
      root = try JSONNode.read(file: bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
    } catch {
      throw DevToolsExportError(offset: error.offset, path: nil, reason: error.reason.description)
    }
    rewriter = DevToolsExportRewriter(bytes: bytes, root: root)
    let fields = Self.fields(root)
    switch export.shape {
    case .actions:
      list = (root, 0)
    case .payload:
      if let payload = fields["payload"] {
        list = layer(payload, in: 0)
        // An array rather than a string: its references count from it all the same.
        if list?.text == 0 { rewriter.addScope(payload, in: 0) }
      }
      if let state = fields["preloadedState"] { preloadedState = layer(state, in: 0) }
    case .liftedState:
      var liftedRoot: Located = (root, 0)
      if let payload = fields["payload"] {
        isWrapped = true
        liftedRoot = layer(payload, in: 0)
        if liftedRoot.text == 0 { rewriter.addScope(payload, in: 0) }
        if let state = fields["preloadedState"] { preloadedState = layer(state, in: 0) }
      }
      for (key, node) in Self.fields(liftedRoot.node) {
        lifted[key] = (node, liftedRoot.text)
      }
      if let node = lifted["actionsById"] {
        entries = layer(node.node, in: node.text, ownScope: false)
      }
      if let node = lifted["computedStates"] { computedStates = layer(node.node, in: node.text) }
    }
  }

  /// The node itself, or the text a string of JSON holds, made a text of its own.
  private mutating func layer(_ node: JSONNode, in text: Int, ownScope: Bool = true) -> Located {
    guard case .string = node.content,
      let inner = rewriter.addLayer(node, in: text, ownScope: ownScope)
    else { return (node, text) }
    return (rewriter.texts[inner].root, inner)
  }

  private static func fields(_ node: JSONNode) -> [String: JSONNode] {
    Dictionary((node.members ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  /// The `actionsById` entry of a staged action, by its position in `stagedActionIds`.
  private func entryKey(staged index: Int) -> String? {
    guard let staged = lifted["stagedActionIds"], case .array(let ids) = staged.node.content,
      index < ids.count, case .number(let number) = ids[index].content,
      let id = number.integerValue
    else { return nil }
    return String(id)
  }

  /// Every action node, in the order of ``DevToolsExport/actions(in:)``: the node (an object,
  /// or a string of JSON) and its text; `nil` for a line whose action is not there.
  mutating func actionNodes() -> [Located?] {
    switch export.shape {
    case .actions, .payload:
      guard let list, case .array(let elements) = list.node.content else { return [] }
      return elements.map { ($0, list.text) }
    case .liftedState:
      guard let entries, let members = entries.node.members else { return [] }
      var keys: [String] = []
      for index in export.stagedIndices {
        keys.append(entryKey(staged: index) ?? "")
      }
      let lineKeys = Set(keys)
      keys += members.map(\.key).filter { !lineKeys.contains($0) }
      actionKeys = keys
      let byKey = Self.fields(entries.node)
      return keys.map { key -> Located? in
        guard let entry = byKey[key] else { return nil }
        let located = layer(entry, in: entries.text)
        guard let action = Self.fields(located.node)["action"] else { return nil }
        return (action, located.text)
      }
    }
  }

  /// The texts of the actions.
  mutating func actionTexts() -> [DevToolsExport.Action] {
    let nodes = actionNodes()
    let lineCount = export.places.count
    var actions: [DevToolsExport.Action] = []
    for (position, located) in nodes.enumerated() {
      guard let located else { continue }
      let line = position < lineCount ? position : nil
      var text: [UInt8]
      var isInString = false
      let node: JSONNode
      let nodeText: Int
      if case .string(let value) = located.node.content,
        let inner = try? JSONNode.read(Array(value.utf8))
      {
        isInString = true
        text = Array(value.utf8)
        node = inner
        nodeText = -1
      } else {
        node = located.node
        nodeText = located.text
        let bytes = rewriter.texts[located.text].bytes
        text = Array(
          bytes[node.offset..<Self.end(of: node, in: bytes)])
      }
      var isDecoded = false
      if JSANDecoding.isEncoded(node) {
        // References count from what was stringified: the string, or the scope's root.
        let root = nodeText < 0 ? node : scopeRoot(of: located.text)
        if let value = try? JSANDecoding.decode(node, root: root) {
          var writer = JSONWriter()
          writer.write(value)
          text = writer.bytes
          isDecoded = true
        }
      }
      let prefix = isWrapped ? "payload." : ""
      var path = line.map { export.places[$0].path } ?? ""
      if line == nil, position < actionKeys.count {
        var writer = JSONWriter()
        writer.writeString(actionKeys[position])
        path = prefix + "actionsById[\(String(decoding: writer.bytes, as: UTF8.self))].action"
      }
      let offset = located.text == 0 ? located.node.offset : outerOffset(of: located.text)
      actions.append(
        DevToolsExport.Action(
          line: line, text: text, isDecoded: isDecoded, offset: offset,
          isInString: isInString || located.text != 0, path: path))
    }
    return actions
  }

  private func scopeRoot(of text: Int) -> JSONNode { rewriter.scopeRoot(of: text) }

  /// Where a text's string is in the file: the offset of the outermost string holding it.
  private func outerOffset(of text: Int) -> Int { rewriter.outerOffset(of: text) }

  private static func end(of node: JSONNode, in bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer -> Int in
      var scanner = JSONScanner(
        buffer, position: node.offset, maximumDepth: JSONLimits.maximumWrittenDepth)
      _ = try? scanner.skipValue()
      return scanner.position
    }
  }

  /// Keeps the actions of `lines` only.
  mutating func keep(lines: [Int]) {
    switch export.shape {
    case .actions, .payload:
      if let list { rewriter.keep(indices: lines, of: list.node, in: list.text) }
    case .liftedState:
      let staged = lines.compactMap {
        $0 < export.stagedIndices.count ? export.stagedIndices[$0] : nil
      }
      if let node = lifted["stagedActionIds"] {
        rewriter.keep(indices: staged, of: node.node, in: node.text)
      }
      if let entries {
        rewriter.keep(
          keys: Set(staged.compactMap { entryKey(staged: $0) }), of: entries.node,
          in: entries.text)
      }
      if let states = computedStates, case .array(let elements) = states.node.content {
        rewriter.keep(
          indices: staged.filter { $0 < elements.count }, of: states.node, in: states.text)
      }
      if let skipped = lifted["skippedActionIds"], case .array(let ids) = skipped.node.content,
        !ids.isEmpty
      {
        rewriter.replace(skipped.node, in: skipped.text, with: Array("[]".utf8))
      }
      if let current = lifted["currentStateIndex"], case .number = current.node.content {
        rewriter.replace(
          current.node, in: current.text, with: Array(String(max(0, staged.count - 1)).utf8))
      }
    }
  }

  /// Writes `text`, an action's JSON, in place of an action node.
  mutating func replace(_ located: Located?, with text: [UInt8]) {
    guard let located else { return }
    if case .string = located.node.content {
      rewriter.replace(
        located.node, in: located.text, with: DevToolsExportRewriter.string(text))
    } else {
      rewriter.replace(located.node, in: located.text, with: text)
    }
  }

  /// The recorded states: `committedState`, each `computedStates` entry's `state`, and
  /// `preloadedState`, with their paths.
  mutating func stateNodes() -> [(located: Located, path: String)] {
    var states: [(located: Located, path: String)] = []
    let prefix = isWrapped ? "payload." : ""
    if let state = lifted["committedState"] { states.append((state, prefix + "committedState")) }
    if let computedStates, case .array(let entries) = computedStates.node.content {
      for (index, entry) in entries.enumerated() {
        if let state = Self.fields(entry)["state"] {
          states.append(
            ((state, computedStates.text), prefix + "computedStates[\(index)].state"))
        }
      }
    }
    if let preloadedState { states.append((preloadedState, "preloadedState")) }
    return states
  }

  /// The texts of the recorded states, as written.
  mutating func stateTexts() -> [DevToolsExport.Action] {
    stateNodes().map { located, path in
      let bytes = rewriter.texts[located.text].bytes
      let node = located.node
      return DevToolsExport.Action(
        line: nil, text: Array(bytes[node.offset..<Self.end(of: node, in: bytes)]),
        isDecoded: false,
        offset: located.text == 0 ? node.offset : outerOffset(of: located.text),
        isInString: located.text != 0, path: path)
    }
  }
}
