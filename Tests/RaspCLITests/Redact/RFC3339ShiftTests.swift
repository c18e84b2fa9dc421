import Foundation
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `shift` of RFC 3339 strings: hand-worked cases from RFC 3339's own examples (section 5.8),
/// and a generated log checked against `fixtures/redact-rfc3339/expected.py`, which shifts
/// with Python's `datetime` and `Decimal` and shares no code with rasp.
@Suite struct RFC3339ShiftTests {
  static let checker = "fixtures/redact-rfc3339/expected.py"

  private func shifted(_ text: String, by offset: JSONNumber) -> String? {
    try? RFC3339Shift.shifted(text, by: offset).get()
  }

  @Test func theExamplesOfRFC3339ShiftInTheirOwnForm() {
    // 23:20:50.52 UTC plus an hour is past midnight: the next day.
    #expect(shifted("1985-04-12T23:20:50.52Z", by: JSONNumber(3600)) == "1985-04-13T00:20:50.52Z")
    // A finer shift widens the fraction to its digits.
    #expect(
      shifted("1985-04-12T23:20:50.52Z", by: JSONNumber(0.005)) == "1985-04-12T23:20:50.525Z")
    // The offset stays, and the local time moves: 16:39:57 PST plus 8 hours is 00:39:57 PST.
    #expect(
      shifted("1996-12-19T16:39:57-08:00", by: JSONNumber(28_800)) == "1996-12-20T00:39:57-08:00")
    // The Netherlands' offset of 1937, +00:20, back to its local midnight, two decimals kept.
    #expect(
      shifted("1937-01-01T12:00:27.87+00:20", by: JSONNumber(-43_227.87))
        == "1937-01-01T00:00:00.00+00:20")
    #expect(
      shifted("1937-01-01T12:00:27.87+00:20", by: JSONNumber(-43_228))
        == "1936-12-31T23:59:59.87+00:20")
  }

  /// A leap second is the next minute's `:00`, as rasp reads a `ts`; a shift of 0 is none.
  @Test func aLeapSecondIsTheNextMinutesFirst() {
    #expect(shifted("1990-12-31T23:59:60Z", by: JSONNumber(1)) == "1991-01-01T00:00:01Z")
    #expect(shifted("1990-12-31T15:59:60-08:00", by: JSONNumber(-1)) == "1990-12-31T15:59:59-08:00")
    #expect(shifted("1990-12-31T23:59:60Z", by: JSONNumber(0)) == "1990-12-31T23:59:60Z")
  }

  @Test func datesRollOverLeapDaysMonthsAndYearsBothWays() {
    #expect(shifted("2024-02-28T23:59:59.5Z", by: JSONNumber(0.5)) == "2024-02-29T00:00:00.0Z")
    #expect(shifted("2023-02-28T23:59:59.5Z", by: JSONNumber(0.5)) == "2023-03-01T00:00:00.0Z")
    #expect(shifted("2100-02-28T12:00:00Z", by: JSONNumber(86_400)) == "2100-03-01T12:00:00Z")
    #expect(shifted("2000-01-01T00:00:00Z", by: JSONNumber(-0.001)) == "1999-12-31T23:59:59.999Z")
    #expect(
      shifted("2023-12-31T23:59:59.999Z", by: JSONNumber(0.001)) == "2024-01-01T00:00:00.000Z")
    #expect(
      shifted("2024-03-01T00:00:00.123456789+05:30", by: JSONNumber(-86_400))
        == "2024-02-29T00:00:00.123456789+05:30")
    // A shift written with an exponent, one nanosecond.
    #expect(
      shifted("2026-12-04T10:00:00Z", by: JSONNumber(1e-9)) == "2026-12-04T10:00:00.000000001Z")
  }

  @Test func theSeparatorsAsWrittenStay() {
    #expect(shifted("2026-12-04t10:00:00z", by: JSONNumber(60)) == "2026-12-04t10:01:00z")
    #expect(shifted("2026-12-04 10:00:00.250Z", by: JSONNumber(-60)) == "2026-12-04 09:59:00.250Z")
  }

  /// A string of digits is an epoch time in its own unit, shifted exactly and written in the
  /// form it had: its fraction's digits (or `by`'s, when more), its whole part's width.
  @Test func aStringOfDigitsShiftsAsTheNumberItWrites() {
    let cases: [(String, JSONNumber, String)] = [
      ("1795339800005", JSONNumber(60_000), "1795339860005"),  // a kcat message's milliseconds
      ("1795339800.005", JSONNumber(60), "1795339860.005"),
      ("1795339800", JSONNumber(0.5), "1795339800.5"),
      ("12.50", JSONNumber(0.25), "12.75"),
      ("12.50", JSONNumber(-0.125), "12.375"),
      ("0042", JSONNumber(1), "0043"),
      ("0042", JSONNumber(-50), "-0008"),
      ("5", JSONNumber(-10), "-5"),
      ("-5", JSONNumber(10), "5"),
      ("-0.75", JSONNumber(0.25), "-0.50"),
      ("999", JSONNumber(1), "1000"),
      ("9223372036854775807", JSONNumber(1), "9223372036854775808"),
      ("0.000000001", JSONNumber(-0.000000001), "0.000000000"),
    ]
    for (text, by, expected) in cases {
      #expect(shifted(text, by: by) == expected, "\(text) by \(by)")
    }
    #expect(shifted("1795339800005", by: JSONNumber(0)) == "1795339800005")
    // The same sum as Decimal arithmetic gives, over generated digits and offsets.
    var random = SplitMix64(seed: 40)
    for _ in 0..<2_000 {
      let whole = Int64.random(in: -9_999_999_999...9_999_999_999, using: &random)
      let fractionDigits = Int.random(in: 0...6, using: &random)
      let fraction = Int.random(in: 0..<Int(pow(10, Double(fractionDigits))), using: &random)
      let text =
        (whole < 0 ? "-" : "") + "\(abs(whole))"
        + (fractionDigits == 0
          ? ""
          : "." + String(repeating: "0", count: fractionDigits - "\(fraction)".count)
            + "\(fraction)")
      let units = Int.random(in: -100_000_000...100_000_000, using: &random)
      let byDecimals = Int.random(in: 0...4, using: &random)
      let by = Decimal(units) / pow(Decimal(10), byDecimals)
      let byText = "\(by)"
      guard let byNumber = try? JSONParser.parse(Array(byText.utf8)), case .number(let n) = byNumber
      else {
        Issue.record("\(byText) is no JSON number")
        continue
      }
      guard let result = shifted(text, by: n), let value = Decimal(string: result),
        let original = Decimal(string: text)
      else {
        Issue.record("\(text) by \(byText)")
        continue
      }
      #expect(value == original + by, "\(text) by \(byText): \(result)")
      let decimals = result.split(separator: ".").dropFirst().first?.count ?? 0
      #expect(
        decimals == max(fractionDigits, byText.split(separator: ".").dropFirst().first?.count ?? 0))
    }
  }

  /// A constant shift keeps the order of instants, whatever their offsets.
  @Test func timesKeepTheirOrder() throws {
    let times = [
      "2026-12-04T10:00:00+02:00", "2026-12-04T08:30:00Z", "2026-12-04T09:00:00.5+00:20",
      "2026-12-04T03:59:59.999-05:00",
    ]
    for by in [JSONNumber(-86_400.25), JSONNumber(3600), JSONNumber(0.001)] {
      let before = try times.map { try RaspTimestamp(rfc3339: $0) }
      let after = try times.map { try RaspTimestamp(rfc3339: shifted($0, by: by) ?? "") }
      for i in times.indices {
        for j in times.indices {
          #expect((before[i] < before[j]) == (after[i] < after[j]), "\(times[i]) \(times[j])")
        }
      }
    }
  }

  @Test func aStringThatIsNoTimeOrAResultBeyondTheYearsIsRefused() {
    for text in [
      "yesterday", "2026-12-04", "2026-12-04T10:00:00", "2026-02-30T10:00:00Z", "", "-", "12.",
      ".5", "1e3", "+12", "12 ", "١٢",
    ] {
      #expect(
        RFC3339Shift.shifted(text, by: JSONNumber(1))
          == .failure(
            .init(
              text: "cannot shift '\(text)': 'shift' takes numbers (times), strings of digits "
                + "(epoch times) and RFC 3339 times such as '2026-12-04T10:00:00Z'")))
    }
    #expect(shifted("9999-12-31T23:59:59Z", by: JSONNumber(1)) == nil)
    #expect(shifted("0000-01-01T00:00:00Z", by: JSONNumber(-1)) == nil)
    #expect(shifted("0000-01-01T00:00:00Z", by: JSONNumber(1)) == "0000-01-01T00:00:01Z")
  }

  /// In a log: the string is written in its place, the rest of the line as it was; a string
  /// that is no time names its place.
  @Test func aLogsTimesShiftAndAStringThatIsNoneNamesItsPlace() throws {
    let directory = try TemporaryDirectory()
    try directory.write("pii.json", #"{"rules":[{"path":"ts","action":"shift","by":3600}]}"#)
    try directory.write(
      "events.jsonl",
      #"{"type":"a", "ts": "2026-12-04T23:30:00.250Z"}"# + "\n" + #"{"ts":1795339800}"# + "\n"
        + #"{"ts":"1795339800.25"}"# + "\n")
    let run = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl"],
      in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
        == #"{"type":"a", "ts": "2026-12-05T00:30:00.250Z"}"# + "\n" + #"{"ts":1795343400}"#
        + "\n" + #"{"ts":"1795343400.25"}"# + "\n")
    try directory.write("bad.jsonl", #"{"type":"a","ts":"soon"}"# + "\n")
    let bad = CommandRun.run(
      ["redact", "bad.jsonl", "--policy", "pii.json", "-o", "bad-share.jsonl"],
      in: directory.path)
    #expect(bad.status == 2)
    #expect(
      bad.standardError
        == "bad.jsonl:1:18: error: at ts: cannot shift 'soon': 'shift' takes numbers (times), "
        + "strings of digits (epoch times) and RFC 3339 times such as '2026-12-04T10:00:00Z'\n")
    #expect(directory.bytes("bad-share.jsonl") == nil)
  }

  /// A generated log of 2,000 times — leap days, last milliseconds of years, fractions of 0 to
  /// 9 digits, offsets, `t`, `z` and spaces — shifted by rasp as the Python checker shifts it,
  /// and `--verify` finds no original time left (though a shifted time may be another's).
  @Test(arguments: ["-86400.25", "3600", "0.000000001", "-0.5", "31622400", "-1234567.891"])
  func aGeneratedLogShiftsAsPythonsDatetimeShiftsIt(by: String) async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("events.jsonl")
    let checker = Repository.path(Self.checker)
    try directory.write(
      "events.jsonl", try await BuiltBinary.output("python3 \(checker) generate 40 2000"))
    try directory.write(
      "pii.json", #"{"rules": [{"path": "ts", "action": "shift", "by": \#(by)}]}"#)
    let output = directory.file("share.jsonl")
    let run = CommandRun.run(
      ["redact", log, "--policy", directory.file("pii.json"), "-o", output, "--verify"],
      in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    let expected = try await BuiltBinary.output(
      "python3 \(checker) \(directory.file("pii.json")) \(log)")
    let written = String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self)
    #expect(written == expected)
    #expect(written.split(separator: "\n").count == 2000)
  }
}
