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
    var keys = beginKeys()
    defer { endKeys(keys) }
    while let key = try nextMember(&members) {
      try record(key, in: &keys)
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

  // MARK: Duplicate keys

  /// Starts tracking the keys of one object; pair with ``endKeys(_:)``.
  @inlinable
  func beginKeys() -> JSONKeyTracker {
    JSONKeyTracker(base: keyScratch.count)
  }

  /// Stops tracking the keys of an object, releasing its scratch space.
  @inlinable
  mutating func endKeys(_ keys: JSONKeyTracker) {
    keyScratch.removeSubrange(keys.base...)
  }

  /// Records a key of the object being read, or throws when it is a duplicate.
  ///
  /// Keys are equal when their decoded code points are (not when they are canonically
  /// equivalent, as `String`s compare), so `"a"` and `"\u0061"` are duplicates and `"é"` and
  /// `"e\u0301"` are not. Up to 32 keys are compared byte by byte with no allocation; beyond
  /// that a hash set of their bytes keeps big objects linear.
  @inlinable
  mutating func record(_ key: JSONRawString, in keys: inout JSONKeyTracker) throws(JSONError) {
    if keys.hashed != nil {
      guard keys.hashed!.insert(decodedBytes(of: key)).inserted else { throw duplicate(key) }
      return
    }
    for earlier in keyScratch[keys.base...] where sameKey(earlier, key) { throw duplicate(key) }
    keyScratch.append(key)
    if keyScratch.count - keys.base > 32 {
      keys.hashed = Set(keyScratch[keys.base...].map { decodedBytes(of: $0) })
    }
  }

  @usableFromInline
  func duplicate(_ key: JSONRawString) -> JSONError {
    JSONError(offset: key.start - 1, reason: .duplicateKey(string(key)))
  }

  /// The UTF-8 bytes of a raw string's decoded text.
  @usableFromInline
  func decodedBytes(of raw: JSONRawString) -> [UInt8] {
    raw.hasEscapes ? Array(string(raw).utf8) : Array(bytes(of: raw))
  }
}

/// The keys seen so far in one object, for finding duplicates.
@usableFromInline
struct JSONKeyTracker {
  /// Where this object's keys start in the scanner's scratch space.
  @usableFromInline let base: Int
  /// The keys' bytes, once the object has too many keys to compare pairwise.
  @usableFromInline var hashed: Set<[UInt8]>?

  @inlinable
  init(base: Int) {
    self.base = base
    hashed = nil
  }
}
