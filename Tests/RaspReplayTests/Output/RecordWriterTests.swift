import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The shapes of a replay's records (``RecordWriter``), member by member as `docs/replay.md`
/// shows them: a value or the snapshot alone, with the key, with the event, as a diff.
@Suite struct RecordWriterTests {
  private static let event = Array(#"{"type":"geo.heading","payload":{"heading":271.5}}"#.utf8)
  /// The event as a record holds it: canonical, its keys in order.
  private static let canonicalEvent = #"{"payload":{"heading":271.5},"type":"geo.heading"}"#

  /// A stream of the geo domain whose last event is line 3 of the second input, event 7.
  private static func stream(differ: RecordDiffer? = nil) -> ReplayStream {
    var stream = ReplayStream(
      pipeline: RaspPipeline(initial: SnapshotState(domains: [GeoDomain()])))
    stream.lastSeq = .known(7)
    stream.lastInput = 1
    stream.lastLine = 3
    stream.differ = differ
    return stream
  }

  /// The text of a record written by a writer with these options, and what it returned.
  private func write(
    value: String?, withEvent: Bool = false, changesOnly: Bool = false, key: String? = nil,
    stream: inout ReplayStream, snapshot: RecordWriter.SnapshotWriting = .kept
  ) -> (text: String, record: ReplayRecord?, pendingSeq: Int?) {
    let records = RecordWriter(
      includesEvent: withEvent, changesOnly: changesOnly, inputNames: ["a.jsonl", "b.jsonl"])
    var writer = JSONWriter()
    writer.writeRaw("x")  // a record is placed after what the writer holds
    var pendingSeq: Int?
    let record = Self.event.withUnsafeBufferPointer { event in
      records.write(
        value: value.map { Array($0.utf8) }, event: event, key: key.map { Array($0.utf8)[...] },
        of: &stream, snapshot: snapshot, to: &writer, pendingSeqAt: &pendingSeq)
    }
    let text = String(decoding: writer.bytes.dropFirst(), as: UTF8.self)
    return (text, record, pendingSeq)
  }

  @Test func aValueAloneWithTheKeyOrWithTheEvent() {
    var stream = Self.stream()
    let alone = write(value: "271.5", stream: &stream)
    #expect(alone.text == "271.5")
    #expect(alone.record?.range == 1..<6)
    #expect(alone.record?.seq == 7)
    #expect(alone.record?.input == 1)
    #expect(alone.record?.line == 3)
    #expect(
      write(value: "271.5", key: #""d1""#, stream: &stream).text
        == #"{"key":"d1","value":271.5}"#)
    #expect(
      write(value: "271.5", withEvent: true, stream: &stream).text
        == #"{"event":\#(Self.canonicalEvent),"file":"b.jsonl","line":3,"seq":7,"value":271.5}"#)
    #expect(
      write(value: "271.5", withEvent: true, key: "[1,2]", stream: &stream).text
        == #"{"event":\#(Self.canonicalEvent),"file":"b.jsonl","key":[1,2],"line":3,"seq":7,"#
        + #""value":271.5}"#)
  }

  @Test func theSnapshotAloneOrAsTheStateOfARecord() {
    var stream = Self.stream()
    var reference = JSONWriter()
    SnapshotText(stream.pipeline.current).writeOnce(stream.pipeline.current, to: &reference)
    let snapshot = String(decoding: reference.bytes, as: UTF8.self)
    #expect(snapshot.hasPrefix(#"{"geo":{"#))
    for writing in [RecordWriter.SnapshotWriting.kept, .keptForLookAhead, .once] {
      #expect(write(value: nil, stream: &stream, snapshot: writing).text == snapshot)
      #expect(
        write(value: nil, key: "null", stream: &stream, snapshot: writing).text
          == #"{"key":null,"state":\#(snapshot)}"#)
    }
    #expect(
      write(value: nil, withEvent: true, stream: &stream).text
        == #"{"event":\#(Self.canonicalEvent),"file":"b.jsonl","line":3,"seq":7,"#
        + #""state":\#(snapshot)}"#)
  }

  @Test func aDiffFromTheLastRecordAloneOrWithTheEvent() {
    var stream = Self.stream(differ: RecordDiffer(initialValue: Array("null".utf8)))
    #expect(
      write(value: "271.5", stream: &stream).text
        == #"[{"op":"replace","path":"","value":271.5}]"#)
    #expect(
      write(value: "271.5", withEvent: true, stream: &stream).text
        == #"{"diff":[],"event":\#(Self.canonicalEvent),"file":"b.jsonl","line":3,"seq":7}"#)
    #expect(
      write(value: "[1]", key: #""d1""#, stream: &stream).text
        == #"{"diff":[{"op":"replace","path":"","value":[1]}],"key":"d1"}"#)
    // An empty diff with `changesOnly` is no record at all, and writes nothing.
    let unchanged = write(value: "[1]", changesOnly: true, stream: &stream)
    #expect(unchanged.record == nil)
    #expect(unchanged.text == "")
    #expect(
      write(value: "[1,2]", changesOnly: true, stream: &stream).text
        == #"[{"op":"add","path":"/1","value":2}]"#)
  }

  @Test func aRecordWithoutAnEventHasNullsForItsPlace() {
    var stream = ReplayStream(
      pipeline: RaspPipeline(initial: SnapshotState(domains: [GeoDomain()])))
    let records = RecordWriter(includesEvent: true, changesOnly: false, inputNames: ["a.jsonl"])
    var writer = JSONWriter()
    var pendingSeq: Int?
    let record = records.write(
      value: Array("1".utf8), event: nil, key: nil, of: &stream, snapshot: .kept, to: &writer,
      pendingSeqAt: &pendingSeq)
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"event":null,"file":null,"line":null,"seq":0,"value":1}"#)
    #expect(record?.seq == 0)
    #expect(record?.input == nil)
  }

  @Test func aNumberNotKnownYetLeavesItsPlaceForThePool() {
    var stream = Self.stream()
    stream.lastSeq = .pending(item: 4)
    let written = write(value: "1", withEvent: true, stream: &stream)
    let seqAt = #"{"event":\#(Self.canonicalEvent),"file":"b.jsonl","line":3,"seq":"#.utf8.count
    #expect(
      written.text
        == #"{"event":\#(Self.canonicalEvent),"file":"b.jsonl","line":3,"seq":,"value":1}"#)
    // The offset is in the writer, after the byte it held before the record.
    #expect(written.pendingSeq == 1 + seqAt)
    #expect(written.record?.seq == -5)
    stream.lastSeq = .known(8)
    #expect(write(value: "1", withEvent: true, stream: &stream).pendingSeq == nil)
  }
}
