import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The message of a bad line (``BadLineReport``): at the first syntax error when the line is
/// not JSON, wherever the fast reader stopped; at the reported place otherwise; with the key in
/// a keyed replay. The columns of syntax errors are those Python's `json` module gives for the
/// same lines (`json.loads(line)`: "line 1 column N").
@Suite struct BadLineReportTests {
  private let report = BadLineReport(format: .rasp, inputNames: ["a.jsonl", "b.jsonl"])

  private func message(
    _ line: String, _ error: RaspEventError, key: String? = nil, input: Int = 0
  ) -> String {
    let bytes = Array(line.utf8)
    let key = key.map { Array($0.utf8)[...] }
    return bytes.withUnsafeBufferPointer {
      report.diagnostic(
        error, line: $0, input: input, lineNumber: 3, origin: EventOrigin(), key: key
      ).description
    }
  }

  @Test func aLineThatIsNotJSONIsReportedAtItsFirstSyntaxError() {
    // The fast reader stopped at the payload, a string; Python: column 36.
    #expect(
      message(
        #"{"type":"geo.heading","payload":"a":1}"#,
        RaspEventError(offset: 32, reason: .rejected("payload is not an object")))
        == "a.jsonl:3:36: expected ',' or '}' after an object member, found ':'")
    // Read past a bracket the reader did not look for; Python: column 46.
    #expect(
      message(
        #"{"type":"geo.heading","payload":{"heading":1}]"#,
        RaspEventError(
          offset: 10, reason: .rejected("x")), input: 1
      ).hasPrefix("b.jsonl:3:46: "))
  }

  @Test func aLineThatIsJSONIsReportedWhereTheErrorSays() {
    #expect(
      message(
        #"{"type":"geo.heading","payload":{"heading":"north"}}"#,
        RaspEventError(offset: 44, reason: .rejected("not a number")))
        == "a.jsonl:3:45: event rejected: not a number")
    // An error without a place is at the line's start.
    #expect(
      message(#"{"type":"x"}"#, RaspEventError(offset: nil, reason: .rejected("no")))
        == "a.jsonl:3:1: event rejected: no")
  }

  @Test func theReportedReasonStaysWhenItIsAtTheSyntaxError() {
    // Python: column 44 (char 43), where the reader also stopped.
    let line = #"{"type":"geo.heading","payload":{"heading":}}"#
    #expect(
      message(line, RaspEventError(offset: 43, reason: .rejected("a value is missing")))
        == "a.jsonl:3:44: event rejected: a value is missing")
  }

  @Test func aKeyedReplaysMessageEndsWithTheKeyCutShortWhenLong() {
    let line = #"{"type":"x"}"#
    let error = RaspEventError(offset: 0, reason: .rejected("refused"))
    #expect(
      message(line, error, key: #""d1""#) == #"a.jsonl:3:1: event rejected: refused (key "d1")"#)
    let long = "\"" + String(repeating: "k", count: 68) + "\""
    #expect(
      message(line, error, key: long)
        == "a.jsonl:3:1: event rejected: refused (key \"" + String(repeating: "k", count: 56)
        + "...)")
  }

  @Test func aColumnCountsCharactersNotBytes() {
    // "é" is two bytes of UTF-8 and one column; Python: column 13 (char 12) of the text.
    let line = #"{"type":"é",]"#
    #expect(
      message(line, RaspEventError(offset: 0, reason: .rejected("x")))
        == "a.jsonl:3:13: expected a key in double quotes, found ']'")
  }
}
