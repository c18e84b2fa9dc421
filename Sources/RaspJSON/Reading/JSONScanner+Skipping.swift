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
    case .number: try skipNumber()
    case .bool: _ = try readBool()
    case .null: guard try readNull() else { throw invalidValueStart() }
    }
    return start
  }

  @usableFromInline
  mutating func skipObject() throws(JSONError) {
    var members = try beginObject()
    var keys = JSONKeyTracker()
    while let key = try nextMember(&members) {
      try keys.record(key, in: self)
      try skipValue()
    }
  }

  /// Skips a number, checking its syntax without converting it; numbers whose magnitude may
  /// be beyond a double's range are converted to check it.
  @inlinable
  @inline(__always)
  mutating func skipNumber() throws(JSONError) {
    let start = position
    var index = position
    if index < input.count, input[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < input.count, JSONScanner.isDigit(input[index]) { index += 1 }
    let integerDigits = index - digitsStart
    var simple =
      integerDigits > 0 && integerDigits < 300
      && (integerDigits == 1 || input[digitsStart] != UInt8(ascii: "0"))
    if simple, index < input.count, input[index] == UInt8(ascii: ".") {
      index += 1
      let fractionStart = index
      while index < input.count, JSONScanner.isDigit(input[index]) { index += 1 }
      simple = index > fractionStart
    }
    if simple, index < input.count, input[index] | 0x20 == UInt8(ascii: "e") {
      simple = false
    }
    guard simple else {
      // Anything unusual: let the full reader validate and report it.
      position = start
      _ = try readNumber()
      return
    }
    position = index
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

  /// The error for a key that repeats an earlier key of its object.
  ///
  /// ```swift
  /// throw scanner.duplicate(key)   // duplicate key 'heading'
  /// ```
  ///
  /// - Parameter key: The repeated key.
  /// - Returns: The error, at the key's opening quote.
  public func duplicate(_ key: JSONRawString) -> JSONError {
    JSONError(offset: key.start - 1, reason: .duplicateKey(string(key)))
  }

  /// The UTF-8 bytes of a raw string's decoded text.
  @usableFromInline
  func decodedBytes(of raw: JSONRawString) -> [UInt8] {
    raw.hasEscapes ? Array(string(raw).utf8) : Array(bytes(of: raw))
  }
}

/// The keys seen so far in one object, for finding duplicates without allocating.
///
/// Keys are equal when their decoded code points are (not when they are canonically
/// equivalent, as `String`s compare), so `"a"` and `"\u0061"` are duplicates and `"é"` and
/// `"e\u0301"` are not. The first eight keys live inline, on the stack; up to 32 are compared
/// byte by byte; beyond that a hash set of their bytes keeps big objects linear.
///
/// ```swift
/// var keys = JSONKeyTracker()
/// var members = try scanner.beginObject()
/// while let key = try scanner.nextMember(&members) {
///   try keys.record(key, in: scanner)   // throws on a duplicate key
///   try scanner.skipValue()
/// }
/// ```
public struct JSONKeyTracker {
  @usableFromInline var inline:
    (
      JSONRawString, JSONRawString, JSONRawString, JSONRawString,
      JSONRawString, JSONRawString, JSONRawString, JSONRawString
    )
  @usableFromInline var count = 0
  @usableFromInline var overflow: [JSONRawString] = []
  @usableFromInline var hashed: Set<[UInt8]>?

  /// Creates a tracker for one object.
  ///
  /// ```swift
  /// var keys = JSONKeyTracker()
  /// ```
  @inlinable
  public init() {
    let empty = JSONRawString(start: 0, end: 0, hasEscapes: false)
    inline = (empty, empty, empty, empty, empty, empty, empty, empty)
  }

  /// Records a key of the object being read, or throws when it repeats an earlier one.
  ///
  /// ```swift
  /// try keys.record(key, in: scanner)
  /// ```
  ///
  /// - Parameters:
  ///   - key: A key read from `scanner`'s buffer.
  ///   - scanner: The scanner that read it.
  /// - Throws: ``JSONError`` with ``JSONError/Reason/duplicateKey(_:)``.
  @inlinable
  public mutating func record(_ key: JSONRawString, in scanner: JSONScanner) throws(JSONError) {
    if hashed != nil {
      guard hashed?.insert(scanner.decodedBytes(of: key)).inserted == true else {
        throw scanner.duplicate(key)
      }
      return
    }
    let inlineCount = Swift.min(count, 8)
    let found = withUnsafeMutablePointer(to: &inline) { tuple -> Bool in
      tuple.withMemoryRebound(to: JSONRawString.self, capacity: 8) { earlier in
        for index in 0..<inlineCount where scanner.sameKey(earlier[index], key) { return true }
        return false
      }
    }
    if found { throw scanner.duplicate(key) }
    for earlier in overflow where scanner.sameKey(earlier, key) { throw scanner.duplicate(key) }
    if count < 8 {
      let slot = count
      withUnsafeMutablePointer(to: &inline) { tuple in
        tuple.withMemoryRebound(to: JSONRawString.self, capacity: 8) { $0[slot] = key }
      }
    } else {
      overflow.append(key)
    }
    count += 1
    if count > 32 {
      var all = Set<[UInt8]>()
      withUnsafeMutablePointer(to: &inline) { tuple in
        tuple.withMemoryRebound(to: JSONRawString.self, capacity: 8) { earlier in
          for index in 0..<8 { all.insert(scanner.decodedBytes(of: earlier[index])) }
        }
      }
      for earlier in overflow { all.insert(scanner.decodedBytes(of: earlier)) }
      hashed = all
      overflow = []
    }
  }
}

extension JSONScanner {
  /// Moves past the object or array that starts at ``position`` by matching brackets only.
  ///
  /// This is the fast way over a value that will be read again, field by field, right after:
  /// it honours strings and their escapes so that brackets inside strings do not count, but it
  /// checks nothing else. Whoever skips this way must validate the value later — by reading it
  /// completely, or with ``skipValue()``. When the brackets do not balance within the buffer
  /// (or nest deeper than ``maximumDepth``), the scanner does not move and the result is `false`.
  ///
  /// ```swift
  /// let start = scanner.position
  /// guard scanner.skipContainerWithoutValidating() else { try scanner.skipValue(); … }
  /// ```
  ///
  /// - Returns: `true` when the scanner moved past the container's closing bracket.
  /// - Complexity: O(*n*) in the container's length, about two comparisons per byte.
  @inlinable
  public mutating func skipContainerWithoutValidating() -> Bool {
    var index = position
    let count = input.count
    var depth = 0
    while index < count {
      let byte = input[index]
      index += 1
      if byte == UInt8(ascii: "\"") {
        while index < count {
          let inner = input[index]
          index += 1
          if inner == UInt8(ascii: "\"") { break }
          if inner == UInt8(ascii: "\\") { index += 1 }
        }
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        depth += 1
        if depth > maximumDepth - self.depth { return false }
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 {
          position = index
          return true
        }
      }
    }
    return false
  }
}
