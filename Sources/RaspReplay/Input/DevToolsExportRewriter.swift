import RaspJSON

/// Writes a Redux DevTools export anew with some of its values changed or removed: the engine
/// of ``DevToolsExport/edited(_:_:)``.
///
/// The export is a tree of JSON texts: the file, and the strings that hold JSON (`payload`, an
/// action written as a string, a `$jsan` Map). Each node is written as it was, byte for byte,
/// unless something below it changes: then it is written anew, compactly, its unchanged parts
/// copied. A `$jsan` reference (`{"$jsan": "$.computedStates[3].state"}`) counts from the value
/// that was stringified: when an array of it lost elements, the reference is renumbered; when
/// it led into a value removed or replaced, that value is written in its place the first time,
/// and later references lead there, as jsan writes a value met twice.
struct DevToolsExportRewriter {
  /// A step of a path: a member's key or an array's index.
  typealias Step = JSANPath.Step

  /// A node of one of the texts.
  struct NodeID: Hashable {
    let text: Int
    let offset: Int
  }

  /// One JSON text: the file's, or a string's that holds JSON.
  struct Text {
    let bytes: [UInt8]
    let root: JSONNode
    /// Where the references of its values count from: its own root (a new scope), or its
    /// parent's, and then its values have no path.
    let scope: Int?
    /// The string that holds it; `nil` for the file's.
    var parent: NodeID? = nil
  }

  /// What a `$jsan` reference counts from.
  struct Scope {
    let text: Int
    let root: JSONNode
    /// The new paths of values removed (or replaced) and written where a reference was.
    var inlined: [NodeID: [Step]] = [:]
  }

  /// Where a value goes in the new text: its scope, and its path there (`nil`: no path).
  struct Place {
    let scope: Int
    let path: [Step]?

    func appending(_ step: Step) -> Place {
      Place(scope: scope, path: path.map { $0 + [step] })
    }
  }

  private(set) var texts: [Text] = []
  private(set) var scopes: [Scope] = []
  /// Strings that hold JSON to be edited, and the text each holds.
  private var layers: [NodeID: Int] = [:]
  /// Arrays that lose elements: the old indices kept, ascending.
  private var keptIndices: [NodeID: [Int]] = [:]
  /// Objects that lose members: the keys kept.
  private var keptKeys: [NodeID: Set<String>] = [:]
  /// Values written anew: their new text.
  private var overrides: [NodeID: [UInt8]] = [:]
  /// Nodes whose references count from themselves.
  private var scopeStarts: [NodeID: Int] = [:]
  /// The offsets, per text, of what changes: a node holding none is copied.
  private var marks: [Int: [Int]] = [:]
  private var sortedMarks: [Int: [Int]] = [:]
  private var ends: [NodeID: Int] = [:]

  /// The most references followed into one another before a cycle is assumed.
  static let maximumDepth = 128

  /// Starts with the file's text, the scope of its references.
  init(bytes: [UInt8], root: JSONNode) {
    texts = [Text(bytes: bytes, root: root, scope: 0)]
    scopes = [Scope(text: 0, root: root)]
  }

  // MARK: Planning

  /// Makes a string node of `text` a text of its own, read from its value: a new scope for
  /// references when `ownScope`. Returns the new text's index.
  mutating func addLayer(_ node: JSONNode, in text: Int, ownScope: Bool) -> Int? {
    let id = NodeID(text: text, offset: node.offset)
    if let known = layers[id] { return known }
    guard case .string(let value) = node.content,
      let root = try? JSONNode.read(Array(value.utf8), maximumDepth: JSONLimits.maximumWrittenDepth)
    else { return nil }
    let index = texts.count
    var scope: Int?
    if ownScope {
      scope = scopes.count
      scopes.append(Scope(text: index, root: root))
    }
    texts.append(Text(bytes: Array(value.utf8), root: root, scope: scope, parent: id))
    layers[id] = index
    mark(id)
    return index
  }

  /// Makes a node (not the file's root) the root of a scope of its own: a `payload` written
  /// as an object rather than as a string.
  mutating func addScope(_ node: JSONNode, in text: Int) {
    scopeStarts[NodeID(text: text, offset: node.offset)] = scopes.count
    scopes.append(Scope(text: text, root: node))
  }

  /// The offset in the file of the outermost string that holds a text.
  func outerOffset(of text: Int) -> Int {
    var index = text
    var offset = 0
    while let parent = texts[index].parent {
      offset = parent.offset
      index = parent.text
    }
    return offset
  }

  /// The root that the references of a text count from.
  func scopeRoot(of text: Int) -> JSONNode {
    var index = text
    while texts[index].scope == nil, let parent = texts[index].parent { index = parent.text }
    return scopes[texts[index].scope ?? 0].root
  }

  /// Keeps only the elements at `indices` of an array.
  mutating func keep(indices: [Int], of node: JSONNode, in text: Int) {
    let id = NodeID(text: text, offset: node.offset)
    keptIndices[id] = indices.sorted()
    mark(id)
  }

  /// Keeps only the members of an object whose keys are in `keys`.
  mutating func keep(keys: Set<String>, of node: JSONNode, in text: Int) {
    let id = NodeID(text: text, offset: node.offset)
    keptKeys[id] = keys
    mark(id)
  }

  /// Writes `bytes`, JSON text, in place of a node.
  mutating func replace(_ node: JSONNode, in text: Int, with bytes: [UInt8]) {
    let id = NodeID(text: text, offset: node.offset)
    overrides[id] = bytes
    mark(id)
  }

  private mutating func mark(_ id: NodeID) {
    marks[id.text, default: []].append(id.offset)
    sortedMarks = [:]
  }

  // MARK: Writing

  /// The new text of the file.
  mutating func write() throws(DevToolsExportError) -> [UInt8] {
    for (text, offsets) in marks { sortedMarks[text] = offsets.sorted() }
    let root = texts[0].root
    let written = try emit(root, text: 0, at: Place(scope: 0, path: []), depth: 0)
    // What is around the root — a byte order mark, spaces, the last line end — stays.
    let bytes = texts[0].bytes
    return Array(bytes[..<root.offset]) + written + bytes[end(of: root, in: 0)...]
  }

  /// The byte after a node.
  private mutating func end(of node: JSONNode, in text: Int) -> Int {
    let id = NodeID(text: text, offset: node.offset)
    if let end = ends[id] { return end }
    let bytes = texts[text].bytes
    let end = bytes.withUnsafeBufferPointer { buffer -> Int in
      var scanner = JSONScanner(
        buffer, position: node.offset, maximumDepth: JSONLimits.maximumWrittenDepth)
      _ = try? scanner.skipValue()
      return scanner.position
    }
    ends[id] = end
    return end
  }

  private mutating func raw(_ node: JSONNode, in text: Int) -> ArraySlice<UInt8> {
    texts[text].bytes[node.offset..<end(of: node, in: text)]
  }

  /// Whether anything inside a node changes.
  private mutating func changesWithin(_ node: JSONNode, in text: Int) -> Bool {
    let end = end(of: node, in: text)
    if let offsets = sortedMarks[text] {
      var low = 0
      var high = offsets.count
      while low < high {
        let middle = (low + high) / 2
        if offsets[middle] < node.offset { low = middle + 1 } else { high = middle }
      }
      if low < offsets.count, offsets[low] < end { return true }
    }
    return rewritesReferences && Self.contains(texts[text].bytes[node.offset..<end])
  }

  /// Whether references may lead elsewhere now: something was removed or written anew.
  private var rewritesReferences: Bool {
    !keptIndices.isEmpty || !keptKeys.isEmpty || !overrides.isEmpty
  }

  private static let tagBytes = Array(#""$jsan""#.utf8)

  private static func contains(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard bytes.count >= tagBytes.count else { return false }
    var index = bytes.startIndex
    let last = bytes.endIndex - tagBytes.count
    while index <= last {
      if bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "$"),
        bytes[index..<index + tagBytes.count].elementsEqual(tagBytes)
      {
        return true
      }
      index += 1
    }
    return false
  }

  private mutating func emit(
    _ node: JSONNode, text: Int, at place: Place, depth: Int
  ) throws(DevToolsExportError) -> [UInt8] {
    let id = NodeID(text: text, offset: node.offset)
    if let bytes = overrides[id] { return bytes }
    if let scope = scopeStarts[id], scope != place.scope {
      return try emit(node, text: text, at: Place(scope: scope, path: []), depth: depth)
    }
    if let inner = layers[id] {
      let layer = texts[inner]
      let innerPlace =
        layer.scope.map { Place(scope: $0, path: []) } ?? Place(scope: place.scope, path: nil)
      let written = try emit(layer.root, text: inner, at: innerPlace, depth: depth)
      if written.elementsEqual(raw(layer.root, in: inner)) { return Array(raw(node, in: text)) }
      return Self.string(written)
    }
    guard changesWithin(node, in: text) else {
      return Array(raw(node, in: text))
    }
    switch node.content {
    case .object(let members):
      if members.count == 1, members[0].key == "$jsan",
        case .string(let tag) = members[0].value.content
      {
        return try emitTag(tag, node: node, text: text, at: place, depth: depth)
      }
      let kept = keptKeys[id]
      let bytes = texts[text].bytes
      var pieces: [[UInt8]] = []
      for member in members where kept?.contains(member.key) ?? true {
        // The key as written, with its colon and spaces.
        var piece = Array(bytes[member.keyOffset..<member.value.offset])
        piece += try emit(
          member.value, text: text, at: place.appending(.key(member.key)), depth: depth)
        pieces.append(piece)
      }
      let starts = members.map(\.keyOffset)
      let ends = members.map { end(of: $0.value, in: text) }
      return joined(pieces, node: node, text: text, starts: starts, ends: ends, brackets: "{}")
    case .array(let elements):
      let kept = keptIndices[id] ?? Array(elements.indices)
      var pieces: [[UInt8]] = []
      for (position, index) in kept.enumerated() where index < elements.count {
        pieces.append(
          try emit(
            elements[index], text: text, at: place.appending(.index(position)), depth: depth))
      }
      let starts = elements.map(\.offset)
      let ends = elements.map { end(of: $0, in: text) }
      return joined(pieces, node: node, text: text, starts: starts, ends: ends, brackets: "[]")
    default:
      return Array(raw(node, in: text))
    }
  }

  /// A container's pieces, laid out as the container was: its space after the opening
  /// bracket, between the first two children, and before the closing one.
  private mutating func joined(
    _ pieces: [[UInt8]], node: JSONNode, text: Int, starts: [Int], ends: [Int],
    brackets: StaticString
  ) -> [UInt8] {
    let bytes = texts[text].bytes
    let open = brackets.utf8Start[0]
    let close = brackets.utf8Start[1]
    guard !pieces.isEmpty, let first = starts.first, let last = ends.last else {
      return [open, close]
    }
    let separator =
      starts.count > 1 ? Array(bytes[ends[0]..<starts[1]]) : [UInt8(ascii: ",")]
    var out = [open] + bytes[(node.offset + 1)..<first]
    for (position, piece) in pieces.enumerated() {
      if position > 0 { out += separator }
      out += piece
    }
    out += bytes[last..<(end(of: node, in: text) - 1)]
    out.append(close)
    return out
  }

  /// A `{"$jsan": tag}`: a reference, led to its new place; a Map or a Set, whose JSON text
  /// may hold references; any other as it was.
  private mutating func emitTag(
    _ tag: String, node: JSONNode, text: Int, at place: Place, depth: Int
  ) throws(DevToolsExportError) -> [UInt8] {
    guard let kind = tag.first else { return Array(raw(node, in: text)) }
    if kind == "$" {
      return try relocate(tag, node: node, text: text, at: place, depth: depth)
    }
    guard kind == "m" || kind == "l",
      let root = try? JSONNode.read(
        Array(tag.utf8.dropFirst()), maximumDepth: JSONLimits.maximumWrittenDepth)
    else { return Array(raw(node, in: text)) }
    let inner = texts.count
    texts.append(Text(bytes: Array(tag.utf8.dropFirst()), root: root, scope: nil))
    let written = try emit(
      root, text: inner, at: Place(scope: place.scope, path: nil), depth: depth)
    if written.elementsEqual(texts[inner].bytes) { return Array(raw(node, in: text)) }
    return Array(#"{"$jsan":"#.utf8)
      + Self.string([UInt8(ascii: kind == "m" ? "m" : "l")] + written)
      + [UInt8(ascii: "}")]
  }

  /// A reference, renumbered where arrays lost elements, or the value it led to when that was
  /// removed (or replaced).
  private mutating func relocate(
    _ tag: String, node: JSONNode, text: Int, at place: Place, depth: Int
  ) throws(DevToolsExportError) -> [UInt8] {
    guard let steps = JSANPath.steps(of: tag.dropFirst()) else { return Array(raw(node, in: text)) }
    let scope = scopes[place.scope]
    var current = scope.root
    var out: [Step] = []
    var isRemoved = false
    var best: (path: [Step], after: Int)?
    for (position, step) in steps.enumerated() {
      let parent = NodeID(text: scope.text, offset: current.offset)
      var child: JSONNode?
      var index = 0
      switch (step, current.content) {
      case (.key(let key), .object(let members)):
        child = members.first { $0.key == key }?.value
      case (.index(let wanted), .array(let elements)) where wanted < elements.count:
        child = elements[wanted]
        index = wanted
      default:
        child = nil
      }
      // A reference to nothing stays as it was: the reader says so.
      guard let child else { return Array(raw(node, in: text)) }
      let childID = NodeID(text: scope.text, offset: child.offset)
      if !isRemoved {
        if let kept = keptIndices[parent] {
          if let newIndex = kept.firstIndex(of: index) {
            out.append(.index(newIndex))
          } else {
            isRemoved = true
          }
        } else if let keys = keptKeys[parent], case .key(let key) = step, !keys.contains(key) {
          isRemoved = true
        } else {
          out.append(step)
        }
        if let bytes = overrides[childID] {
          // Into a value written anew: to what it became, if it is still there.
          let rest = steps[(position + 1)...]
          guard
            let written = try? JSONNode.read(bytes, maximumDepth: JSONLimits.maximumWrittenDepth),
            JSANPath.node(at: rest, in: written) != nil
          else { return Array(#"{"$jsan":"u"}"#.utf8) }
          return Self.reference(out + rest)
        }
      }
      if isRemoved, let path = scopes[place.scope].inlined[childID] {
        best = (path, position)
      }
      current = child
    }
    if !isRemoved {
      if out == steps { return Array(raw(node, in: text)) }
      return Self.reference(out)
    }
    if let best {
      return Self.reference(best.path + steps[(best.after + 1)...])
    }
    guard depth < Self.maximumDepth else {
      throw DevToolsExportError(
        offset: node.offset, path: nil,
        reason: "the '$jsan' reference '\(tag)' leads back into itself (a cycle)")
    }
    if let path = place.path {
      scopes[place.scope].inlined[NodeID(text: scope.text, offset: current.offset)] = path
    }
    return try emit(current, text: scope.text, at: place, depth: depth + 1)
  }

  // MARK: Text

  /// The JSON string of UTF-8 text.
  static func string(_ bytes: [UInt8]) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeString(String(decoding: bytes, as: UTF8.self))
    return writer.bytes
  }

  /// `{"$jsan":"$.a[0]"}` for a path.
  static func reference(_ steps: some Sequence<Step>) -> [UInt8] {
    var text = "$"
    for step in steps {
      switch step {
      case .index(let index): text += "[\(index)]"
      case .key(let key):
        let isWord =
          !key.isEmpty
          && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
        if isWord {
          text += "." + key
        } else {
          var writer = JSONWriter()
          writer.writeString(key)
          text += "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
        }
      }
    }
    return Array(#"{"$jsan":"#.utf8) + string(Array(text.utf8)) + [UInt8(ascii: "}")]
  }
}
