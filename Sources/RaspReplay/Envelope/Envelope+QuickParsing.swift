import RaspDomains
import RaspJSON

extension Envelope {
  /// Reads the envelope of a line in the shape loggers write — compact, keys among `type`,
  /// `ts`, `source` and `payload` in any order, ASCII text without escapes — in one tight pass,
  /// or returns `nil` for any other line, which ``parse(_:)`` then reads carefully.
  ///
  /// It accepts exactly what the careful reader accepts and builds the same event; it only
  /// gives up earlier, on anything unusual (whitespace, escapes, other keys, non-ASCII text,
  /// `null` values, or any mistake), leaving the careful reader to accept or explain it. The
  /// payload's braces are matched here; its contents are checked by the domain's decoder.
  ///
  /// `memo` holds the minute of the last `ts` read, shared by the lines of one log. With
  /// `assumingPayloadEnd`, a payload that follows the `type` and ends the line is not matched:
  /// see ``AssumedPayloadEnd``.
  @inline(__always)
  static func parseQuickly(
    _ line: UnsafeBufferPointer<UInt8>, memo: inout RaspTimestamp.Memo,
    assumingPayloadEnd: Bool = false
  ) -> Envelope? {
    if let envelope = parseInRecordedOrder(
      line, memo: &memo, assumingPayloadEnd: assumingPayloadEnd)
    {
      return envelope
    }
    let count = line.count
    guard count > 2, line[0] == UInt8(ascii: "{") else { return nil }
    var index = 1
    var typeStart = -1
    var typeEnd = -1
    var dot = -1
    var payloadOffset: Int?
    var isPayloadEndAssumed = false
    var timestamp: RaspTimestamp?
    var timestampRange: Range<Int>?
    var isEpochSeconds = false
    var source: JSONRawString?
    var seen: UInt8 = 0
    // The other members' keys, for duplicates: a line has few.
    var extras = 0
    var extraKeys = (0..<0, 0..<0)
    @inline(__always) func plainString(from start: Int) -> Int {
      Envelope.plainStringEnd(in: line, from: start)
    }
    while true {
      guard index < count, line[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      let keyEnd = plainString(from: keyStart)
      guard keyEnd > 0, keyEnd + 1 < count, line[keyEnd + 1] == UInt8(ascii: ":") else {
        return nil
      }
      index = keyEnd + 2
      guard index < count else { return nil }
      let first = line[index]
      // The envelope's four names, by length and bytes; any other key is another member.
      switch keyEnd - keyStart {
      case 4
      where line[keyStart] == UInt8(ascii: "t") && line[keyStart + 1] == UInt8(ascii: "y")
        && line[keyStart + 2] == UInt8(ascii: "p") && line[keyStart + 3] == UInt8(ascii: "e"):
        guard seen & 1 == 0, first == UInt8(ascii: "\"") else { return nil }
        seen |= 1
        typeStart = index + 1
        typeEnd = plainString(from: typeStart)
        guard typeEnd > 0 else { return nil }
        var at = typeStart
        while at < typeEnd, line[at] != UInt8(ascii: ".") { at += 1 }
        guard at > typeStart, at + 1 < typeEnd else { return nil }
        dot = at
        index = typeEnd + 1
      case 2 where line[keyStart] == UInt8(ascii: "t") && line[keyStart + 1] == UInt8(ascii: "s"):
        guard seen & 2 == 0 else { return nil }
        seen |= 2
        let valueStart = index
        if first == UInt8(ascii: "\"") {
          let end = plainString(from: index + 1)
          guard end > 0,
            let time = RaspTimestamp.quickRFC3339(
              UnsafeBufferPointer(rebasing: line[(index + 1)..<end]), memo: &memo)
          else { return nil }
          timestamp = time
          index = end + 1
        } else {
          var at = index
          while at < count {
            let byte = line[at]
            guard
              byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-")
            else { break }
            at += 1
          }
          let text = UnsafeBufferPointer(rebasing: line[index..<at])
          guard at > index, Envelope.isPlainJSONNumber(text),
            RaspTimestamp.isPlainEpochSeconds(text)
          else { return nil }
          isEpochSeconds = true
          index = at
        }
        timestampRange = valueStart..<index
      case 6
      where line[keyStart] == UInt8(ascii: "s") && line[keyStart + 1] == UInt8(ascii: "o")
        && line[keyStart + 2] == UInt8(ascii: "u") && line[keyStart + 3] == UInt8(ascii: "r")
        && line[keyStart + 4] == UInt8(ascii: "c") && line[keyStart + 5] == UInt8(ascii: "e"):
        guard seen & 4 == 0, first == UInt8(ascii: "\"") else { return nil }
        seen |= 4
        let end = plainString(from: index + 1)
        guard end > 0 else { return nil }
        source = JSONRawString(start: index + 1, end: end, hasEscapes: false)
        index = end + 1
      case 7
      where line[keyStart] == UInt8(ascii: "p") && line[keyStart + 1] == UInt8(ascii: "a")
        && line[keyStart + 2] == UInt8(ascii: "y") && line[keyStart + 3] == UInt8(ascii: "l")
        && line[keyStart + 4] == UInt8(ascii: "o") && line[keyStart + 5] == UInt8(ascii: "a")
        && line[keyStart + 6] == UInt8(ascii: "d"):
        guard seen & 8 == 0, first == UInt8(ascii: "{") else { return nil }
        seen |= 8
        payloadOffset = index
        if assumingPayloadEnd, typeStart >= 0,
          AssumedPayloadEnd.applies(to: line, payloadStart: index)
        {
          isPayloadEndAssumed = true
          index = AssumedPayloadEnd.end(of: line)
        } else {
          var scanner = JSONScanner(line, position: index)
          guard scanner.skipContainerWithoutValidating() else { return nil }
          index = scanner.position
        }
      default:
        // Another member, kept in the line (an app's `userId`, a device): its key must differ
        // from the others', and its value be one the careful reader accepts.
        guard extras < 3 else { return nil }
        let keyCount = keyEnd - keyStart
        if extras > 0, keyCount == extraKeys.0.count,
          line[extraKeys.0].elementsEqual(line[keyStart..<keyEnd])
        {
          return nil
        }
        if extras > 1, keyCount == extraKeys.1.count,
          line[extraKeys.1].elementsEqual(line[keyStart..<keyEnd])
        {
          return nil
        }
        switch extras {
        case 0: extraKeys.0 = keyStart..<keyEnd
        case 1: extraKeys.1 = keyStart..<keyEnd
        default: break
        }
        extras += 1
        guard let end = skipPlainValue(in: line, at: index) else { return nil }
        index = end
      }
      guard index < count else { return nil }
      if line[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard line[index] == UInt8(ascii: "}"), index + 1 == count, typeStart >= 0 else { return nil }
      break
    }
    return Envelope(
      line: line, type: JSONRawString(start: typeStart, end: typeEnd, hasEscapes: false), dot: dot,
      payloadOffset: payloadOffset, timestamp: timestamp, timestampRange: timestampRange,
      isEpochSeconds: isEpochSeconds, source: source, isPayloadEndAssumed: isPayloadEndAssumed)
  }

  /// Reads the envelope of a line in the order rasp's recorder and `rasp-bench generate` write
  /// it — `{"ts":"…","source":"…","type":"…","payload":{…}}`, the payload optional — with each
  /// key matched as eight bytes at once; `nil` for any other line, which
  /// ``parseQuickly(_:memo:assumingPayloadEnd:)`` reads key by key. The envelope is the one
  /// that reading gives.
  @inline(__always)
  static func parseInRecordedOrder(
    _ line: UnsafeBufferPointer<UInt8>, memo: inout RaspTimestamp.Memo,
    assumingPayloadEnd: Bool
  ) -> Envelope? {
    let count = line.count
    guard count >= 48, let base = line.baseAddress else { return nil }
    // Eight bytes of the line, little-endian, from `offset`, which is at most `count - 8`.
    @inline(__always) func word(_ offset: Int) -> UInt64 {
      UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }
    // `{"ts":"`
    guard word(0) & 0x00FF_FFFF_FFFF_FFFF == 0x0022_3A22_7374_227B else { return nil }
    // A time of the usual 24 bytes (`2026-11-22T09:30:00.005Z`) is read where its end would be,
    // without looking for it: reading it checks every byte, and none of a time is a quote, an
    // escape or a control character. Any other is read up to the quote that ends it.
    var timeEnd = 31
    var read: RaspTimestamp?
    if line[31] == UInt8(ascii: "\"") {
      read = RaspTimestamp.quickRFC3339(UnsafeBufferPointer(rebasing: line[7..<31]), memo: &memo)
    }
    if read == nil {
      timeEnd = plainStringEnd(in: line, from: 7)
      guard timeEnd > 0 else { return nil }
      read = RaspTimestamp.quickRFC3339(
        UnsafeBufferPointer(rebasing: line[7..<timeEnd]), memo: &memo)
    }
    // `","source":"`
    guard let time = read, timeEnd + 20 <= count, word(timeEnd) == 0x6372_756F_7322_2C22,
      word(timeEnd + 4) == 0x223A_2265_6372_756F
    else { return nil }
    let sourceStart = timeEnd + 12
    let sourceEnd = plainStringEnd(in: line, from: sourceStart)
    // `","type":"`
    guard sourceEnd > 0, sourceEnd + 18 <= count, word(sourceEnd) == 0x2265_7079_7422_2C22,
      word(sourceEnd + 2) == 0x223A_2265_7079_7422
    else { return nil }
    let typeStart = sourceEnd + 10
    let typeEnd = plainStringEnd(in: line, from: typeStart)
    guard typeEnd > 0 else { return nil }
    var dot = typeStart
    while dot < typeEnd, line[dot] != UInt8(ascii: ".") { dot += 1 }
    guard dot > typeStart, dot + 1 < typeEnd else { return nil }
    var payloadOffset: Int?
    var isPayloadEndAssumed = false
    if typeEnd + 2 == count {
      guard line[typeEnd + 1] == UInt8(ascii: "}") else { return nil }
    } else {
      // `","payload":{`, and the payload ends the line.
      let payload = typeEnd + 12
      guard payload + 2 < count, word(typeEnd) == 0x6F6C_7961_7022_2C22,
        word(typeEnd + 5) == 0x7B3A_2264_616F_6C79
      else { return nil }
      payloadOffset = payload
      if assumingPayloadEnd, AssumedPayloadEnd.applies(to: line, payloadStart: payload) {
        isPayloadEndAssumed = true
      } else {
        var scanner = JSONScanner(line, position: payload)
        guard scanner.skipContainerWithoutValidating(), scanner.position + 1 == count,
          line[scanner.position] == UInt8(ascii: "}")
        else { return nil }
      }
    }
    return Envelope(
      line: line, type: JSONRawString(start: typeStart, end: typeEnd, hasEscapes: false),
      dot: dot, payloadOffset: payloadOffset, timestamp: time, timestampRange: 6..<(timeEnd + 1),
      isEpochSeconds: false,
      source: JSONRawString(start: sourceStart, end: sourceEnd, hasEscapes: false),
      isPayloadEndAssumed: isPayloadEndAssumed)
  }

  /// Where a member's value that starts at `start` ends, for a value the careful reader
  /// accepts: a plain ASCII string, a number without an exponent, `true`, `false`, `null`, or
  /// an array or object checked completely; `nil` for any other, which the careful reader
  /// explains.
  @inline(never)
  static func skipPlainValue(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    let count = line.count
    switch line[start] {
    case UInt8(ascii: "\""):
      let end = plainStringEnd(in: line, from: start + 1)
      return end > 0 ? end + 1 : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      var end = start + 1
      while end < count, line[end] &- UInt8(ascii: "0") < 10 || line[end] == UInt8(ascii: ".") {
        end += 1
      }
      // A long number may be out of a double's range: the careful reader says so.
      guard end - start <= 100 else { return nil }
      return isPlainJSONNumber(UnsafeBufferPointer(rebasing: line[start..<end])) ? end : nil
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "["),
      UInt8(ascii: "{"):
      var scanner = JSONScanner(line, position: start)
      scanner.depth = 1  // inside the line's object, so the nesting limit holds
      guard (try? scanner.skipValue()) != nil else { return nil }
      return scanner.position
    default:
      return nil
    }
  }

  /// Moves past an ASCII string without escapes starting after its opening quote at `start`;
  /// returns the offset of the closing quote, or -1 when the string has an escape, a control
  /// character or a non-ASCII byte, or does not end in `line`
  /// (``RaspJSON/JSONScanner/plainStringEnd(in:from:)``).
  @inline(__always)
  static func plainStringEnd(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    JSONScanner.plainStringEnd(in: line, from: start)
  }

  /// Whether text is a JSON number without an exponent: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`.
  @inline(__always)
  static func isPlainJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = text.count
    if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
    let digits = index
    while index < count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    guard index > digits, index - digits == 1 || text[digits] != UInt8(ascii: "0") else {
      return false
    }
    if index < count, text[index] == UInt8(ascii: ".") {
      index += 1
      let fraction = index
      while index < count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      guard index > fraction else { return false }
    }
    return index == count
  }
}
