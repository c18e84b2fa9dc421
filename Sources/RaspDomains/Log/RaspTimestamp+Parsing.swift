extension RaspTimestamp {
  /// Reads an RFC 3339 date-time: `2026-11-22T09:30:00Z`, with an optional fraction of up to
  /// nine digits and a `Z` or `±HH:MM` offset. `t`, `z` and a space for `T` are accepted too.
  ///
  /// ```swift
  /// let t = try RaspTimestamp(rfc3339: "2026-11-22T09:30:00.250+01:00")
  /// print(t)   // 2026-11-22T08:30:00.25Z
  /// ```
  ///
  /// - Parameter text: The date-time.
  /// - Throws: ``RaspTimestampError`` saying what is wrong.
  public init(rfc3339 text: String) throws(RaspTimestampError) {
    var text = text
    let result: Result<RaspTimestamp, RaspTimestampError> = text.withUTF8 { bytes in
      Result { () throws(RaspTimestampError) in try RaspTimestamp(rfc3339: bytes) }
    }
    self = try result.get()
  }

  /// Reads an RFC 3339 date-time from its UTF-8 bytes, without making a string of them.
  ///
  /// The same date-times as ``init(rfc3339:)-(String)``, read from bytes a program already
  /// holds: a field of a line read as bytes, a slice of a buffer. The span only borrows the
  /// bytes for the call.
  ///
  /// ```swift
  /// let line = Array(#"{"ts":"2026-11-22T09:30:00Z"}"#.utf8)
  /// let t = try RaspTimestamp(rfc3339: line.span.extracting(7..<27))
  /// print(t)   // 2026-11-22T09:30:00Z
  /// ```
  ///
  /// - Parameter bytes: The date-time's bytes, and nothing else.
  /// - Throws: ``RaspTimestampError`` saying what is wrong.
  public init(rfc3339 bytes: Span<UInt8>) throws(RaspTimestampError) {
    let result: Result<RaspTimestamp, RaspTimestampError> = bytes.withUnsafeBufferPointer {
      buffer in
      Result { () throws(RaspTimestampError) in try RaspTimestamp(rfc3339: buffer) }
    }
    self = try result.get()
  }

  /// Reads an RFC 3339 date-time from UTF-8 bytes in memory the caller keeps valid: the
  /// replay's own path, which reads times straight from its buffers (``init(rfc3339:)-(Span)``
  /// is the public form).
  ///
  /// ```swift
  /// let t = try RaspTimestamp(rfc3339: scanner.bytes(of: raw))
  /// ```
  ///
  /// - Parameter bytes: The date-time's bytes.
  /// - Throws: ``RaspTimestampError`` saying what is wrong.
  package init(rfc3339 bytes: UnsafeBufferPointer<UInt8>) throws(RaspTimestampError) {
    if let quick = RaspTimestamp.quickRFC3339(bytes) {
      self = quick
      return
    }
    try self.init(checkingRFC3339: bytes)
  }

  /// The minute of the last RFC 3339 time read quickly, so that the next time in the same
  /// minute — nearly every time in a log — is read from its seconds on.
  ///
  /// A log's times share their date, hour and minute with the line before far more often than
  /// not; checking and converting those sixteen bytes is most of the work of reading a time.
  /// The memo keeps them, as two words, beside the seconds from the epoch to that minute, and
  /// only ever holds a prefix that was checked in full. The replay's envelope parser keeps one
  /// per log.
  ///
  /// ```swift
  /// var memo = RaspTimestamp.Memo()
  /// let time = RaspTimestamp.quickRFC3339(bytes, memo: &memo)
  /// ```
  package struct Memo: Sendable {
    /// Whether the memo holds a minute.
    var isSet = false
    /// The first eight bytes, `YYYY-MM-`, of the last minute read.
    var head: UInt64 = 0
    /// The next eight, `DDTHH:MM`.
    var tail: UInt64 = 0
    /// Seconds from the epoch to that minute, in the time's own offset.
    var minuteStart: Int64 = 0

    /// An empty memo.
    ///
    /// ```swift
    /// var memo = RaspTimestamp.Memo()
    /// ```
    package init() {}

    init(head: UInt64, tail: UInt64, minuteStart: Int64) {
      self.isSet = true
      self.head = head
      self.tail = tail
      self.minuteStart = minuteStart
    }
  }

  /// Reads the usual shape of an RFC 3339 time — `YYYY-MM-DDTHH:MM:SS`, an optional fraction,
  /// then `Z` or `±HH:MM` — by position, or returns `nil` for anything else, which the careful
  /// reader then explains.
  @inline(__always)
  package static func quickRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) -> RaspTimestamp? {
    var memo = Memo()
    return quickRFC3339(bytes, memo: &memo)
  }

  /// Reads a time as ``quickRFC3339(_:)`` does, skipping the date, hour and minute when they
  /// are the memo's, and leaving the memo with this time's minute.
  @inline(__always)
  package static func quickRFC3339(_ bytes: UnsafeBufferPointer<UInt8>, memo: inout Memo)
    -> RaspTimestamp?
  {
    let count = bytes.count
    guard count >= 20, let base = bytes.baseAddress else { return nil }
    @inline(__always) func d(_ index: Int) -> Int64 { Int64(base[index] &- UInt8(ascii: "0")) }
    @inline(__always) func isDigit(_ index: Int) -> Bool { base[index] &- UInt8(ascii: "0") < 10 }
    let raw = UnsafeRawPointer(base)
    let head = raw.loadUnaligned(as: UInt64.self)
    let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    var minuteStart = memo.minuteStart
    if !memo.isSet || head != memo.head || tail != memo.tail {
      // Digits at fixed places: YYYY-MM-DDTHH:MM
      let separator = base[10]
      guard isDigit(0), isDigit(1), isDigit(2), isDigit(3), isDigit(5), isDigit(6), isDigit(8),
        isDigit(9), isDigit(11), isDigit(12), isDigit(14), isDigit(15),
        base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"),
        separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
        base[13] == UInt8(ascii: ":")
      else { return nil }
      let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
      let month = d(5) * 10 + d(6)
      let day = d(8) * 10 + d(9)
      let hour = d(11) * 10 + d(12)
      let minute = d(14) * 10 + d(15)
      guard month >= 1, month <= 12, day >= 1, day <= daysInMonth(year: year, month: month),
        hour < 24, minute < 60
      else { return nil }
      minuteStart =
        RaspTimestamp.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
      memo = Memo(head: head, tail: tail, minuteStart: minuteStart)
    }
    if count == 24, let time = millisecondsInUTC(raw, after: minuteStart) { return time }
    guard base[16] == UInt8(ascii: ":"), isDigit(17), isDigit(18) else { return nil }
    let second = d(17) * 10 + d(18)
    guard second <= 60 else { return nil }
    var index = 19
    var nanoseconds: Int64 = 0
    if base[index] == UInt8(ascii: ".") {
      index += 1
      let fractionStart = index
      while index < count, base[index] &- UInt8(ascii: "0") < 10 {
        if index - fractionStart < 9 { nanoseconds = nanoseconds &* 10 &+ d(index) }
        index += 1
      }
      let digits = index - fractionStart
      guard digits > 0 else { return nil }
      nanoseconds &*= fractionScale(digits: digits)
    }
    guard index < count else { return nil }
    var offset: Int64 = 0
    let zone = base[index]
    if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
      index += 1
    } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
      guard index + 6 == count, base[index + 3] == UInt8(ascii: ":") else { return nil }
      let hours = base[index + 1] &- UInt8(ascii: "0")
      let hours2 = base[index + 2] &- UInt8(ascii: "0")
      let minutes = base[index + 4] &- UInt8(ascii: "0")
      let minutes2 = base[index + 5] &- UInt8(ascii: "0")
      guard hours < 10, hours2 < 10, minutes < 10, minutes2 < 10 else { return nil }
      let offsetHours = Int64(hours) * 10 + Int64(hours2)
      let offsetMinutes = Int64(minutes) * 10 + Int64(minutes2)
      guard offsetHours < 24, offsetMinutes < 60 else { return nil }
      offset = (zone == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
      index += 6
    } else {
      return nil
    }
    guard index == count else { return nil }
    return RaspTimestamp(seconds: minuteStart + second - offset, nanoseconds: Int32(nanoseconds))
  }

  /// The time whose 24 bytes are at `raw`, when they end in the usual `:SS.mmmZ` — seconds,
  /// milliseconds, UTC — read as one word, `minuteStart` being the seconds to its minute;
  /// `nil` for any other ending, which the byte-by-byte reading then reads or refuses.
  @inline(__always)
  static func millisecondsInUTC(_ raw: UnsafeRawPointer, after minuteStart: Int64)
    -> RaspTimestamp?
  {
    // Little-endian: `:` `S` `S` `.` `m` `m` `m` `Z`, the first byte lowest.
    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    let fixed: UInt64 = 0xFF00_0000_FF00_00FF
    let digits: UInt64 = 0x00FF_FFFF_00FF_FF00
    let highNibbles: UInt64 = 0x00F0_F0F0_00F0_F000
    let zeros: UInt64 = 0x0030_3030_0030_3000
    // A digit is 0x30 to 0x39: its high nibble is 3, and still 3 once 6 is added.
    guard word & fixed == 0x5A00_0000_2E00_003A, word & highNibbles == zeros,
      (word & digits &+ 0x0006_0606_0006_0600) & highNibbles == zeros
    else { return nil }
    @inline(__always) func digit(_ place: UInt64) -> Int64 {
      Int64(truncatingIfNeeded: (word >> (8 &* place)) & 0x0F)
    }
    let second = digit(1) &* 10 &+ digit(2)
    guard second <= 60 else { return nil }
    let milliseconds = digit(4) &* 100 &+ digit(5) &* 10 &+ digit(6)
    let nanoseconds = Int32(truncatingIfNeeded: milliseconds &* 1_000_000)
    return RaspTimestamp(seconds: minuteStart &+ second, nanoseconds: nanoseconds)
  }

  /// What the value of the first `digits` digits of a fraction is multiplied by to give
  /// nanoseconds: 10⁸ for one digit, 1 for nine or more.
  @inline(__always)
  static func fractionScale(digits: Int) -> Int64 {
    switch digits {
    case 1: 100_000_000
    case 2: 10_000_000
    case 3: 1_000_000
    case 4: 100_000
    case 5: 10_000
    case 6: 1_000
    case 7: 100
    case 8: 10
    default: 1
    }
  }

  /// Reads an RFC 3339 time step by step, saying exactly what is wrong when it is not one.
  init(checkingRFC3339 bytes: UnsafeBufferPointer<UInt8>) throws(RaspTimestampError) {
    var index = 0
    func digits(_ count: Int, _ what: String) throws(RaspTimestampError) -> Int64 {
      var value: Int64 = 0
      for _ in 0..<count {
        guard index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 else {
          throw RaspTimestampError("expected \(count) digits for the \(what)")
        }
        value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
        index += 1
      }
      return value
    }
    func expect(_ separator: UInt8, _ what: String) throws(RaspTimestampError) {
      guard index < bytes.count, bytes[index] == separator else {
        throw RaspTimestampError("expected '\(Character(Unicode.Scalar(separator)))' \(what)")
      }
      index += 1
    }
    let year = try digits(4, "year")
    try expect(UInt8(ascii: "-"), "after the year")
    let month = try digits(2, "month")
    try expect(UInt8(ascii: "-"), "after the month")
    let day = try digits(2, "day")
    guard index < bytes.count, [UInt8(ascii: "T"), UInt8(ascii: "t"), 0x20].contains(bytes[index])
    else {
      throw RaspTimestampError("expected 'T' between the date and the time")
    }
    index += 1
    let hour = try digits(2, "hour")
    try expect(UInt8(ascii: ":"), "after the hour")
    let minute = try digits(2, "minute")
    try expect(UInt8(ascii: ":"), "after the minutes")
    let second = try digits(2, "seconds")
    guard (1...12).contains(month) else { throw RaspTimestampError("month \(month) is not 01–12") }
    let monthDays = RaspTimestamp.daysInMonth(year: year, month: month)
    guard (1...monthDays).contains(day) else {
      throw RaspTimestampError("day \(day) does not exist in month \(month) of \(year)")
    }
    guard hour < 24, minute < 60, second <= 60 else {
      let time = [hour, minute, second].map(RaspTimestamp.twoDigits).joined(separator: ":")
      throw RaspTimestampError("time \(time) is out of range")
    }
    var nanoseconds: Int64 = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var count = 0
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
        if count < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
        count += 1
        index += 1
      }
      guard count > 0 else { throw RaspTimestampError("expected digits after '.'") }
      for _ in count..<max(count, 9) { nanoseconds *= 10 }
    }
    guard index < bytes.count else {
      throw RaspTimestampError("missing time zone: add 'Z' or an offset such as '+01:00'")
    }
    var offset: Int64 = 0
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      index += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      index += 1
      let offsetHours = try digits(2, "offset hours")
      try expect(UInt8(ascii: ":"), "in the offset")
      let offsetMinutes = try digits(2, "offset minutes")
      guard offsetHours < 24, offsetMinutes < 60 else {
        let text =
          RaspTimestamp.twoDigits(offsetHours) + ":" + RaspTimestamp.twoDigits(offsetMinutes)
        throw RaspTimestampError("offset \(text) is out of range")
      }
      offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    default:
      throw RaspTimestampError("expected 'Z' or an offset such as '+01:00'")
    }
    guard index == bytes.count else {
      throw RaspTimestampError("unexpected text after the time zone")
    }
    let days = RaspTimestamp.days(year: year, month: month, day: day)
    self.init(
      seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset,
      nanoseconds: Int32(nanoseconds))
  }

  /// Reads a number of seconds since the epoch, exactly, from its JSON text: `1795336200.25`.
  ///
  /// ```swift
  /// let t = try RaspTimestamp(epochSeconds: "-1.5")   // 1969-12-31T23:59:58.5Z
  /// ```
  ///
  /// - Parameter text: The number's JSON text.
  /// - Throws: ``RaspTimestampError`` when it is out of range.
  public init(epochSeconds text: String) throws(RaspTimestampError) {
    var text = text
    let result: Result<RaspTimestamp, RaspTimestampError> = text.withUTF8 { bytes in
      Result { () throws(RaspTimestampError) in try RaspTimestamp(epochSeconds: bytes) }
    }
    self = try result.get()
  }

  /// Reads a number of seconds since the epoch, exactly, from its JSON text's bytes, without
  /// making a string of them.
  ///
  /// The same numbers as ``init(epochSeconds:)-(String)``, read from bytes a program already
  /// holds; the span only borrows them for the call.
  ///
  /// ```swift
  /// let number = Array("1795339800.25".utf8)
  /// let t = try RaspTimestamp(epochSeconds: number.span)   // 2026-11-22T09:30:00.25Z
  /// ```
  ///
  /// - Parameter bytes: Valid JSON number text, and nothing else.
  /// - Throws: ``RaspTimestampError`` when it is out of range.
  public init(epochSeconds bytes: Span<UInt8>) throws(RaspTimestampError) {
    let result: Result<RaspTimestamp, RaspTimestampError> = bytes.withUnsafeBufferPointer {
      buffer in
      Result { () throws(RaspTimestampError) in try RaspTimestamp(epochSeconds: buffer) }
    }
    self = try result.get()
  }

  /// Reads a number of seconds since the epoch from its JSON text's bytes in memory the caller
  /// keeps valid: the replay's own path (``init(epochSeconds:)-(Span)`` is the public form).
  ///
  /// ```swift
  /// let t = try RaspTimestamp(epochSeconds: numberBytes)
  /// ```
  ///
  /// - Parameter bytes: Valid JSON number text.
  /// - Throws: ``RaspTimestampError`` when it is out of range.
  package init(epochSeconds bytes: UnsafeBufferPointer<UInt8>) throws(RaspTimestampError) {
    var index = 0
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
      let (product, overflow) = whole.multipliedReportingOverflow(by: 10)
      guard !overflow, product <= 9_000_000_000_000 else {
        throw RaspTimestampError(RaspTimestamp.epochRangeMessage)
      }
      whole = product + Int64(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
        if fractionDigits < 9 {
          fraction = fraction * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
          fractionDigits += 1
        }
        index += 1
      }
    }
    if index < bytes.count {
      // An exponent: rare in logs; go through a double.
      let text = String(decoding: bytes, as: UTF8.self)
      guard let value = Double(text), value.magnitude < 9e12 else {
        throw RaspTimestampError(RaspTimestamp.epochRangeMessage)
      }
      let floored = value.rounded(.down)
      let nanoseconds = Int32(((value - floored) * 1e9).rounded())
      // A fraction that rounds up to a whole second carries into the seconds.
      self.init(
        seconds: Int64(floored) + (nanoseconds == 1_000_000_000 ? 1 : 0),
        nanoseconds: nanoseconds % 1_000_000_000)
      return
    }
    for _ in fractionDigits..<9 { fraction *= 10 }
    if negative, fraction > 0 {
      self.init(seconds: -whole - 1, nanoseconds: Int32(1_000_000_000 - fraction))
    } else {
      self.init(seconds: negative ? -whole : whole, nanoseconds: Int32(fraction))
    }
  }
}

extension RaspTimestamp {
  /// Whether valid JSON number text is a plain number of seconds — no exponent, at most 11
  /// integer digits — which always converts, so that checking it can wait until it is needed.
  package static func isPlainEpochSeconds(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = text.count
    if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    // Eleven digits reach the year 5138; more are read carefully, and refused as seconds.
    guard index - digitsStart <= 11 else { return false }
    if index < count, text[index] == UInt8(ascii: ".") {
      index += 1
      while index < count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    }
    return index == count
  }
}

/// Why a `ts` could not be read as a time.
///
/// ```swift
/// do { _ = try RaspTimestamp(rfc3339: "2026-11-22") } catch { print(error) }
/// // expected 'T' between the date and the time
/// ```
public struct RaspTimestampError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public let description: String

  /// Creates an error.
  ///
  /// ```swift
  /// let error = RaspTimestampError("missing time zone")
  /// ```
  ///
  /// - Parameter description: What is wrong.
  public init(_ description: String) {
    self.description = description
  }
}

extension RaspTimestamp {
  /// The message for epoch seconds beyond the range rasp keeps, about ±285,000 years.
  static let epochRangeMessage =
    "epoch seconds out of range: must be between -9000000000000 and 9000000000000"

  /// A field of a time in two digits at least, as RFC 3339 writes it: `07`, `24`.
  static func twoDigits(_ value: Int64) -> String {
    value < 10 && value >= 0 ? "0\(value)" : "\(value)"
  }
}
