#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspDomains
import RaspJSON

/// Reads a line whose event is one of rasp's own lines held as JSON text in a string — a Kafka
/// message as `kcat -C -J` prints it — in one tight pass, or returns `nil` for any other line,
/// which the map's reader then reads (and explains).
///
/// It is to a map's `inner` what ``Envelope/parseQuickly(_:memo:assumingPayloadEnd:)`` is to
/// rasp's own lines: it accepts only the shape producers write — a compact message whose keys
/// and other strings are plain ASCII, a payload string whose only escapes are `\"`, `\\` and
/// `\/`, holding an event the quick envelope parser reads — and gives up on anything else,
/// leaving the careful reader to accept it or say what is wrong. Whatever it accepts, it reads
/// as the map's reader does: the same bytes written into the arena (the message with its
/// string replaced by the text it holds) and the same envelope, which
/// `InnerEventQuickReaderTests` checks line by line against that reader.
///
/// In one pass over the message it checks every member (syntax, duplicate keys), finds the
/// message's time and source, and unescapes the payload string straight into the arena, eight
/// bytes at a time; the event's envelope is then read by the quick envelope parser, whose
/// payload is checked by its domain's decoder as any payload is.
///
/// ```swift
/// var quick = InnerEventQuickReader(table: table)
/// if let read = quick?.read(line, arena: &arena, memo: &memo) { use(read.envelope) }
/// ```
struct InnerEventQuickReader {
  /// What a message read quickly gives.
  struct Read {
    /// The message with its string replaced by the text it held, in the arena.
    let event: UnsafeBufferPointer<UInt8>
    /// The envelope of the event, whose places are in ``event``.
    let envelope: Envelope
    /// Where the string was in the line, quotes included.
    let stringRange: Range<Int>
    /// How long the text it held is.
    let textLength: Int
  }

  /// The table the event's type is numbered in.
  private let table: TypeTable
  /// The message's member that holds the event's text (`payload`).
  private let innerKey: [UInt8]
  /// The message's member whose time an event without its own takes (`ts`), and its unit.
  private let timeKey: [UInt8]?
  private let timeUnit: LogFormat.TimeUnit
  /// The message's member that is the source of an event without its own (`topic`).
  private let sourceKey: [UInt8]?
  /// Where the keys of the message being read are, for finding duplicates.
  private var keys: [(start: Int, count: Int)] = []

  /// A quick reader for the lines of the table's format, or `nil` when that format is not one
  /// it reads: one whose `inner` holds rasp's own lines in a top-level member, whose time and
  /// source are each one top-level member, and which moves no payload field.
  init?(table: TypeTable) {
    let format = table.lineFormat
    guard let inner = format.inner, inner.format.isRasp, format.fieldMoves == nil,
      let innerKey = Self.topLevelKey(inner.path), format.time.count <= 1,
      format.source.count <= 1
    else { return nil }
    self.table = table
    self.innerKey = innerKey
    if let path = format.time.first {
      guard let key = Self.topLevelKey(path), format.timeUnit != .rfc3339 else { return nil }
      timeKey = key
    } else {
      timeKey = nil
    }
    timeUnit = format.timeUnit
    if let path = format.source.first {
      guard let key = Self.topLevelKey(path) else { return nil }
      sourceKey = key
    } else {
      sourceKey = nil
    }
  }

  /// The UTF-8 bytes of a path that is one key of the line's object.
  private static func topLevelKey(_ path: JSONPath) -> [UInt8]? {
    guard path.components.count == 1, case .key(let key) = path.components[0] else { return nil }
    return Array(key.utf8)
  }

  /// Which of the members the quick reader looks for a key is.
  private enum Member {
    case inner, time, source, other
  }

  private func member(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Member {
    func isKey(_ key: [UInt8]?) -> Bool {
      guard let key, key.count == count, let base = line.baseAddress else { return false }
      return key.withUnsafeBufferPointer { key in
        guard let bytes = key.baseAddress else { return count == 0 }
        return memcmp(bytes, base + start, count) == 0
      }
    }
    if isKey(innerKey) { return .inner }
    if isKey(timeKey) { return .time }
    if isKey(sourceKey) { return .source }
    return .other
  }

  /// Reads one message, or returns `nil` for a line the map's reader must read.
  ///
  /// - Parameters:
  ///   - line: The line, not blank, not too long.
  ///   - arena: Where the event is written; bytes written for a line given up on are left
  ///     unused.
  ///   - memo: The minute of the last RFC 3339 time read, updated.
  /// - Returns: The message read, or `nil` when the map's reader must read the line.
  mutating func read(
    _ line: UnsafeBufferPointer<UInt8>, arena: inout ByteArena, memo: inout RaspTimestamp.Memo
  ) -> Read? {
    var string: Range<Int>?
    var textLength = 0
    var time: Range<Int>?
    var source: Range<Int>?
    let event = arena.write(maximumCount: line.count) { output in
      guard let found = scan(line, into: output, time: &time, source: &source) else { return 0 }
      string = found.string
      textLength = found.textLength
      return found.count
    }
    guard let string, event.count > 0 else { return nil }
    // Places after the string moved by the difference between the text and its escaped form.
    let shift = textLength - string.count
    func moved(_ range: Range<Int>) -> Range<Int> {
      range.lowerBound < string.lowerBound
        ? range : (range.lowerBound + shift)..<(range.upperBound + shift)
    }
    let start = string.lowerBound
    let text = UnsafeBufferPointer(rebasing: event[start..<(start + textLength)])
    guard let inner = Envelope.parseQuickly(text, memo: &memo) else { return nil }
    let typeRange = (start + Int(inner.typeStart))..<(start + Int(inner.typeEnd))
    guard case .type(let id) = table.intern(bytes: UnsafeBufferPointer(rebasing: event[typeRange]))
    else { return nil }
    var timestamp: RaspTimestamp?
    var timestampRange: Range<Int>?
    if let range = inner.context.timestampRange {
      timestampRange = (start + range.lowerBound)..<(start + range.upperBound)
      // A number is seconds, checked but not read by the quick parser; a string was read.
      if text[range.lowerBound] != UInt8(ascii: "\"") {
        let digits = UnsafeBufferPointer(rebasing: text[range])
        do throws(EpochTime.Failure) {
          try EpochTime.checkUnitlessSeconds(digits)
          timestamp = try EpochTime.read(digits, unit: .s)
        } catch {
          return nil
        }
      } else {
        timestamp = inner.context.timestamp
      }
    } else if let time {
      let range = moved(time)
      guard
        let read = try? EpochTime.read(UnsafeBufferPointer(rebasing: event[range]), unit: timeUnit)
      else { return nil }
      timestamp = read
      timestampRange = range
    }
    var sourceString: JSONRawString?
    if let raw = inner.context.sourceString {
      sourceString = JSONRawString(
        start: start + raw.start, end: start + raw.end, hasEscapes: false)
    } else if let source {
      let range = moved(source)
      sourceString = JSONRawString(
        start: range.lowerBound + 1, end: range.upperBound - 1, hasEscapes: false)
    }
    let envelope = Envelope(
      line: event, mappedType: id, typeRange: typeRange,
      payloadOffset: inner.payloadOffset.map { start + $0 }, timestamp: timestamp,
      timestampRange: timestampRange, source: sourceString, eventOffset: start)
    return Read(event: event, envelope: envelope, stringRange: string, textLength: textLength)
  }

  /// What ``scan(_:into:time:source:)`` found.
  private struct Scanned {
    /// Where the payload string is in the line, quotes included.
    let string: Range<Int>
    /// How long the text it holds is.
    let textLength: Int
    /// How many bytes were written: the whole event.
    let count: Int
  }

  /// Checks the message's members and writes the event into `output`: the line before the
  /// string, the text it holds, the line after it. `time` and `source` are where the message's
  /// members of those names are (a number, a plain string), in the line.
  private mutating func scan(
    _ line: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
    time: inout Range<Int>?, source: inout Range<Int>?
  ) -> Scanned? {
    let count = line.count
    guard count > 2, line[0] == UInt8(ascii: "{"), let base = line.baseAddress,
      let out = output.baseAddress
    else { return nil }
    keys.removeAll(keepingCapacity: true)
    var index = 1
    var string: Range<Int>?
    var textEnd = 0
    while true {
      guard index < count, line[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      let keyEnd = Envelope.plainStringEnd(in: line, from: keyStart)
      guard keyEnd > 0, keyEnd + 2 < count, line[keyEnd + 1] == UInt8(ascii: ":") else {
        return nil
      }
      let keyCount = keyEnd - keyStart
      for key in keys where key.count == keyCount {
        if memcmp(base + key.start, base + keyStart, keyCount) == 0 { return nil }
      }
      keys.append((keyStart, keyCount))
      index = keyEnd + 2
      let which = member(line, keyStart, keyCount)
      let valueStart = index
      switch line[index] {
      case UInt8(ascii: "\""):
        if which == .inner {
          // The line up to the string, then the text it holds.
          out.update(from: base, count: index)
          guard let (quote, written) = Self.unescape(line, from: index + 1, into: out + index)
          else { return nil }
          string = index..<(quote + 1)
          textEnd = index + written
          index = quote + 1
        } else {
          // A time in a string is read by the map's reader.
          let end = Envelope.plainStringEnd(in: line, from: index + 1)
          guard end > 0, which != .time else { return nil }
          index = end + 1
          if which == .source { source = valueStart..<index }
        }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard which == .other || which == .time else { return nil }
        while index < count,
          line[index] &- UInt8(ascii: "0") < 10 || line[index] == UInt8(ascii: ".")
            || line[index] == UInt8(ascii: "-")
        {
          index += 1
        }
        // A long number may be out of a double's range: the map's reader says so.
        guard index - valueStart <= 100,
          Envelope.isPlainJSONNumber(UnsafeBufferPointer(rebasing: line[valueStart..<index]))
        else { return nil }
        if which == .time { time = valueStart..<index }
      case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "n"), UInt8(ascii: "t"),
        UInt8(ascii: "f"):
        // kcat's `headers`, a `key` of null: checked completely. A null payload, time or
        // source, or one of the wrong kind, is read by the map's reader.
        guard which == .other else { return nil }
        var scanner = JSONScanner(line, position: index)
        scanner.depth = 1
        guard (try? scanner.skipValue()) != nil else { return nil }
        index = scanner.position
      default:
        return nil
      }
      guard index < count else { return nil }
      if line[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard line[index] == UInt8(ascii: "}"), index + 1 == count else { return nil }
      break
    }
    guard let string else { return nil }
    // The line after the string.
    let suffix = count - string.upperBound
    (out + textEnd).update(from: base + string.upperBound, count: suffix)
    return Scanned(string: string, textLength: textEnd - string.lowerBound, count: textEnd + suffix)
  }

  /// Copies a string's contents from `start` (after its opening quote) into `out`, decoding
  /// `\"`, `\\` and `\/`, eight bytes at a time; returns where its closing quote is and how
  /// many bytes were written, or `nil` for a string with any other escape, a control character
  /// or ill-formed UTF-8, or one that does not end.
  ///
  /// `out` must have room for the rest of the line from `start`, plus 7 bytes, which it has
  /// when it is the line's place in a buffer as long as the line: the text is never longer
  /// than its escaped form, and a word is written only where 8 bytes of the line are left.
  @inline(__always)
  private static func unescape(
    _ line: UnsafeBufferPointer<UInt8>, from start: Int, into out: UnsafeMutablePointer<UInt8>
  ) -> (quote: Int, written: Int)? {
    guard let base = line.baseAddress else { return nil }
    let count = line.count
    var at = start
    var written = 0
    while true {
      while at + 8 <= count {
        let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
        let mask = JSONScanner.specialByteMask(word)
        if mask != 0 {
          let plain = mask.trailingZeroBitCount >> 3
          at += plain
          written += plain
          break
        }
        at += 8
        written += 8
      }
      guard at < count else { return nil }
      let byte = line[at]
      switch byte {
      case UInt8(ascii: "\""):
        return (at, written)
      case UInt8(ascii: "\\"):
        guard at + 1 < count else { return nil }
        let escaped = line[at + 1]
        guard
          escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\")
            || escaped == UInt8(ascii: "/")
        else { return nil }
        out[written] = escaped
        written += 1
        at += 2
      case 0x20..<0x80:
        out[written] = byte
        written += 1
        at += 1
      case 0x80...:
        // Text in any language, copied once its UTF-8 is checked.
        var scanner = JSONScanner(line, position: at)
        guard (try? scanner.skipUTF8Sequence()) != nil else { return nil }
        while at < scanner.position {
          out[written] = line[at]
          written += 1
          at += 1
        }
      default:
        return nil
      }
    }
  }
}
