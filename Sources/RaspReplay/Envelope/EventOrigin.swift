import RaspJSON

/// Where an item's event is in its line, when the line is not simply the event: a member of a
/// batch line (a CloudEvents batch, an OTLP request's log records), or an event rasp wrote
/// from the line (an OTLP record made plain JSON, a Kafka message whose payload string holds
/// the event) — and so how a place in the event maps back to a column of the line.
///
/// Errors are found in the event's own bytes; ``lineOffset(of:in:)`` gives the place in the
/// line that the message points at, so that every error still names the original file, line
/// and column.
///
/// ```swift
/// let origin = EventOrigin(place: .part, start: 120)
/// origin.lineOffset(of: 5, in: line)   // 125
/// ```
struct EventOrigin {
  /// How the event's bytes relate to the line's.
  enum Place: UInt8 {
    /// The event is the line.
    case line
    /// The event is the part of the line that starts at ``start``.
    case part
    /// The event is the line with the JSON string at ``start`` (its quotes included, ``rawLength``
    /// bytes) replaced by the string's text, ``length`` bytes: the JSON a Kafka message's
    /// payload holds, in place.
    case unescaped
    /// The event was written by rasp from the part of the line at ``start``, which errors in
    /// it point at.
    case written
    /// The event is the line with the ``rawLength`` bytes at ``start`` — its payload — written
    /// anew as ``length`` bytes (a map's `fields`): errors inside point at the payload.
    case replaced
    /// The event is the part of the line that starts at ``start``, with its ``rawLength``
    /// bytes at ``splice`` written anew as ``length`` bytes (a batch's fields merged into a
    /// member, a map's `inherit`): errors inside point at the first of them.
    case spliced
  }

  /// How the event's bytes relate to the line's.
  var place = Place.line
  /// Whether this is the first item of its line, which the count of lines read counts.
  var startsLine = true
  /// Where the event, the string or the written event's source starts in the line.
  var start: Int32 = 0
  /// For ``Place/unescaped``, ``Place/replaced`` and ``Place/spliced``: the length of what was
  /// written in the event.
  var length: Int32 = 0
  /// For ``Place/unescaped``, ``Place/replaced`` and ``Place/spliced``: the length of what it
  /// stands for in the line (for a string, quotes included).
  var rawLength: Int32 = 0
  /// For ``Place/spliced``: where what was written starts in the event, and what it stands
  /// for in the part of the line. For ``Place/written``: one more than where the payload
  /// written (a map's `fields`) starts in the event, when the payload it was written from is
  /// the line's own bytes at ``start``; 0 otherwise (``movedPayload``).
  var splice: Int32 = 0
  /// The event's indices in the arrays of its format's `events` path, outermost first; -1 for
  /// the levels it does not have (a line that is one event has none).
  var indices: (Int32, Int32, Int32) = (-1, -1, -1)

  /// Whether the event is a member of a batch.
  var isMember: Bool { indices.0 >= 0 }

  /// Where the payload whose fields a map's `fields` moved starts in the event (as written)
  /// and in the line (as the log wrote it), when both are known; `nil` for an event whose
  /// payload was not written anew, or was written from bytes that are not the line's own (an
  /// event in a string).
  var movedPayload: (written: Int, line: Int)? {
    switch place {
    case .replaced: return (Int(start), Int(start))
    case .written where splice > 0: return (Int(splice) - 1, Int(start))
    default: return nil
    }
  }

  /// The offset in the line of the place at `offset` in the event.
  ///
  /// - Parameters:
  ///   - offset: A byte offset in the event's bytes.
  ///   - line: The line.
  /// - Returns: The same place's offset in the line.
  func lineOffset(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    let start = Int(start)
    switch place {
    case .line: return offset
    case .part: return start + offset
    case .written: return start
    case .spliced:
      let splice = Int(splice)
      if offset < splice { return start + offset }
      if offset - splice >= Int(length) { return start + offset - Int(length) + Int(rawLength) }
      return start + splice
    case .replaced:
      if offset < start { return offset }
      if offset - start >= Int(length) { return offset - Int(length) + Int(rawLength) }
      return start
    case .unescaped:
      if offset < start { return offset }
      let text = offset - start
      // The end of the text, where JSON cut short is reported, is the string's closing quote.
      if text == Int(length) { return start + Int(rawLength) - 1 }
      if text > Int(length) { return offset - Int(length) + Int(rawLength) }
      // Walk the string's escapes up to the text's offset: after the opening quote, each
      // escape is several bytes of the line for one or more of the text.
      return start + 1 + Self.rawOffset(ofText: text, in: line, from: start + 1)
    }
  }

  /// The offset, from `contents` in `line`, of the escaped string's byte that holds byte
  /// `text` of its unescaped text.
  static func rawOffset(ofText text: Int, in line: UnsafeBufferPointer<UInt8>, from contents: Int)
    -> Int
  {
    var raw = contents
    var unescaped = 0
    while raw < line.count, line[raw] != UInt8(ascii: "\"") {
      let (rawWidth, textWidth) = widths(at: raw, in: line)
      if unescaped + textWidth > text { break }
      unescaped += textWidth
      raw += rawWidth
    }
    return raw - contents
  }

  /// How many bytes of the line the character at `raw` takes, and how many of the text.
  private static func widths(at raw: Int, in line: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
    guard line[raw] == UInt8(ascii: "\\"), raw + 1 < line.count else { return (1, 1) }
    guard line[raw + 1] == UInt8(ascii: "u"), raw + 5 < line.count else { return (2, 1) }
    let code = hex(line, raw + 2)
    if (0xD800..<0xDC00).contains(code), raw + 11 < line.count,
      line[raw + 6] == UInt8(ascii: "\\"), line[raw + 7] == UInt8(ascii: "u")
    {
      return (12, 4)  // a surrogate pair: one character of four UTF-8 bytes
    }
    return (6, code < 0x80 ? 1 : code < 0x800 ? 2 : 3)
  }

  /// The value of four hex digits at `index`; 0 when they are not.
  private static func hex(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    var value = 0
    for offset in 0..<4 {
      let byte = line[index + offset]
      let digit: Int
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
      default: return 0
      }
      value = value * 16 + digit
    }
    return value
  }
}
