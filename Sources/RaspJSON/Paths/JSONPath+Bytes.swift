extension JSONPath {
  /// What a path selects inside JSON text: a value's byte range, a length, or nothing.
  ///
  /// ```swift
  /// switch try path.locate(in: buffer) {
  /// case .value(let range): print(range)
  /// case .length(let count): print(count)
  /// case .missing: print("null")
  /// }
  /// ```
  public enum Location: Sendable, Equatable {
    /// The selected value's bytes; for `|length` of a number, its absolute value: the number
    /// without its sign.
    case value(Range<Int>)
    /// The selected value's length (for a path ending in `|length`).
    case length(Int)
    /// Nothing there (or a value without a length).
    case missing
  }

  /// Finds what the path selects in JSON text, without building a tree.
  ///
  /// Skips the first `droppingFirst` components, for text that holds only part of the document
  /// (a domain's state, when the path starts with the domain's name). A path that is not
  /// ``isLocatable`` (one with filters other than `|length`, whose values are computed) is
  /// `.missing` here: ``selectedLines(in:droppingFirst:)`` computes them.
  ///
  /// ```swift
  /// let path = try JSONPath("geo.heading")
  /// let geo = Array(#"{"heading":271.5,"lat":1}"#.utf8)
  /// if case .value(let range) = try path.locate(in: geo.span, droppingFirst: 1) {
  ///   print(String(decoding: geo[range], as: UTF8.self))   // 271.5
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - text: Valid JSON text; the span only lends its bytes for the call.
  ///   - droppingFirst: How many leading components to skip.
  /// - Returns: The location of the selected value, as offsets in `text`.
  /// - Throws: ``JSONError`` when the text is not valid JSON.
  public func locate(
    in text: Span<UInt8>, droppingFirst: Int = 0
  ) throws(JSONError) -> Location {
    let result: Result<Location, JSONError> = text.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) in try locate(in: buffer, droppingFirst: droppingFirst) }
    }
    return try result.get()
  }

  /// Finds what the path selects in JSON text in memory the caller keeps valid: the replay's
  /// own path, which locates values in its buffers (the form that takes a `Span` is the public
  /// one).
  ///
  /// ```swift
  /// let location = try path.locate(in: stateBuffer, droppingFirst: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - text: Valid JSON text.
  ///   - droppingFirst: How many leading components to skip.
  /// - Returns: The location of the selected value.
  /// - Throws: ``JSONError`` when the text is not valid JSON.
  package func locate(
    in text: UnsafeBufferPointer<UInt8>, droppingFirst: Int = 0
  ) throws(JSONError) -> Location {
    var scanner = JSONScanner(text)
    guard isLocatable else { return .missing }
    // By index: a slice of the components would retain their array, shared with other
    // threads reading the same path, for each line.
    for index in min(droppingFirst, components.count)..<components.count {
      guard try JSONPath.descend(&scanner, into: components[index]) else { return .missing }
    }
    scanner.skipWhitespace()
    let start = scanner.position
    guard selectsLength else {
      try scanner.skipValue()
      return .value(start..<scanner.position)
    }
    switch try scanner.peekKind() {
    case .null: return .length(0)
    case .bool: return .missing
    case .number:
      try scanner.skipValue()
      let sign = text[start] == UInt8(ascii: "-") ? 1 : 0
      return .value((start + sign)..<scanner.position)
    case .string: return .length(scanner.string(try scanner.readRawString()).unicodeScalars.count)
    case .array:
      var progress = try scanner.beginArray()
      while try scanner.nextElement(&progress) { try scanner.skipValue() }
      return .length(progress.count)
    case .object:
      var progress = try scanner.beginObject()
      while try scanner.nextMember(&progress) != nil { try scanner.skipValue() }
      return .length(progress.count)
    }
  }

  /// Moves the scanner to the child that `component` selects; `false` when there is none.
  static func descend(
    _ scanner: inout JSONScanner, into component: Component
  ) throws(JSONError) -> Bool {
    let kind = try scanner.peekKind()
    switch (component, kind) {
    case (.key(let key), .object):
      var progress = try scanner.beginObject()
      var key = key
      // Compared as bytes in memory: through the string's view, one byte at a time, the
      // comparison costs as much as the rest of reading a member.
      var outcome: Result<Bool, JSONError> = .success(false)
      key.withUTF8 { keyBytes in
        do throws(JSONError) {
          while let member = try scanner.nextMember(&progress) {
            let found =
              member.hasEscapes
              ? scanner.string(member).utf8.elementsEqual(keyBytes)
              : UTF8Order.equal(scanner.bytes(of: member), keyBytes)
            if found {
              outcome = .success(true)
              return
            }
            try scanner.skipValue()
          }
        } catch {
          outcome = .failure(error)
        }
      }
      return try outcome.get()
    case (.key(let key), .array):
      guard let index = arrayIndex(fromKey: key) else { return false }
      return try descendIntoArray(&scanner, index: index)
    case (.index(let index), .array):
      return try descendIntoArray(&scanner, index: index)
    default:
      return false
    }
  }

  private static func descendIntoArray(_ scanner: inout JSONScanner, index: Int) throws(JSONError)
    -> Bool
  {
    var target = index
    if index < 0 {
      var probe = scanner
      var progress = try probe.beginArray()
      while try probe.nextElement(&progress) { try probe.skipValue() }
      target = progress.count + index
      guard target >= 0 else { return false }
    }
    var progress = try scanner.beginArray()
    while try scanner.nextElement(&progress) {
      if progress.count - 1 == target { return true }
      try scanner.skipValue()
    }
    return false
  }
}
