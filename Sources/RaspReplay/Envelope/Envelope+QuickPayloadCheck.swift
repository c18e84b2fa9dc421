extension Envelope {
  /// Where the payload that starts at `start` ends, when it is JSON of the plain shape loggers
  /// write, read in one quick pass; `nil` for any other payload, which the scanner then checks
  /// completely and explains.
  ///
  /// It accepts only what ``checkPayload()``'s full check accepts: objects and arrays at most
  /// ``quickCheckDepth`` deep, keys and strings of ASCII text without escapes or control
  /// characters, at most ``quickCheckKeys`` keys an object, all different, numbers as
  /// `JSONScanner.skipNumber` reads them without converting (no exponent, fewer than 300
  /// integer digits), `true`, `false` and `null`, and no whitespace. It only gives up earlier —
  /// on anything else, and every mistake — so that whichever reads a payload, the result is
  /// the same: `EnvelopeQuickPayloadCheckTests` compares both on valid and broken payloads.
  ///
  /// ```swift
  /// Envelope.quickPayloadEnd(in: line, at: 63)   // 84, for `…"payload":{"heading":139.9}}`
  /// ```
  @inline(__always)
  static func quickPayloadEnd(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    guard start < line.count, line[start] == UInt8(ascii: "{") else { return nil }
    return quickObjectEnd(in: line, at: start, depth: 1)
  }

  /// How deep the quick check reads nested objects and arrays; deeper ones are checked fully.
  static let quickCheckDepth = 8
  /// How many keys an object may have for the quick check, which compares each with the
  /// others for duplicates; larger objects are checked fully.
  static let quickCheckKeys = 8

  /// Where the object whose `{` is at `start` ends, or `nil` (see
  /// ``quickPayloadEnd(in:at:)``).
  static func quickObjectEnd(in line: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int)
    -> Int?
  {
    let count = line.count
    guard start + 1 < count else { return nil }
    if line[start + 1] == UInt8(ascii: "}") { return start + 2 }
    // The keys so far, start and end: the payloads loggers write have a few.
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * quickCheckKeys) { keys in
      var index = start + 1
      var keyCount = 0
      while true {
        guard keyCount < quickCheckKeys, index < count, line[index] == UInt8(ascii: "\"") else {
          return nil
        }
        let keyStart = index + 1
        let keyEnd = plainStringEnd(in: line, from: keyStart)
        guard keyEnd > 0, keyEnd + 2 < count, line[keyEnd + 1] == UInt8(ascii: ":") else {
          return nil
        }
        for earlier in 0..<keyCount
        where sameBytes(in: line, keys[2 * earlier]..<keys[2 * earlier + 1], keyStart..<keyEnd) {
          return nil
        }
        keys[2 * keyCount] = keyStart
        keys[2 * keyCount + 1] = keyEnd
        keyCount += 1
        guard let end = quickValueEnd(in: line, at: keyEnd + 2, depth: depth), end < count else {
          return nil
        }
        if line[end] == UInt8(ascii: ",") {
          index = end + 1
          continue
        }
        return line[end] == UInt8(ascii: "}") ? end + 1 : nil
      }
    }
  }

  /// Whether two ranges of `line` hold the same bytes.
  @inline(__always)
  private static func sameBytes(
    in line: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>
  ) -> Bool {
    guard a.count == b.count else { return false }
    for offset in 0..<a.count where line[a.lowerBound + offset] != line[b.lowerBound + offset] {
      return false
    }
    return true
  }

  /// Where the array whose `[` is at `start` ends, or `nil`.
  static func quickArrayEnd(in line: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int)
    -> Int?
  {
    let count = line.count
    var index = start + 1
    guard index < count else { return nil }
    if line[index] == UInt8(ascii: "]") { return index + 1 }
    while true {
      guard let end = quickValueEnd(in: line, at: index, depth: depth), end < count else {
        return nil
      }
      if line[end] == UInt8(ascii: ",") {
        index = end + 1
        continue
      }
      return line[end] == UInt8(ascii: "]") ? end + 1 : nil
    }
  }

  /// Where the value that starts at `start` ends, inside a container `depth` deep, or `nil`.
  @inline(__always)
  static func quickValueEnd(in line: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int)
    -> Int?
  {
    let count = line.count
    switch line[start] {
    case UInt8(ascii: "\""):
      let end = plainStringEnd(in: line, from: start + 1)
      return end > 0 ? end + 1 : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      // As `JSONScanner.skipNumber` reads a number without converting it.
      var index = start
      if line[index] == UInt8(ascii: "-") { index += 1 }
      let digits = index
      while index < count, line[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      let integerDigits = index - digits
      guard integerDigits > 0, integerDigits < 300,
        integerDigits == 1 || line[digits] != UInt8(ascii: "0")
      else { return nil }
      if index < count, line[index] == UInt8(ascii: ".") {
        index += 1
        let fraction = index
        while index < count, line[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > fraction else { return nil }
      }
      guard index < count, line[index] | 0x20 != UInt8(ascii: "e") else { return nil }
      return index
    case UInt8(ascii: "t"):
      return hasWord("true", in: line, at: start) ? start + 4 : nil
    case UInt8(ascii: "f"):
      return hasWord("false", in: line, at: start) ? start + 5 : nil
    case UInt8(ascii: "n"):
      return hasWord("null", in: line, at: start) ? start + 4 : nil
    case UInt8(ascii: "{"):
      return depth < quickCheckDepth ? quickObjectEnd(in: line, at: start, depth: depth + 1) : nil
    case UInt8(ascii: "["):
      return depth < quickCheckDepth ? quickArrayEnd(in: line, at: start, depth: depth + 1) : nil
    default:
      return nil
    }
  }

  /// Whether `line` has `word` at `start`.
  @inline(__always)
  private static func hasWord(
    _ word: StaticString, in line: UnsafeBufferPointer<UInt8>, at start: Int
  ) -> Bool {
    let length = word.utf8CodeUnitCount
    guard start + length <= line.count else { return false }
    for offset in 0..<length where line[start + offset] != word.utf8Start[offset] {
      return false
    }
    return true
  }
}
