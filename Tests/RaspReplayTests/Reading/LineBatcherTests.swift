#if canImport(Glibc)
  import Glibc
#endif
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// A request to stop, set by the test on the thread that reads.
private final class StopFlag: @unchecked Sendable {
  var isSet = false
}

/// The reading stage on its own: one input read into batches of classified lines, numbered
/// and placed as the input has them; the share of decoding it takes on; and a live input,
/// which hands over what it has and holds a partial line.
@Suite struct LineBatcherTests {
  private func batcher(
    _ text: String, linesBefore: Int = 0, offsetBefore: Int = 0,
    decoding: (router: Router, decoder: EventDecoder, demand: DomainDemand)? = nil
  ) -> LineBatcher {
    let reading = InputReading(
      ReplayInput(name: "log", source: .memory(JSONMemorySource(Array(text.utf8)))),
      shouldStop: { false })
    return LineBatcher(
      input: 3, reading: reading, tracksTime: false, decoding: decoding,
      linesBefore: linesBefore, offsetBefore: offsetBefore)
  }

  /// An item as `number kind`, the kind one word (`event`, `decoded 1.0 row 2`, ...).
  private func describe(_ item: ReplayItem, in batch: ReplayBatch) -> String {
    let kind: String
    switch item.kind {
    case .blank: kind = "blank"
    case .dropped: kind = "dropped"
    case .emptyBatch: kind = "emptyBatch"
    case .event: kind = "event"
    case .decoded(_, let domain, let event, let row): kind = "decoded \(domain).\(event) row \(row)"
    case .passedOver(_, let domain, let event): kind = "passedOver \(domain).\(event)"
    case .problem(let index):
      switch batch.problems[index] {
      case .invalid(let error): kind = "invalid: \(error)"
      case .readFailure(let message): kind = "readFailure: \(message)"
      }
    case .notice(let index): kind = "notice: \(batch.notices[index])"
    }
    return "\(item.lineNumber) \(kind)"
  }

  /// Every batch of `batcher`, each as its items.
  private func batches(of batcher: LineBatcher) -> [[String]] {
    var found: [[String]] = []
    while case .batch(let batch) = batcher.nextBatch(mayWait: true) {
      found.append(batch.items.map { describe($0, in: batch) })
    }
    return found
  }

  @Test func classifiesEachLineInOrderAndNumbersItAsTheInputDoes() {
    let log =
      #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n"
      + "   \n"
      + "{\"type\":\n"
      + "[]\n"
      + #"{"type":"nav.pop"}"#
    let found = batches(of: batcher(log))
    #expect(
      found == [
        [
          "1 event", "2 blank",
          "3 invalid: unexpected end of input, expected a value",
          "4 invalid: an event must be a JSON object, found an array", "5 event",
        ]
      ])
  }

  @Test func goesOnFromTheLinesAndBytesBefore() throws {
    let log = "{\"type\":\"nav.pop\"}\n\n{\"type\":\"nav.pop\"}\n"
    let batcher = batcher(log, linesBefore: 40, offsetBefore: 1000)
    guard case .batch(let batch) = batcher.nextBatch(mayWait: true) else {
      Issue.record("no batch")
      return
    }
    #expect(batch.items.map(\.lineNumber) == [41, 42, 43])
    #expect(batch.items.map(\.input) == [3, 3, 3])
    // Where each line ends in the input, its line end included.
    #expect(batch.items.map(\.lineEnd) == [1019, 1020, 1039])
    guard case .end = batcher.nextBatch(mayWait: true) else {
      Issue.record("more than one batch")
      return
    }
  }

  @Test func endsABatchAtItsMostLines() {
    let count = LineBatcher.batchLines * 2 + 5
    let log = String(repeating: "{\"type\":\"nav.pop\"}\n", count: count)
    let found = batches(of: batcher(log))
    #expect(found.map(\.count) == [LineBatcher.batchLines, LineBatcher.batchLines, 5])
    #expect(found.joined().map { Int($0.split(separator: " ")[0])! } == Array(1...count))
  }

  @Test func endsABatchAfterItsMostBytes() {
    // Lines of 1 KiB before their line ends: a batch ends at the line that takes it to
    // 256 KiB.
    let empty = #"{"type":"nav.pop","payload":{"p":""}}"#
    let padding = String(repeating: "x", count: 1024 - empty.utf8.count)
    let line = #"{"type":"nav.pop","payload":{"p":"\#(padding)"}}"#
    #expect(line.utf8.count == 1024)
    let log = String(repeating: line + "\n", count: 600)
    let found = batches(of: batcher(log))
    #expect(found.map(\.count) == [256, 256, 88])
  }

  @Test func aLineTooLongEndsItsBatchWithItsProblem() {
    let long = String(repeating: "x", count: JSONLimits.maximumLineLength + 1)
    let log = "{\"type\":\"nav.pop\"}\n\(long)\n{\"type\":\"nav.pop\"}\n"
    let found = batches(of: batcher(log))
    #expect(found.count == 2)
    #expect(found.first?.first == "1 event")
    #expect(found.first?.last?.hasPrefix("2 invalid: ") == true)
    #expect(found.last == ["3 event"])
    // A line too long has no place its line ends at: its rest is skipped unread.
    guard case .batch(let batch) = batcher(log).nextBatch(mayWait: true) else {
      Issue.record("no batch")
      return
    }
    #expect(batch.items.map(\.lineEnd) == [19, -1])
  }

  @Test func decodesAheadTheEventsOfTheDomainsNeededAndPassesOverTheOthers() throws {
    let snapshot = SnapshotState(domains: [GeoDomain(), NavDomain()])
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.selection = try JSONPath("nav.stack")
    let selection = try #require(ReplaySelection(configuration.selection, snapshot: snapshot))
    let listeners = TypeListeners(
      domains: snapshot.listeningDomains, typeNames: snapshot.router.typeNames)
    let demand = DomainDemand(
      configuration, selection: selection, listeners: listeners, domainCount: 2)
    let log = [
      #"{"type":"nav.push","payload":{"screen":"a"}}"#,
      #"{"type":"geo.heading","payload":{"heading":1}}"#,
      #"{"type":"nav.push","payload":{"screen":7}}"#,
      #"{"type":"geo.heading","payload":{"heading":"north"}}"#,
      #"{"type":"nav.push","payload":{"screen":"b"}}"#,
      #"{"type":"motion.sample","payload":{}}"#,
    ].joined(separator: "\n")
    let found = batches(
      of: batcher(
        log, decoding: (snapshot.router, snapshot.makeDecoder(), demand)))
    #expect(
      found == [
        [
          "1 decoded 1.0 row 0", "2 passedOver 0.0",
          // A payload that does not decode is left for the replay, which explains it.
          "3 event",
          // One of a domain passed over is only checked to be JSON.
          "4 passedOver 0.0",
          "5 decoded 1.0 row 1",
          "6 event",
        ]
      ])
  }

  @Test func aLiveInputHandsOverWhatItHasAndHoldsAPartialLine() throws {
    var ends: [Int32] = [-1, -1]
    // Not inherited by a child another test spawns meanwhile, which would keep the write end
    // open after it is closed here.
    try #require(makeCloseOnExecPipe(&ends))
    defer { close(ends[0]) }
    func send(_ text: String) {
      let bytes = Array(text.utf8)
      #expect(write(ends[1], bytes, bytes.count) == bytes.count)
    }
    let reading = InputReading(
      ReplayInput(name: "pipe", source: .descriptor(ends[0]), isLive: true),
      shouldStop: { false })
    let batcher = LineBatcher(input: 0, reading: reading, tracksTime: false)
    func next() -> [String] {
      switch batcher.nextBatch(mayWait: false) {
      case .batch(let batch): return batch.items.map { describe($0, in: batch) }
      case .wouldWait: return ["wouldWait"]
      case .end: return ["end"]
      }
    }
    #expect(next() == ["wouldWait"])
    send("{\"type\":\"nav.pop\"}\n{\"type\":\"nav.pop\"}\n")
    #expect(next() == ["1 event", "2 event"])
    #expect(next() == ["wouldWait"])
    send("{\"type\":\"nav")
    #expect(next() == ["wouldWait"])
    send(".pop\"}\n{\"type\":")
    #expect(next() == ["3 event"])
    send("\"nav.pop\"}")
    close(ends[1])
    // The last line needs no line end once the input ends.
    #expect(next() == ["4 event"])
    #expect(next() == ["end"])
  }

  @Test func aPartialLineWhenTheReplayStopsIsToldOfNotReplayed() throws {
    var ends: [Int32] = [-1, -1]
    try #require(makeCloseOnExecPipe(&ends))
    defer {
      close(ends[0])
      close(ends[1])
    }
    let stop = StopFlag()
    let reading = InputReading(
      ReplayInput(name: "pipe", source: .descriptor(ends[0]), isLive: true),
      shouldStop: { stop.isSet })
    let batcher = LineBatcher(input: 0, reading: reading, tracksTime: false)
    func send(_ text: String) {
      let bytes = Array(text.utf8)
      #expect(write(ends[1], bytes, bytes.count) == bytes.count)
    }
    send("{\"type\":\"nav.pop\"}\n{\"type\":\"nav")
    guard case .batch(let first) = batcher.nextBatch(mayWait: false) else {
      Issue.record("no batch")
      return
    }
    #expect(first.items.map { describe($0, in: first) } == ["1 event"])
    // More of the line is ready, so that the read that sees the request to stop does not
    // wait; it stops before reading it.
    send(".pop")
    stop.isSet = true
    guard case .batch(let last) = batcher.nextBatch(mayWait: true) else {
      Issue.record("no notice")
      return
    }
    #expect(
      last.items.map { describe($0, in: last) } == [
        "0 notice: the last line of 'pipe' was unfinished when the replay stopped (12 bytes): "
          + "not replayed"
      ])
    guard case .end = batcher.nextBatch(mayWait: true) else {
      Issue.record("more after the end")
      return
    }
  }

  @Test func aReadFailureIsTheLastItem() throws {
    let directory = open("/", O_RDONLY | O_CLOEXEC)
    try #require(directory >= 0)
    defer { close(directory) }
    let reading = InputReading(
      ReplayInput(name: "root", source: .descriptor(directory), isLive: false),
      shouldStop: { false })
    let found = batches(of: LineBatcher(input: 0, reading: reading, tracksTime: false))
    #expect(found.count == 1)
    #expect(found.first?.count == 1)
    #expect(found.first?.first?.hasPrefix("1 readFailure: ") == true)
    #expect(found.first?.first?.contains("directory") == true)
  }
}
