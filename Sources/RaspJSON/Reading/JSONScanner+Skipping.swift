extension JSONScanner {
  /// Skips the next value, validating it completely, and returns where it starts.
  ///
  /// Skipping checks everything reading would: syntax, escapes, UTF-8, nesting depth and
  /// duplicate keys. It builds nothing.
  ///
  /// ```swift
  /// let start = try scanner.skipValue()
  /// let payload = start..<scanner.position
  /// ```
  ///
  /// - Returns: The offset of the value's first byte.
  /// - Throws: ``JSONError`` for any problem in the value.
  @inlinable
  @discardableResult
  public mutating func skipValue() throws(JSONError) -> Int {
    let kind = try peekKind()
    let start = position
    switch kind {
    case .object: try skipObject()
    case .array: try skipArray()
    case .string: _ = try readRawString()
    case .number: _ = try readNumber()
    case .bool: _ = try readBool()
    case .null: guard try readNull() else { throw invalidValueStart() }
    }
    return start
  }

  @usableFromInline
  mutating func skipObject() throws(JSONError) {
    var members = try beginObject()
    let base = keyScratch.count
    var manyKeys: Set<String>?
    defer { keyScratch.removeSubrange(base...) }
    while let key = try nextMember(&members) {
      if let keys = manyKeys {
        let text = string(key)
        if keys.contains(text) { throw JSONError(offset: key.start - 1, reason: .duplicateKey(text)) }
        manyKeys?.insert(text)
      } else {
        for earlier in keyScratch[base...] where sameKey(earlier, key) {
          throw JSONError(offset: key.start - 1, reason: .duplicateKey(string(key)))
        }
        keyScratch.append(key)
        if keyScratch.count - base > 32 {
          manyKeys = Set(keyScratch[base...].map { string($0) })
        }
      }
      try skipValue()
    }
  }

  @usableFromInline
  mutating func skipArray() throws(JSONError) {
    var elements = try beginArray()
    while try nextElement(&elements) {
      try skipValue()
    }
  }

  /// Whether two raw keys of this buffer denote the same text.
  @inlinable
  public func sameKey(_ a: JSONRawString, _ b: JSONRawString) -> Bool {
    if a.hasEscapes || b.hasEscapes { return string(a).utf8.elementsEqual(string(b).utf8) }
    let count = a.end - a.start
    guard count == b.end - b.start else { return false }
    for index in 0..<count where input[a.start + index] != input[b.start + index] { return false }
    return true
  }
}
