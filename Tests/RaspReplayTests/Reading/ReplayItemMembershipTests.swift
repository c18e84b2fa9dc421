import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// Where an item's event is among its line's events (``ReplayItem/Membership``): a line of its
/// own, or the first or a later event of a line that holds several, as the reading stage marks
/// each item; and how the kernel counts lines from it.
@Suite struct ReplayItemMembershipTests {
  /// The membership of each item read from `text` with the preset `format`.
  private func memberships(_ text: String, format name: String) throws -> [String] {
    let format = try #require(LogFormat.preset(named: name))
    let reading = InputReading(
      ReplayInput(name: "log", source: .memory(JSONMemorySource(Array(text.utf8)))),
      shouldStop: { false })
    let batcher = LineBatcher(
      input: 0, reading: reading, tracksTime: false,
      types: format.isRasp ? nil : TypeTable(format: format))
    var found: [String] = []
    while case .batch(let batch) = batcher.nextBatch(mayWait: true) {
      for item in batch.items {
        if case .notice = item.kind { continue }
        found.append("\(item.lineNumber) \(item.membership) \(item.isMember)")
      }
    }
    return found
  }

  @Test func aLineOfOneEventIsItsOwnLine() throws {
    let log = #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n\nnot json\n"
    #expect(
      try memberships(log, format: "rasp") == [
        "1 ownLine false", "2 ownLine false", "3 ownLine false",
      ])
  }

  @Test func theEventsOfABatchLineAreItsFirstAndLater() throws {
    let event = { (value: Int) in
      #"{"specversion":"1.0","type":"geo.heading","source":"s","id":"\#(value)","#
        + #""data":{"heading":\#(value)}}"#
    }
    let log =
      "[\(event(1)),\(event(2)),\(event(3))]\n" + "\(event(4))\n" + "[\(event(5))]\n"
    #expect(
      try memberships(log, format: "cloudevents") == [
        "1 firstOfLine true", "1 laterInLine true", "1 laterInLine true",
        "2 ownLine false",
        "3 firstOfLine true",
      ])
  }

  @Test func theKernelCountsABatchLineOnceWithItsFirstEvent() throws {
    let event = { (value: Int) in
      #"{"specversion":"1.0","type":"geo.heading","source":"s","id":"\#(value)","#
        + #""data":{"heading":\#(value)}}"#
    }
    var configuration = ReplayConfiguration(domains: [GeoDomain()])
    configuration.format = try #require(LogFormat.preset(named: "cloudevents"))
    configuration.isFinal = true
    var replay = Replay(
      memory: "[\(event(1)),\(event(2))]\n\(event(3))\n", configuration: configuration)
    var summary: ReplaySummary?
    replay.forEachOutcome { outcome, _ in
      if case .end(let end) = outcome { summary = end }
    }
    let statistics = try #require(summary?.statistics)
    #expect(statistics.read == 2)
    #expect(statistics.batchLines == 1)
    #expect(statistics.batchEvents == 2)
    #expect(statistics.applied == 3)
  }
}
