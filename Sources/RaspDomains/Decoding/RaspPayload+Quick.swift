import RaspJSON

extension RaspPayload {
  /// Reads the whole payload in one pass when it is a flat object in the plain shape loggers
  /// write, or returns `nil` and leaves the payload as it was.
  ///
  /// `read` gets a cursor before the payload's first field, reads the fields it knows with
  /// ``RaspQuickPayload/nextKey()`` and the cursor's values, and returns the event — or `nil`
  /// as soon as anything is not as it expects: another key, a key twice, a value of another
  /// kind or out of its range, whitespace, an escape, non-ASCII text. An event counts only
  /// when the cursor read the payload's closing brace, and only where the payload must end
  /// (``init(line:offset:expectedEnd:)``). Otherwise the domain reads the payload field by
  /// field, as if this had not been tried, and that reading accepts or explains it.
  ///
  /// So the quick reading may give up on any payload, but accepts only what the field-by-field
  /// reading accepts, and gives the same event: its values are read by the same functions
  /// (``JSONScanner/readNumber()``, ``JSONScanner/string(_:)``), and a domain checks the same
  /// ranges. `RaspPayloadQuickTests` compares the two on valid and broken payloads.
  ///
  /// ```swift
  /// if let heading = payload.readQuickly({ fields -> Double? in
  ///   guard let key = fields.nextKey(), key == "heading", let heading = fields.number(),
  ///     (0...360).contains(heading), fields.nextKey() == nil
  ///   else { return nil }
  ///   return heading
  /// }) {
  ///   return .heading(heading)
  /// }
  /// ```
  @inline(__always)
  mutating func readQuickly<Event>(_ read: (inout RaspQuickPayload) -> Event?) -> Event? {
    guard !isAbsent, valueStart < 0, depth == 0, currentKey == nil, !isFinished else {
      return nil
    }
    var cursor = RaspQuickPayload(line: scanner.input, position: objectStart + 1)
    guard let event = read(&cursor), cursor.hasEnded,
      expectedEnd < 0 || cursor.position == expectedEnd
    else { return nil }
    scanner.position = cursor.position
    isFinished = true
    return event
  }
}

/// A cursor over a payload object in the plain shape loggers write — compact, keys and
/// strings of ASCII text without escapes — for ``RaspPayload/readQuickly(_:)``.
///
/// Each reader returns `nil` (or `false`) for anything else, and the quick reading then gives
/// up; none throws or explains.
///
/// ```swift
/// while let key = fields.nextKey() {
///   switch key {
///   case "screen": screen = fields.string()
///   default: return nil
///   }
/// }
/// ```
struct RaspQuickPayload {
  private let line: UnsafeBufferPointer<UInt8>
  /// Where the cursor is: after the payload's `{`, after a value, or after the closing `}`.
  private(set) var position: Int
  private var isFirst = true
  /// Whether the payload's closing brace was read.
  private(set) var hasEnded = false

  init(line: UnsafeBufferPointer<UInt8>, position: Int) {
    self.line = line
    self.position = position
  }

  /// The next field's key, the cursor then at its value; `nil` at the payload's end (``hasEnded``)
  /// or at anything but a comma and a plain key (or, for the first, a plain key).
  @inline(__always)
  mutating func nextKey() -> RaspFieldKey? {
    let count = line.count
    var at = position
    guard !hasEnded, at < count else { return nil }
    if line[at] == UInt8(ascii: "}") {
      hasEnded = true
      position = at + 1
      return nil
    }
    if isFirst {
      isFirst = false
    } else {
      guard line[at] == UInt8(ascii: ",") else { return nil }
      at += 1
    }
    guard at < count, line[at] == UInt8(ascii: "\"") else { return nil }
    let end = plainStringEnd(from: at + 1)
    guard end >= 0, end + 1 < count, line[end + 1] == UInt8(ascii: ":") else { return nil }
    position = end + 2
    return RaspFieldKey(raw: JSONRawString(start: at + 1, end: end, hasEscapes: false), input: line)
  }

  /// The value, a number, as ``RaspPayload/double()`` reads it; `nil` for any other value.
  @inline(__always)
  mutating func number() -> Double? {
    guard position < line.count,
      line[position] == UInt8(ascii: "-") || line[position] &- UInt8(ascii: "0") < 10
    else { return nil }
    if let (value, end) = JSONScanner.plainDecimal(in: line, from: position) {
      position = end
      return value
    }
    var scanner = JSONScanner(line, position: position)
    guard let number = try? scanner.readNumber() else { return nil }
    position = scanner.position
    return number.doubleValue
  }

  /// Whether the value is `null`, read if it is.
  @inline(__always)
  mutating func null() -> Bool {
    guard position + 4 <= line.count, line[position] == UInt8(ascii: "n"),
      line[position + 1] == UInt8(ascii: "u"), line[position + 2] == UInt8(ascii: "l"),
      line[position + 3] == UInt8(ascii: "l")
    else { return false }
    position += 4
    return true
  }

  /// The value, an object in the same plain shape, read by `read` with a cursor of its own
  /// after the object's `{`; `nil` for any other value, and when `read` returns `nil` or
  /// leaves the object before its closing brace.
  ///
  /// ```swift
  /// let href = fields.object { link -> String? in
  ///   guard let key = link.nextKey(), key == "href", let href = link.string(),
  ///     link.nextKey() == nil
  ///   else { return nil }
  ///   return href
  /// }
  /// ```
  @inline(__always)
  mutating func object<Value>(_ read: (inout RaspQuickPayload) -> Value?) -> Value? {
    guard position < line.count, line[position] == UInt8(ascii: "{") else { return nil }
    var members = RaspQuickPayload(line: line, position: position + 1)
    guard let value = read(&members), members.hasEnded else { return nil }
    position = members.position
    return value
  }

  /// The value, a string of ASCII text without escapes or control characters; `nil` for any
  /// other value, and for any other string (read field by field, as it needs).
  @inline(__always)
  mutating func string() -> String? {
    guard position < line.count, line[position] == UInt8(ascii: "\"") else { return nil }
    let end = plainStringEnd(from: position + 1)
    guard end >= 0 else { return nil }
    let raw = JSONRawString(start: position + 1, end: end, hasEscapes: false)
    position = end + 1
    return JSONScanner(line).string(raw)
  }

  /// The closing quote of the plain string whose contents start at `start`, or -1
  /// (``RaspJSON/JSONScanner/plainStringEnd(in:from:)``).
  @inline(__always)
  private func plainStringEnd(from start: Int) -> Int {
    JSONScanner.plainStringEnd(in: line, from: start)
  }
}
