/// Applies RFC 6902 JSON Patches: `add`, `remove`, `replace`, `move`, `copy` and `test`.
///
/// A patch is an array of operations applied in order; if one fails, the whole patch fails and
/// the document is left as it was. Paths are RFC 6901 JSON Pointers, and `-` as the last token
/// of an `add` appends to an array. `test` compares by JSON meaning (`1` equals `1.0`).
///
/// ```swift
/// let document: JSONValue = ["geo": ["heading": 90], "nav": ["stack": ["home"]]]
/// let patch: JSONValue = [
///   ["op": "replace", "path": "/geo/heading", "value": 91],
///   ["op": "add", "path": "/nav/stack/-", "value": "list"],
/// ]
/// print(try JSONPatch.apply(patch, to: document))
/// // {"geo":{"heading":91},"nav":{"stack":["home","list"]}}
/// ```
public enum JSONPatch {
  /// Applies a patch to a document.
  ///
  /// ```swift
  /// let patch = JSONDiff.patch(from: old, to: new)
  /// try JSONPatch.apply(patch, to: old) == new   // true
  /// ```
  ///
  /// - Parameters:
  ///   - operations: The patch: an array of operation objects.
  ///   - document: The document to patch.
  /// - Returns: The patched document.
  /// - Throws: ``JSONPatchError`` naming the first operation that cannot be applied.
  public static func apply(
    _ operations: JSONValue, to document: JSONValue
  ) throws(JSONPatchError) -> JSONValue {
    guard case .array(let list) = operations else {
      throw JSONPatchError(operation: nil, reason: .notAnArray(found: operations.kind.phrase))
    }
    var result = document
    for (index, operation) in list.enumerated() {
      do throws(JSONPatchError) {
        try apply(operation, to: &result)
      } catch {
        throw JSONPatchError(operation: index, reason: error.reason)
      }
    }
    return result
  }

  private static func apply(
    _ operation: JSONValue, to document: inout JSONValue
  ) throws(JSONPatchError) {
    guard case .object(let members) = operation else {
      throw failure(.notAnObject(found: operation.kind.phrase))
    }
    guard case .string(let name)? = members["op"] else { throw failure(.missingMember("op")) }
    guard case .string(let pointer)? = members["path"] else {
      throw failure(.missingMember("path"))
    }
    let path = try tokens(of: pointer)
    func value() throws(JSONPatchError) -> JSONValue {
      guard let value = members["value"] else { throw failure(.missingMember("value")) }
      return value
    }
    func from() throws(JSONPatchError) -> (pointer: String, tokens: [String]) {
      guard case .string(let from)? = members["from"] else { throw failure(.missingMember("from")) }
      return (from, try tokens(of: from))
    }
    switch name {
    case "add":
      try add(try value(), at: path[...], pointer: pointer, in: &document)
    case "remove":
      try remove(at: path[...], pointer: pointer, in: &document)
    case "replace":
      try replace(at: path[...], with: try value(), pointer: pointer, in: &document)
    case "move":
      let source = try from()
      if source.tokens.count < path.count, path.starts(with: source.tokens) {
        throw failure(.moveIntoItself(from: source.pointer, path: pointer))
      }
      guard let moved = self.value(at: source.tokens, in: document) else {
        throw failure(.missingValue(pointer: source.pointer, operation: "move"))
      }
      try remove(at: source.tokens[...], pointer: source.pointer, in: &document)
      try add(moved, at: path[...], pointer: pointer, in: &document)
    case "copy":
      let source = try from()
      guard let copied = self.value(at: source.tokens, in: document) else {
        throw failure(.missingValue(pointer: source.pointer, operation: "copy"))
      }
      try add(copied, at: path[...], pointer: pointer, in: &document)
    case "test":
      let expected = try value()
      guard let found = self.value(at: path, in: document) else {
        throw failure(.missingValue(pointer: pointer, operation: "test"))
      }
      guard found == expected else {
        throw failure(.testFailed(pointer: pointer, expected: expected, found: found))
      }
    default:
      throw failure(.unknownOperation(name))
    }
  }

  /// The reference tokens of a pointer.
  private static func tokens(of pointer: String) throws(JSONPatchError) -> [String] {
    let path: JSONPath
    do throws(JSONPathError) {
      path = try JSONPath(pointer: pointer)
    } catch {
      throw failure(.invalidPointer(pointer, detail: error.reason))
    }
    return path.components.map { component in
      if case .key(let key) = component { return key }
      return ""
    }
  }

  /// The value a pointer's tokens point at, or `nil`.
  private static func value(at tokens: [String], in document: JSONValue) -> JSONValue? {
    JSONPath(components: tokens.map { .key($0) }).evaluate(document)
  }

  // MARK: Operations

  package static func add(
    _ newValue: JSONValue, at tokens: ArraySlice<String>, pointer: String,
    in document: inout JSONValue
  ) throws(JSONPatchError) {
    guard !tokens.isEmpty else {
      document = newValue
      return
    }
    try modifyParent(of: tokens, in: &document, pointer: pointer, operation: "add") {
      parent, token throws(JSONPatchError) in
      switch parent {
      case .object(var object):
        parent = .null
        object[token] = newValue
        parent = .object(object)
      case .array(var elements):
        let index: Int
        if token == "-" {
          index = elements.count
        } else {
          guard let given = JSONPath.arrayIndex(fromKey: token), given <= elements.count else {
            throw failure(.invalidIndex(pointer: pointer, token: token))
          }
          index = given
        }
        parent = .null
        elements.insert(newValue, at: index)
        parent = .array(elements)
      default:
        throw failure(.notAContainer(pointer: pointer, found: parent.kind.phrase))
      }
    }
  }

  package static func remove(
    at tokens: ArraySlice<String>, pointer: String, in document: inout JSONValue
  ) throws(JSONPatchError) {
    guard !tokens.isEmpty else { throw failure(.removesTheDocument) }
    try modifyParent(of: tokens, in: &document, pointer: pointer, operation: "remove") {
      parent, token throws(JSONPatchError) in
      switch parent {
      case .object(var object):
        guard object[token] != Optional.none else {
          throw failure(.missingValue(pointer: pointer, operation: "remove"))
        }
        parent = .null
        object[token] = Optional.none
        parent = .object(object)
      case .array(var elements):
        let index = try elementIndex(token, in: elements, pointer: pointer, operation: "remove")
        parent = .null
        elements.remove(at: index)
        parent = .array(elements)
      default:
        throw failure(.notAContainer(pointer: pointer, found: parent.kind.phrase))
      }
    }
  }

  package static func replace(
    at tokens: ArraySlice<String>, with newValue: JSONValue, pointer: String,
    in document: inout JSONValue
  ) throws(JSONPatchError) {
    guard !tokens.isEmpty else {
      document = newValue
      return
    }
    try modifyParent(of: tokens, in: &document, pointer: pointer, operation: "replace") {
      parent, token throws(JSONPatchError) in
      switch parent {
      case .object(var object):
        guard object[token] != Optional.none else {
          throw failure(.missingValue(pointer: pointer, operation: "replace"))
        }
        parent = .null
        object[token] = newValue
        parent = .object(object)
      case .array(var elements):
        let index = try elementIndex(token, in: elements, pointer: pointer, operation: "replace")
        parent = .null
        elements[index] = newValue
        parent = .array(elements)
      default:
        throw failure(.notAContainer(pointer: pointer, found: parent.kind.phrase))
      }
    }
  }

  // MARK: Navigation

  /// Calls `body` with the container that holds the last token, and that token.
  ///
  /// Each container on the way is moved out of its parent while it changes, so that a patch
  /// modifies a uniquely referenced document in place rather than copying every level.
  private static func modifyParent(
    of tokens: ArraySlice<String>, in value: inout JSONValue, pointer: String, operation: String,
    _ body: (inout JSONValue, String) throws(JSONPatchError) -> Void
  ) throws(JSONPatchError) {
    let token = tokens[tokens.startIndex]
    guard tokens.count > 1 else {
      try body(&value, token)
      return
    }
    let rest = tokens.dropFirst()
    switch value {
    case .object(var object):
      guard var child = object[token] else {
        throw failure(.missingValue(pointer: pointer, operation: operation))
      }
      value = .null
      object[token] = .null
      try modifyParent(of: rest, in: &child, pointer: pointer, operation: operation, body)
      object[token] = child
      value = .object(object)
    case .array(var elements):
      let index = try elementIndex(token, in: elements, pointer: pointer, operation: operation)
      var child = elements[index]
      value = .null
      elements[index] = .null
      try modifyParent(of: rest, in: &child, pointer: pointer, operation: operation, body)
      elements[index] = child
      value = .array(elements)
    default:
      throw failure(.notAContainer(pointer: pointer, found: value.kind.phrase))
    }
  }

  /// The index of an existing element that a token names.
  private static func elementIndex(
    _ token: String, in elements: [JSONValue], pointer: String, operation: String
  ) throws(JSONPatchError) -> Int {
    if token == "-" { throw failure(.missingValue(pointer: pointer, operation: operation)) }
    guard let index = JSONPath.arrayIndex(fromKey: token) else {
      throw failure(.invalidIndex(pointer: pointer, token: token))
    }
    guard index < elements.count else {
      throw failure(.missingValue(pointer: pointer, operation: operation))
    }
    return index
  }

  /// An error of an operation whose position the caller fills in.
  private static func failure(_ reason: JSONPatchError.Reason) -> JSONPatchError {
    JSONPatchError(operation: nil, reason: reason)
  }
}
