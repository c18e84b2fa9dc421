import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI

@Suite struct CheckSinkTests {
  func sink(golden: String) -> CheckSink {
    CheckSink(
      golden: SnapshotLines(
        name: "golden.jsonl", source: .memory(JSONMemorySource(Array(golden.utf8)))),
      options: JSONDiffOptions(), fileNames: ["events.jsonl"])
  }

  /// Feeds records to the sink as a run does; returns whether the sink let the replay end.
  func feed(_ records: [String], to sink: inout CheckSink) -> Bool {
    var output: [UInt8] = []
    do throws(ReplayStop) {
      for (index, record) in records.enumerated() {
        let start = output.count
        output.append(contentsOf: record.utf8)
        try sink.take(
          ReplayRecord(range: start..<output.count, seq: index + 1, input: 0, line: index + 2),
          in: &output)
        #expect(output.isEmpty, "the sink takes the record")
      }
      try sink.finish(&output)
    } catch {
      guard case .sinkFinished = error else {
        Issue.record("unexpected \(error)")
        return false
      }
      return false
    }
    return true
  }

  @Test func comparesEachRecordWithTheNextGoldenLine() {
    var check = sink(golden: "{\"a\":1}\n\n{ \"b\" : 2 }\n[3]\n")
    #expect(feed([#"{"a":1}"#, #"{"b":2}"#, "[4]"], to: &check))
    #expect(check.comparison.compared == 3)
    #expect(check.comparison.differing == 1)
    #expect(
      check.comparison.firstDifference?.expectedPlace
        == .init(snapshot: 3, file: "golden.jsonl", line: 4))
    #expect(
      check.comparison.firstDifference?.actualPlace
        == .init(snapshot: 3, file: "events.jsonl", line: 4))
    #expect(check.error == nil)
  }

  @Test func countsGoldenLinesLeftAtTheEndAsMissing() {
    var check = sink(golden: "1\n2\n3\n")
    #expect(feed(["1"], to: &check))
    #expect(check.comparison.missing == 2)
    #expect(check.comparison.firstMissing == .init(snapshot: 2, file: "golden.jsonl", line: 2))
  }

  @Test func countsRecordsAfterTheGoldenEndAsExtra() {
    var check = sink(golden: "1\n")
    #expect(feed(["1", "2", "3"], to: &check))
    #expect(check.comparison.extra == 2)
    #expect(check.comparison.firstExtra == .init(snapshot: 2, file: "events.jsonl", line: 3))
  }

  @Test func aBadGoldenLineStopsTheReplayWithItsPlace() {
    var check = sink(golden: "1\n{\"a\" 1}\n3\n")
    #expect(!feed(["1", "2", "3"], to: &check), "the sink stops the replay")
    #expect(
      check.error?.description == "golden.jsonl:2:6: error: expected ':' after the key, found '1'\n"
    )
  }

  @Test func aBadGoldenLineAfterTheReplayIsReportedToo() {
    var check = sink(golden: "1\ntrue false\n")
    #expect(!feed(["1"], to: &check), "the sink stops at the end")
    #expect(check.error?.description.hasPrefix("golden.jsonl:2:6: error: ") == true)
  }

  @Test func theReportNamesTheGoldenFileAndTheReplay() {
    var check = sink(golden: "1\n2\n")
    _ = feed(["1"], to: &check)
    #expect(check.report.text == "1 snapshot missing: the replay ended before golden.jsonl:2\n")
  }
}
