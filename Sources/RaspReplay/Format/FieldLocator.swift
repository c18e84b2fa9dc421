import RaspDomains
import RaspJSON

/// Finds where a line keeps the fields a map names — `type`, `meta.timestamp`, `properties` —
/// in one pass over the line, which also checks it completely (syntax, UTF-8, duplicate keys),
/// building nothing.
///
/// ```swift
/// let locator = FieldLocator(paths: [try JSONPath("type"), try JSONPath("meta.time")])
/// var found = locator.makeResults()
/// try locator.locate(in: line, into: &found)
/// found[1]   // the range of the value of meta.time, or nil
/// ```
struct FieldLocator: Sendable {
  /// A key of an object on the way to some of the paths, as the tree is built.
  private struct Node {
    /// The key.
    let key: [UInt8]
    /// The paths that end here: a map may name a field twice (`{type}.{event|type}`).
    var targets: [Int] = []
    /// The keys below, as indices in the nodes.
    var children: [Int] = []
  }

  /// A node as the walk reads it: plain numbers into ``keyBytes``, ``childList`` and
  /// ``targetList``, so that reading it retains nothing.
  private struct Flat: Sendable {
    var keyStart: Int32
    var keyCount: Int32
    var childStart: Int32
    var childCount: Int32
    var targetStart: Int32
    var targetCount: Int32
    /// Whether the value here is only found, not checked: a payload, which its domain's
    /// decoder reads to the last byte anyway (and ``Envelope/checkPayload()`` when nobody
    /// decodes it).
    var isLazy: Bool
  }

  /// The nodes; index 0 is the line's object.
  private let flat: [Flat]
  private let keyBytes: [UInt8]
  private let childList: [Int32]
  private let targetList: [Int32]
  /// How many paths it looks for.
  let count: Int

  /// A locator of these paths; a path's result is at its index. The values of the paths at
  /// `lazy` indices are found without being checked, when no other path ends there or goes
  /// through them.
  init(paths: [JSONPath], lazy: Set<Int> = []) {
    count = paths.count
    var nodes = [Node(key: [])]
    for (index, path) in paths.enumerated() {
      var node = 0
      for component in path.components {
        guard case .key(let key) = component else { continue }
        let bytes = Array(key.utf8)
        if let child = nodes[node].children.first(where: { nodes[$0].key == bytes }) {
          node = child
        } else {
          nodes.append(Node(key: bytes))
          nodes[node].children.append(nodes.count - 1)
          node = nodes.count - 1
        }
      }
      nodes[node].targets.append(index)
    }
    var flat: [Flat] = []
    var keyBytes: [UInt8] = []
    var childList: [Int32] = []
    var targetList: [Int32] = []
    for (index, node) in nodes.enumerated() {
      flat.append(
        Flat(
          keyStart: Int32(keyBytes.count), keyCount: Int32(node.key.count),
          childStart: Int32(childList.count), childCount: Int32(node.children.count),
          targetStart: Int32(targetList.count), targetCount: Int32(node.targets.count),
          isLazy: index > 0 && node.children.isEmpty && !node.targets.isEmpty
            && node.targets.allSatisfy(lazy.contains)))
      keyBytes += node.key
      childList += node.children.map { Int32($0) }
      targetList += node.targets.map { Int32($0) }
    }
    self.flat = flat
    self.keyBytes = keyBytes
    self.childList = childList
    self.targetList = targetList
  }

  /// Empty results, one per path.
  func makeResults() -> [Range<Int>?] {
    Array(repeating: nil, count: count)
  }

  /// Checks `line`, one JSON object, and sets each path's result to the range of its value, or
  /// `nil` when the line has none there.
  ///
  /// - Throws: ``RaspJSON/JSONError`` for the first problem in the line, or a line that is not
  ///   an object (``JSONError/Reason/unexpectedCharacter``).
  func locate(
    in line: UnsafeBufferPointer<UInt8>, into results: inout [Range<Int>?]
  ) throws(JSONError) {
    for index in results.indices { results[index] = nil }
    var scanner = JSONScanner(line)
    scanner.skipWhitespace()
    let start = scanner.position
    try walk(&scanner, node: 0, results: &results)
    // `.`: the line's object itself.
    record(node: 0, start..<scanner.position, in: &results)
    try scanner.expectEnd()
  }

  /// Sets the results of the paths that end at `node`.
  @inline(__always)
  private func record(node: Int, _ range: Range<Int>, in results: inout [Range<Int>?]) {
    let entry = flat[node]
    for index in Int(entry.targetStart)..<Int(entry.targetStart + entry.targetCount) {
      results[Int(targetList[index])] = range
    }
  }

  /// Walks the object at the scanner, recording the paths below `node`.
  private func walk(
    _ scanner: inout JSONScanner, node: Int, results: inout [Range<Int>?]
  ) throws(JSONError) {
    var progress = try scanner.beginObject()
    var keys = JSONKeyTracker()
    let parent = flat[node]
    while let key = try scanner.nextMember(&progress) {
      try keys.record(key, in: scanner)
      scanner.skipWhitespace()
      var child = -1
      for index in Int(parent.childStart)..<Int(parent.childStart + parent.childCount) {
        let candidate = Int(childList[index])
        if matches(key, in: scanner, node: candidate) {
          child = candidate
          break
        }
      }
      guard child >= 0 else {
        try scanner.skipValue()
        continue
      }
      let entry = flat[child]
      let start = scanner.position
      if entry.childCount > 0, try scanner.peekKind() == .object {
        try walk(&scanner, node: child, results: &results)
      } else if entry.isLazy, scanner.peek() == UInt8(ascii: "{"),
        scanner.skipContainerWithoutValidating()
      {
        // A payload object, checked by whoever reads it.
      } else {
        try scanner.skipValue()
      }
      record(node: child, start..<scanner.position, in: &results)
    }
  }

  /// Whether a key of the line is the key of `node`, comparing its text when written with
  /// escapes.
  private func matches(_ raw: JSONRawString, in scanner: JSONScanner, node: Int) -> Bool {
    let entry = flat[node]
    let start = Int(entry.keyStart)
    let count = Int(entry.keyCount)
    if raw.hasEscapes {
      return scanner.string(raw).utf8.elementsEqual(keyBytes[start..<start + count])
    }
    guard raw.end - raw.start == count else { return false }
    for index in 0..<count where scanner.input[raw.start + index] != keyBytes[start + index] {
      return false
    }
    return true
  }
}

extension RaspEventError {
  /// The same error with the payload's fields named under `name`: `payload.heading` becomes
  /// `data.heading`, for an event whose format keeps its payload in `data`.
  func renamingPayload(to name: String) -> RaspEventError {
    renamingFields { field in
      guard field.hasPrefix("payload") else { return field }
      let rest = field.dropFirst("payload".count)
      guard rest.isEmpty || rest.first == "." || rest.first == "[" else { return field }
      return Self.field(rest, under: name)
    }
  }

  /// The name of a payload's field (`.heading`, `[0]`, or empty for the payload itself) under
  /// the path the format keeps the payload at: `data.heading`, or, for a payload that is the
  /// event itself (`.`), `heading`.
  ///
  /// ```swift
  /// RaspEventError.field(".heading", under: "data")   // "data.heading"
  /// RaspEventError.field(".heading", under: ".")      // "heading"
  /// ```
  static func field(_ rest: Substring, under payload: String) -> String {
    guard payload == "." else { return payload + rest }
    if rest.isEmpty { return "." }
    return rest.first == "." ? String(rest.dropFirst()) : String(rest)
  }

  /// The same error with the event's `ts` named as its format names the time (`timeUnixNano`),
  /// when the format names one.
  func renamingTime(to name: String?) -> RaspEventError {
    guard let name else { return self }
    return renamingFields { $0 == "ts" ? name : $0 }
  }

  /// The same error with its field renamed.
  func renamingFields(_ renamed: (String) -> String) -> RaspEventError {
    let reason: Reason
    switch self.reason {
    case .missingField(let field): reason = .missingField(renamed(field))
    case .wrongType(let field, let expected, let found):
      reason = .wrongType(field: renamed(field), expected: expected, found: found)
    case .invalidValue(let field, let why):
      reason = .invalidValue(field: renamed(field), reason: why)
    case .duplicateField(let field): reason = .duplicateField(renamed(field))
    default: return self
    }
    return RaspEventError(offset: offset, reason: reason)
  }
}
