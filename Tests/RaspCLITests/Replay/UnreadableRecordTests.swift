import RaspReplay
import Testing

@testable import RaspCLI

/// A sink that reads back the records it is handed — a DevTools export, a report — stops the
/// run with an error for one it cannot read, rather than leaving it out of what it writes.
/// Records of rasp's own always read back; these hand the sinks records made by hand.
@Suite struct UnreadableRecordTests {
  /// What `sink` does with `record`, appended to an output after other bytes.
  private func stop(_ sink: inout some ReplaySink, taking record: String) -> ReplayStop? {
    var output = Array("{}".utf8)
    let start = output.count
    output.append(contentsOf: record.utf8)
    do {
      try sink.take(
        ReplayRecord(range: start..<output.count, seq: 3, input: 0, line: 3), in: &output)
    } catch {
      #expect(output.count == start, "the record is taken off the output all the same")
      return error
    }
    return nil
  }

  private func message(_ stop: ReplayStop?) -> String? {
    guard case .outputFailed(let message)? = stop else { return nil }
    return message
  }

  @Test func aDevToolsExportIsNotWrittenWithoutARecord() {
    var sink = DevToolsExportSink(stream: RaspMemoryOutput(), initialState: Array("{}".utf8))
    #expect(
      message(stop(&sink, taking: #"{"event":{"type":"geo.heading"},"state":"#))
        == "snapshot 3 could not be read back (unexpected end of input, expected a value)")
    #expect(
      message(stop(&sink, taking: #"{"seq":3,"state":{}}"#))
        == "snapshot 3 could not be read back (it has no event or no state)")
    #expect(
      stop(&sink, taking: #"{"event":{"type":"geo.heading"},"seq":3,"state":{}}"#) == nil,
      "a whole record is taken")
  }

  @Test func aReportIsNotWrittenWithoutARecord() {
    var sink = ReportSink(builder: ReportBuilder(initial: .null, isKeyed: false))
    #expect(
      message(stop(&sink, taking: #"{"patch":["#))
        == "snapshot 3 could not be read back"
        + " (unexpected end of input in an unterminated array, expected a value or ']')")
  }
}
