import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The kernel on its own, fed a batch's items one at a time as ``Replay`` feeds it: each item's
/// outcome, and the counts it keeps. The expected snapshots are written here from the domains'
/// documented states (geo: `accuracy`, `heading`, `location`; nav: `modal`, `stack`, `tab`).
@Suite struct ReplayKernelTests {
  /// Each item of `text`'s first batch handled by a kernel made for `configure`'s
  /// configuration with the key stage `streams`: a record's bytes, "skipped LINE", "ignored
  /// LINE", or "-" for no outcome; and the kernel after the last item.
  private func handled<Streams: StreamStage>(
    _ lines: [String], streams: Streams.Type,
    _ configure: (inout ReplayConfiguration) throws -> Void = { _ in }
  ) throws -> (outcomes: [String], kernel: ReplayKernel) {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.errorMode = .skip
    try configure(&configuration)
    var kernel = ReplayKernel(configuration: configuration, inputNames: ["log"], types: nil)
    let batch = try #require(readBatch(of: lines.joined(separator: "\n")))
    let columns = batch.columns.map(Unmanaged.passUnretained)
    var writer = JSONWriter(capacity: 256)
    var outcomes: [String] = []
    let base = try #require(batch.items.baseAddress)
    for item in batch.items.indices.map({ base + $0 }) {
      switch kernel.handle(
        item, of: Unmanaged.passUnretained(batch), columns: columns, writer: &writer,
        streams: streams)
      {
      case .record(let record)?:
        outcomes.append(String(decoding: writer.bytes[record.range], as: UTF8.self))
      case .skipped(let diagnostic)?: outcomes.append("skipped \(diagnostic.line)")
      case .ignored(let diagnostic)?: outcomes.append("ignored \(diagnostic.line)")
      case nil: outcomes.append("-")
      case let other?: outcomes.append("\(other)")
      }
    }
    return (outcomes, kernel)
  }

  private static func geo(_ heading: String) -> String {
    #"{"accuracy":null,"heading":\#(heading),"location":null}"#
  }

  private static func nav(stack: String = "[]", tab: String = "null") -> String {
    #"{"modal":null,"stack":\#(stack),"tab":\#(tab)}"#
  }

  private static let log = [
    #"{"source":"a","type":"geo.heading","payload":{"heading":90}}"#,
    #"{"source":"b","type":"nav.push","payload":{"screen":"home"}}"#,
    "",
    #"{"source":"a","type":"geo.heading","payload":{"heading":"x"}}"#,
    #"{"type":"what.ever"}"#,
    "not json",
    #"{"source":"a","type":"nav.selectTab","payload":{"tab":"shop"}}"#,
  ]

  @Test func eachEventsRecordIsTheSnapshotAfterIt() throws {
    let (outcomes, kernel) = try handled(Self.log, streams: SingleStream.self) {
      $0.reportsIgnoredLines = true
    }
    #expect(
      outcomes == [
        #"{"geo":\#(Self.geo("90")),"nav":\#(Self.nav())}"#,
        #"{"geo":\#(Self.geo("90")),"nav":\#(Self.nav(stack: #"["home"]"#))}"#,
        "-",
        "skipped 4",
        "ignored 5",
        "skipped 6",
        #"{"geo":\#(Self.geo("90")),"nav":\#(Self.nav(stack: #"["home"]"#, tab: #""shop""#))}"#,
      ])
    #expect(kernel.seq == 3)
    #expect(kernel.records == 3)
    #expect(kernel.statistics.read == 7)
    #expect(kernel.statistics.applied == 3)
    #expect(kernel.statistics.blank == 1)
    #expect(kernel.statistics.unknownType == 1)
    #expect(kernel.statistics.skipped == 2)
    #expect(kernel.statistics.keys == 0)
  }

  @Test func eachKeysRecordIsItsOwnSnapshot() throws {
    let home = #"["home"]"#
    let (outcomes, kernel) = try handled(Self.log, streams: KeyedStreams.self) {
      $0.keyPath = try JSONPath("source")
    }
    #expect(
      outcomes == [
        #"{"key":"a","state":{"geo":\#(Self.geo("90")),"nav":\#(Self.nav())}}"#,
        #"{"key":"b","state":{"geo":\#(Self.geo("null")),"nav":\#(Self.nav(stack: home))}}"#,
        "-",
        "skipped 4",
        "-",
        "skipped 6",
        #"{"key":"a","state":{"geo":\#(Self.geo("90")),"nav":\#(Self.nav(tab: #""shop""#))}}"#,
      ])
    #expect(kernel.statistics.applied == 3)
    #expect(kernel.statistics.keys == 2)
    #expect(kernel.currentKeyName.map { String(decoding: $0, as: UTF8.self) } == #""a""#)
  }

  @Test func finalWritesNoRecordForAnEvent() throws {
    let (outcomes, kernel) = try handled(Self.log, streams: SingleStream.self) {
      $0.isFinal = true
    }
    #expect(outcomes == ["-", "-", "-", "skipped 4", "-", "skipped 6", "-"])
    #expect(kernel.records == 0)
    #expect(kernel.statistics.applied == 3)
  }
}
