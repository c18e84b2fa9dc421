import Testing

@testable import RaspDomains

@Suite struct RaspTimestampTests {
  /// The time as `seconds nanoseconds`, or `error: <reason>`; read from a string and from a
  /// span of its bytes (the public form for bytes), which must agree.
  private func parse(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let read = (
      Self.describe { () throws(RaspTimestampError) in try RaspTimestamp(rfc3339: text) },
      Self.describe { () throws(RaspTimestampError) in try RaspTimestamp(rfc3339: bytes.span) }
    )
    return read.0 == read.1 ? read.0 : "string: \(read.0), span: \(read.1)"
  }

  /// The time as `seconds nanoseconds`, or `error: <reason>`; read from a string and from a
  /// span of its bytes, which must agree.
  private func epoch(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let read = (
      Self.describe { () throws(RaspTimestampError) in try RaspTimestamp(epochSeconds: text) },
      Self.describe { () throws(RaspTimestampError) in
        try RaspTimestamp(epochSeconds: bytes.span)
      }
    )
    return read.0 == read.1 ? read.0 : "string: \(read.0), span: \(read.1)"
  }

  /// What `read` gives, as `seconds nanoseconds` or `error: <reason>`.
  private static func describe(
    _ read: () throws(RaspTimestampError) -> RaspTimestamp
  ) -> String {
    do throws(RaspTimestampError) {
      let time = try read()
      return "\(time.seconds) \(time.nanoseconds)"
    } catch {
      return "error: \(error)"
    }
  }

  @Test func aSpanOfPartOfABufferReadsOnlyItsBytes() throws {
    // The doc comment's example: the time inside a line, without the quotes around it.
    let line = Array(#"{"ts":"2026-11-22T09:30:00Z"}"#.utf8)
    let time = try RaspTimestamp(rfc3339: line.span.extracting(7..<27))
    #expect((time.seconds, time.nanoseconds) == (1_795_339_800, 0))
    #expect(throws: RaspTimestampError.self) {
      try RaspTimestamp(rfc3339: line.span.extracting(6..<27))  // from the opening quote
    }
    let number = try RaspTimestamp(epochSeconds: Array("1795339800.25".utf8).span)
    #expect((number.seconds, number.nanoseconds) == (1_795_339_800, 250_000_000))
  }

  @Test(arguments: [
    ("2026-11-22T09:30:00Z", 1795339800, 0),
    ("2026-11-22t09:30:00z", 1795339800, 0),
    ("2026-11-22 09:30:00Z", 1795339800, 0),
    ("2026-11-22T10:30:00+01:00", 1795339800, 0),
    ("2026-11-22T04:00:00-05:30", 1795339800, 0),
    ("2026-11-22T09:30:00.25Z", 1795339800, 250000000),
    ("2026-11-22T09:30:00.000000001Z", 1795339800, 1),
    ("2026-11-22T09:30:00.1234567899Z", 1795339800, 123456789),
    ("1970-01-01T00:00:00Z", 0, 0),
    ("1969-12-31T23:59:59.5Z", -1, 500000000),
    ("1900-03-01T00:00:00Z", -2203891200, 0),
    ("2024-02-29T00:00:00Z", 1709164800, 0),
    ("2000-02-29T12:00:00Z", 951825600, 0),
    ("2016-12-31T23:59:60Z", 1483228800, 0),
    ("0001-01-01T00:00:00Z", -62135596800, 0),
    ("9999-12-31T23:59:59Z", 253402300799, 0),
  ])
  func readsRFC3339(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) {
    #expect(parse(text) == "\(seconds) \(nanoseconds)")
  }

  @Test(arguments: [
    ("2026-02-29T00:00:00Z", "day 29 does not exist in month 2 of 2026"),
    ("1900-02-29T00:00:00Z", "day 29 does not exist in month 2 of 1900"),
    ("2026-04-31T00:00:00Z", "day 31 does not exist in month 4 of 2026"),
    ("2026-13-01T00:00:00Z", "month 13 is not 01–12"),
    ("2026-00-01T00:00:00Z", "month 0 is not 01–12"),
    ("2026-11-22T24:00:00Z", "time 24:00:00 is out of range"),
    ("2026-11-22T09:60:00Z", "time 09:60:00 is out of range"),
    ("2026-11-22T09:30:00", "missing time zone: add 'Z' or an offset such as '+01:00'"),
    ("2026-11-22T09:30:00+0100", "expected ':' in the offset"),
    ("2026-11-22T09:30:00+24:00", "offset 24:00 is out of range"),
    ("2026-11-22T09:30:00.Z", "expected digits after '.'"),
    ("2026-11-22T09:30:00ZZ", "unexpected text after the time zone"),
    ("2026-11-22", "expected 'T' between the date and the time"),
    ("26-11-22T09:30:00Z", "expected 4 digits for the year"),
    ("yesterday", "expected 4 digits for the year"),
  ])
  func rejectsInvalidTimes(_ text: String, _ reason: String) {
    #expect(parse(text) == "error: \(reason)")
  }

  @Test(arguments: [
    ("1795336200", 1795336200, 0),
    ("1795336200.25", 1795336200, 250000000),
    ("1795336200.000000001", 1795336200, 1),
    ("1795336200.1234567891", 1795336200, 123456789),
    ("0", 0, 0),
    ("-0.5", -1, 500000000),
    ("-1.5", -2, 500000000),
    ("-1", -1, 0),
    ("-0.000000001", -1, 999999999),
    ("1.5e3", 1500, 0),
    ("-1.5e0", -2, 500000000),
    ("9.9999999999e-1", 1, 0),
  ])
  func readsEpochSecondsExactly(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) {
    #expect(epoch(text) == "\(seconds) \(nanoseconds)")
  }

  @Test func readsTheUsualSecondsMillisecondsAndZoneAsOneWordAsTheCarefulReaderDoes() {
    // Every byte value at each of the last eight places of a usual time: read as one word,
    // the time is the careful reader's when that one accepts it and it ends in `Z`, and no
    // time otherwise (the byte-by-byte reading takes those).
    let usual = Array("2026-11-22T09:30:17.005Z".utf8)
    let minuteStart = try? RaspTimestamp(rfc3339: "2026-11-22T09:30:00Z").seconds
    var accepted = 0
    for place in 16..<24 {
      for value in 0...255 {
        var bytes = usual
        bytes[place] = UInt8(value)
        bytes.withUnsafeBufferPointer { buffer in
          let careful = try? RaspTimestamp(checkingRFC3339: buffer)
          let word = RaspTimestamp.millisecondsInUTC(
            UnsafeRawPointer(buffer.baseAddress!), after: minuteStart ?? 0)
          let text = String(decoding: bytes, as: UTF8.self)
          if let careful, bytes[23] == UInt8(ascii: "Z") {
            accepted += 1
            #expect(word == careful, "\(text)")
          } else {
            #expect(word == nil, "\(text)")
          }
          // And through the quick reader, with and without the minute remembered.
          var memo = RaspTimestamp.Memo()
          _ = RaspTimestamp.quickRFC3339(buffer, memo: &memo)
          let quick = [
            RaspTimestamp.quickRFC3339(buffer), RaspTimestamp.quickRFC3339(buffer, memo: &memo),
          ]
          for read in quick where read != nil { #expect(read == careful, "\(text)") }
        }
      }
    }
    // The time itself once at each place of `:`, `.` and `Z`; six tens of seconds (07 to 57),
    // ten units (10 to 19) and ten digits at each of the three places of milliseconds.
    #expect(accepted == 3 + 6 + 10 + 3 * 10)
  }

  @Test func bytesThatMatchAnEmptyMemoAreStillChecked() {
    // The memo of the last minute starts empty, as zero words: sixteen NUL bytes must not pass
    // for a minute already checked.
    #expect(parse(String(repeating: "\0", count: 16) + ":00Z").hasPrefix("error: "))
    #expect(parse(String(repeating: "\0", count: 16) + ":00.5Z").hasPrefix("error: "))
  }

  @Test func rejectsEpochSecondsOutOfRange() {
    #expect(
      epoch("90000000000000")
        == "error: epoch seconds out of range: must be between -9000000000000 and 9000000000000")
    #expect(
      epoch("1e13")
        == "error: epoch seconds out of range: must be between -9000000000000 and 9000000000000")
  }

  @Test func bothFormsMeanTheSameInstant() throws {
    let a = try RaspTimestamp(rfc3339: "2026-11-22T08:30:00.25Z")
    let b = try RaspTimestamp(epochSeconds: "1795336200.25")
    let c = try RaspTimestamp(rfc3339: "2026-11-22T09:30:00.250+01:00")
    #expect(a == b)
    #expect(a == c)
  }

  @Test func ordersByTime() {
    let times = [
      RaspTimestamp(seconds: 1, nanoseconds: 5),
      RaspTimestamp(seconds: -1, nanoseconds: 999_999_999),
      RaspTimestamp(seconds: 1, nanoseconds: 0),
    ]
    #expect(times.sorted() == [times[1], times[2], times[0]])
  }

  @Test func describesItselfInUTC() throws {
    #expect(
      "\(try RaspTimestamp(rfc3339: "2026-11-22T09:30:00.250+01:00"))" == "2026-11-22T08:30:00.25Z")
    #expect("\(RaspTimestamp(seconds: 0, nanoseconds: 0))" == "1970-01-01T00:00:00Z")
    #expect("\(RaspTimestamp(seconds: -1, nanoseconds: 500_000_000))" == "1969-12-31T23:59:59.5Z")
    #expect(
      "\(try RaspTimestamp(rfc3339: "2024-02-29T23:59:59.000000001Z"))"
        == "2024-02-29T23:59:59.000000001Z")
  }
}
