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
  /// A key of an object on the way to some of the paths.
  private struct Node: Sendable {
    /// The key.
    let key: [UInt8]
    /// The paths that end here: a map may name a field twice (`{type}.{event|type}`).
    var targets: [Int] = []
    /// The keys below, as indices in ``nodes``.
    var children: [Int] = []
  }

  /// The keys of every path, as a tree; index 0 is the line's object.
  private var nodes: [Node] = [Node(key: [])]
  /// How many paths it looks for.
  let count: Int

  /// A locator of these paths; a path's result is at its index.
  init(paths: [JSONPath]) {
    count = paths.count
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
    for target in nodes[0].targets { results[target] = start..<scanner.position }
    try scanner.expectEnd()
  }

  /// Walks the object at the scanner, recording the paths below `node`.
  private func walk(
    _ scanner: inout JSONScanner, node: Int, results: inout [Range<Int>?]
  ) throws(JSONError) {
    var progress = try scanner.beginObject()
    var keys = JSONKeyTracker()
    while let key = try scanner.nextMember(&progress) {
      try keys.record(key, in: scanner)
      scanner.skipWhitespace()
      let child = nodes[node].children.first { Self.key(key, in: scanner, is: nodes[$0].key) }
      guard let child else {
        try scanner.skipValue()
        continue
      }
      let start = scanner.position
      if !nodes[child].children.isEmpty, try scanner.peekKind() == .object {
        try walk(&scanner, node: child, results: &results)
      } else {
        try scanner.skipValue()
      }
      for target in nodes[child].targets { results[target] = start..<scanner.position }
    }
  }

  /// Whether a key of the line is `bytes`, comparing its text when written with escapes.
  private static func key(_ raw: JSONRawString, in scanner: JSONScanner, is bytes: [UInt8]) -> Bool
  {
    if raw.hasEscapes { return scanner.string(raw).utf8.elementsEqual(bytes) }
    guard raw.end - raw.start == bytes.count else { return false }
    for index in bytes.indices where scanner.input[raw.start + index] != bytes[index] {
      return false
    }
    return true
  }
}

extension RaspEventError {
  /// The same error with the payload's fields named under `name`: `payload.heading` becomes
  /// `data.heading`, for an event whose format keeps its payload in `data`.
  func renamingPayload(to name: String) -> RaspEventError {
    func renamed(_ field: String) -> String {
      guard field.hasPrefix("payload") else { return field }
      let rest = field.dropFirst("payload".count)
      guard rest.isEmpty || rest.first == "." || rest.first == "[" else { return field }
      return name + rest
    }
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
