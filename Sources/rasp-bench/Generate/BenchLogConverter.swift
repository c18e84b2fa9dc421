#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Rewrites the lines of a benchmark log, one at a time, into another ``BenchLogFormat``.
///
/// The converter reads the one layout ``BenchLogGenerator`` writes —
/// `{"ts":"T","source":"S","type":"D.E","payload":P}`, the payload left out by events that have
/// none — by finding its fixed parts, without parsing JSON: the payload's bytes are copied as
/// they are. A line in any other layout (other keys, another order, spaces, escapes in the
/// strings) is refused, not guessed at. The type is split at its first dot. A Kafka message
/// also reads the time, and refuses one written otherwise than the generator writes it
/// (``BenchClock/milliseconds(ofRFC3339:)``); it holds the whole line as a JSON string.
///
/// `rasp-bench generate --format` and `rasp-bench formats` share it, so a converted log is the
/// same bytes whichever wrote it.
///
/// ```swift
/// var converter = BenchLogConverter(format: .fsa)
/// var bytes: [UInt8] = []
/// let line = Array(#"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.pop"}"#.utf8)
/// line.withUnsafeBufferPointer { converter.append($0, to: &bytes) }   // true
/// // {"type":"nav/pop","meta":{"timestamp":"2026-11-22T09:30:00.005Z"}}
/// ```
struct BenchLogConverter {
  /// The format lines are written in.
  let format: BenchLogFormat
  /// How many lines the converter has been given; a CloudEvents line's `id`, and one more than a
  /// Kafka message's `offset`.
  private(set) var lineNumber = 0

  /// Creates a converter whose line numbers start at 1.
  ///
  /// - Parameter format: The format to write.
  init(format: BenchLogFormat) {
    self.format = format
  }

  /// Appends `line`, rewritten into ``format``, and a line end to `bytes`.
  ///
  /// - Parameters:
  ///   - line: One line of a log in the generator's layout, without its line end.
  ///   - bytes: Where to write.
  /// - Returns: `false`, and nothing appended, when `line` is not in the generator's layout.
  /// - Complexity: O(*n*) in the length of the line.
  @discardableResult
  mutating func append(_ line: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
    lineNumber += 1
    guard let fields = Fields(line) else { return false }
    func copy(_ range: Range<Int>) {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[range]))
    }
    switch format {
    case .rasp:
      bytes.append(contentsOf: line)
    case .fsa:
      bytes.append(contentsOf: #"{"type":""#.utf8)
      copy(fields.domain)
      bytes.append(0x2F)
      copy(fields.event)
      if let payload = fields.payload {
        bytes.append(contentsOf: #"","payload":"#.utf8)
        copy(payload)
        bytes.append(contentsOf: #","meta":{"timestamp":""#.utf8)
      } else {
        bytes.append(contentsOf: #"","meta":{"timestamp":""#.utf8)
      }
      copy(fields.time)
      bytes.append(contentsOf: #""}}"#.utf8)
    case .cloudevents:
      bytes.append(contentsOf: #"{"specversion":"1.0","id":""#.utf8)
      BenchNumbers.appendWhole(UInt(lineNumber), to: &bytes)
      bytes.append(contentsOf: #"","source":""#.utf8)
      copy(fields.source)
      bytes.append(contentsOf: #"","type":"com.example."#.utf8)
      copy(fields.domain)
      bytes.append(0x2E)
      copy(fields.event)
      bytes.append(contentsOf: #"","time":""#.utf8)
      copy(fields.time)
      if let payload = fields.payload {
        bytes.append(contentsOf: #"","datacontenttype":"application/json","data":"#.utf8)
        copy(payload)
        bytes.append(0x7D)
      } else {
        bytes.append(contentsOf: #""}"#.utf8)
      }
    case .kcat:
      guard
        let milliseconds = BenchClock.milliseconds(
          ofRFC3339: UnsafeBufferPointer(rebasing: line[fields.time]))
      else { return false }
      bytes.append(contentsOf: #"{"topic":"events","partition":0,"offset":"#.utf8)
      BenchNumbers.appendWhole(UInt(lineNumber - 1), to: &bytes)
      bytes.append(contentsOf: #","tstype":"create","ts":"#.utf8)
      BenchNumbers.appendDecimal(Int(milliseconds), fractionDigits: 0, to: &bytes)
      bytes.append(contentsOf: #","broker":1,"key":""#.utf8)
      copy(fields.source)
      bytes.append(contentsOf: #"","payload":""#.utf8)
      Self.appendStringContents(line, to: &bytes)
      bytes.append(contentsOf: #""}"#.utf8)
    }
    bytes.append(0x0A)
    return true
  }

  /// Appends `text` as the contents of a JSON string: `"` and `\` escaped with a backslash,
  /// control characters as `\n`, `\t`, … or `\u00XX`, all else (UTF-8 included) as it is.
  ///
  /// - Parameters:
  ///   - text: The bytes to write.
  ///   - bytes: Where to write, without quotes.
  /// - Complexity: O(*n*) in the length of `text`: one pass to measure, one to write in place.
  static func appendStringContents(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    var length = text.count
    for byte in text where byte == 0x22 || byte == 0x5C || byte < 0x20 {
      length += shortEscape(byte) == nil ? 5 : 1
    }
    var position = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: length))
    bytes.withUnsafeMutableBufferPointer { buffer in
      func write(_ byte: UInt8) {
        buffer[position] = byte
        position += 1
      }
      for byte in text {
        guard byte == 0x22 || byte == 0x5C || byte < 0x20 else {
          write(byte)
          continue
        }
        write(0x5C)
        if let letter = shortEscape(byte) {
          write(letter)
        } else {
          let digits: StaticString = "0123456789abcdef"
          for byte in "u00".utf8 { write(byte) }
          write(digits.utf8Start[Int(byte >> 4)])
          write(digits.utf8Start[Int(byte & 0xF)])
        }
      }
    }
  }

  /// What follows the backslash when `byte` is escaped in two characters (`"` for `"`, `n` for a
  /// line feed), or `nil` when it is written `\u00XX`.
  private static func shortEscape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x22, 0x5C: byte
    case 0x08: 0x62
    case 0x09: 0x74
    case 0x0A: 0x6E
    case 0x0C: 0x66
    case 0x0D: 0x72
    default: nil
    }
  }

  /// Where the parts of a line in the generator's layout are, as ranges of its bytes.
  struct Fields {
    /// The `ts` string's contents.
    var time: Range<Int>
    /// The `source` string's contents.
    var source: Range<Int>
    /// The type up to its first dot.
    var domain: Range<Int>
    /// The type after its first dot.
    var event: Range<Int>
    /// The payload's JSON text, or `nil` when the line has none.
    var payload: Range<Int>?

    /// Finds the parts of `line`, or returns `nil` when it is not in the generator's layout.
    ///
    /// - Parameter line: The line, without its line end.
    init?(_ line: UnsafeBufferPointer<UInt8>) {
      var position = 0
      guard let time = Self.string(in: line, after: #"{"ts":""#, at: &position),
        let source = Self.string(in: line, after: #","source":""#, at: &position),
        let type = Self.string(in: line, after: #","type":""#, at: &position),
        let dot = line[type].firstIndex(of: 0x2E), dot > type.lowerBound,
        dot + 1 < type.upperBound
      else { return nil }
      self.time = time
      self.source = source
      domain = type.lowerBound..<dot
      event = dot + 1..<type.upperBound
      if position == line.count - 1, line[position] == 0x7D {
        payload = nil
      } else if Self.has(#","payload":"#, in: line, at: position), line.last == 0x7D,
        position + 11 < line.count - 1
      {
        payload = position + 11..<line.count - 1
      } else {
        return nil
      }
    }

    /// The contents of the string that follows `prefix` at `position`, which moves past its
    /// closing quote; `nil` when `prefix` is not there, or the string holds a backslash.
    private static func string(
      in line: UnsafeBufferPointer<UInt8>, after prefix: StaticString, at position: inout Int
    ) -> Range<Int>? {
      guard has(prefix, in: line, at: position) else { return nil }
      let start = position + prefix.utf8CodeUnitCount
      guard start <= line.count,
        let found = memchr(line.baseAddress! + start, 0x22, line.count - start)
      else { return nil }
      let end = start + UnsafeRawPointer(line.baseAddress! + start).distance(to: found)
      guard memchr(line.baseAddress! + start, 0x5C, end - start) == nil else { return nil }
      position = end + 1
      return start..<end
    }

    /// Whether `line` holds the bytes of `literal` at `position`.
    private static func has(
      _ literal: StaticString, in line: UnsafeBufferPointer<UInt8>, at position: Int
    ) -> Bool {
      let count = literal.utf8CodeUnitCount
      return position + count <= line.count
        && memcmp(line.baseAddress! + position, literal.utf8Start, count) == 0
    }
  }
}
