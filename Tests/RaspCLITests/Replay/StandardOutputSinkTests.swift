import RaspReplay
import Testing

@testable import RaspCLI

@Suite struct StandardOutputSinkTests {
  /// What the sink prints for `records`, each appended to the output after a first record.
  private func printed(_ records: [String], isPretty: Bool = false, isRaw: Bool = false) throws
    -> String
  {
    let stream = RaspMemoryOutput()
    var sink = StandardOutputSink(stream: stream, isPretty: isPretty, isRaw: isRaw)
    var output: [UInt8] = []
    for record in records {
      let start = output.count
      output.append(contentsOf: record.utf8)
      let range = start..<output.count
      try sink.take(ReplayRecord(range: range, seq: 1, input: 0, line: 1), in: &output)
    }
    try sink.finish(&output)
    return stream.text
  }

  @Test func writesEachRecordOnItsOwnLine() throws {
    #expect(try printed([#"{"a":"b"}"#, #""x""#, "1"]) == "{\"a\":\"b\"}\n\"x\"\n1\n")
  }

  @Test func rawOutputWritesStringsAsTheirTextAndLeavesOtherValues() throws {
    let records = [#""Zoë\tN""#, #""two\nlines""#, "271.5", #"["a"]"#, #"{"value":"a"}"#, "null"]
    #expect(
      try printed(records, isRaw: true)
        == "Zoë\tN\ntwo\nlines\n271.5\n[\"a\"]\n{\"value\":\"a\"}\nnull\n")
  }

  @Test func aRecordOfSeveralValuesHasEachOnItsOwnLine() throws {
    let record = "\"a\"\n{\"b\":[1]}\n\"c\\nd\""
    #expect(try printed([record]) == record + "\n")
    #expect(try printed([record], isRaw: true) == "a\n{\"b\":[1]}\nc\nd\n")
    #expect(
      try printed([record], isPretty: true)
        == "\"a\"\n{\n  \"b\": [\n    1\n  ]\n}\n\"c\\nd\"\n")
    #expect(
      try printed([record], isPretty: true, isRaw: true)
        == "a\n{\n  \"b\": [\n    1\n  ]\n}\nc\nd\n")
  }
}
