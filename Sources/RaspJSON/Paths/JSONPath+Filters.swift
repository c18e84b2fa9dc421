extension JSONPath {
  /// The canonical JSON of each value the path selects in JSON text, one per line (`\n`
  /// between them, none after the last), as `--select` prints them: `null` for a value that
  /// is not there; nothing at all when the path selects no value (`[]` of an empty array).
  ///
  /// The value at the ``components`` is read from the text (after skipping the first
  /// `droppingFirst` of them, for text that holds only part of the document), and the
  /// ``filters`` are applied to it as ``values(in:)`` applies them. Canonical JSON holds no line
  /// end outside its strings, which escape it, so each line is one value.
  ///
  /// ```swift
  /// let path = try JSONPath("nav.stack[1:][]", allowsFilters: true)
  /// let nav = Array(#"{"stack":["home","list","detail"]}"#.utf8)
  /// let lines = try path.selectedLines(in: nav.span, droppingFirst: 1)
  /// // "list"\n"detail"
  /// ```
  ///
  /// - Parameters:
  ///   - text: Valid JSON text; the span only lends its bytes for the call.
  ///   - droppingFirst: How many leading components to skip.
  /// - Returns: The values' canonical JSON, separated by line ends.
  /// - Throws: ``JSONError`` when the text is not valid JSON.
  /// - Complexity: O(*n*) in the length of the text, and of the values selected.
  public func selectedLines(
    in text: Span<UInt8>, droppingFirst: Int = 0
  ) throws(JSONError) -> [UInt8] {
    let result: Result<[UInt8], JSONError> = text.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) in try selectedLines(in: buffer, droppingFirst: droppingFirst) }
    }
    return try result.get()
  }

  /// The canonical JSON of each value the path selects in JSON text in memory the caller keeps
  /// valid: the replay's own path (the form that takes a `Span` is the public one).
  ///
  /// ```swift
  /// let lines = try path.selectedLines(in: stateBuffer, droppingFirst: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - text: Valid JSON text.
  ///   - droppingFirst: How many leading components to skip.
  /// - Returns: The values' canonical JSON, separated by line ends.
  /// - Throws: ``JSONError`` when the text is not valid JSON.
  package func selectedLines(
    in text: UnsafeBufferPointer<UInt8>, droppingFirst: Int = 0
  ) throws(JSONError) -> [UInt8] {
    var scanner = JSONScanner(text)
    for component in components.dropFirst(droppingFirst) {
      guard try JSONPath.descend(&scanner, into: component) else { return Array("null".utf8) }
    }
    let value = try scanner.readValue()
    var writer = JSONWriter()
    for (index, result) in JSONPath.apply(filters[...], to: value).enumerated() {
      if index > 0 { writer.bytes.append(0x0A) }
      writer.write(result ?? .null)
    }
    return writer.bytes
  }

  /// The values that `filters` make of `value`, in order; `nil` for each that is not there.
  static func apply(_ filters: ArraySlice<Filter>, to value: JSONValue) -> [JSONValue?] {
    var values: [JSONValue?] = [value]
    for filter in filters {
      var next: [JSONValue?] = []
      next.reserveCapacity(values.count)
      for value in values {
        guard let value else {
          next.append(nil)
          continue
        }
        guard filter == .each else {
          next.append(apply(filter, toOne: value))
          continue
        }
        switch value {
        case .array(let elements): for element in elements { next.append(element) }
        case .object(let object): for member in object.members { next.append(member.value) }
        case .null, .bool, .number, .string: next.append(nil)
        }
      }
      values = next
    }
    return values
  }

  /// The value a filter other than `[]` makes of `value`, or `nil` when there is none.
  private static func apply(_ filter: Filter, toOne value: JSONValue) -> JSONValue? {
    switch filter {
    case .key(let key): return child(of: value, at: .key(key))
    case .index(let index): return child(of: value, at: .index(index))
    case .length: return length(of: value)
    case .slice(let start, let end):
      switch value {
      case .array(let elements):
        return .array(Array(elements[sliceBounds(start, end, count: elements.count)]))
      case .string(let text):
        let scalars = Array(text.unicodeScalars)
        var slice = String.UnicodeScalarView()
        slice.append(contentsOf: scalars[sliceBounds(start, end, count: scalars.count)])
        return .string(String(slice))
      case .null, .bool, .number, .object: return nil
      }
    case .keys:
      switch value {
      // An object's members are in code point order of their keys, as jq sorts them.
      case .object(let object): return .array(object.members.map { .string($0.key) })
      case .array(let elements): return .array(elements.indices.map { .number(JSONNumber($0)) })
      case .null, .bool, .number, .string: return nil
      }
    case .each: return nil
    }
  }

  /// The range a slice selects of `count` elements or characters, as jq computes it: negative
  /// bounds count from the end, then both are clamped to `0...count`, and an end before the
  /// start selects nothing.
  static func sliceBounds(_ start: Int?, _ end: Int?, count: Int) -> Range<Int> {
    var lower = start ?? 0
    var upper = end ?? count
    if lower < 0 { lower = max(lower, -count) + count }
    if upper < 0 { upper = max(upper, -count) + count }
    lower = min(lower, count)
    upper = min(upper, count)
    return lower..<max(lower, upper)
  }

  /// The absolute value of a number, as jq's `length` gives it.
  static func absoluteValue(of number: JSONNumber) -> JSONNumber {
    switch number.storage {
    case .integer(let value):
      guard value < 0 else { return number }
      return value == .min ? JSONNumber(Double(value.magnitude)) : JSONNumber(-value)
    case .double(let value):
      return JSONNumber(abs(value))
    case .wide:
      guard let value = number.exactInteger, value < 0 else { return number }
      return value == .min ? JSONNumber(Double(value.magnitude)) : JSONNumber(-value)
    }
  }
}
