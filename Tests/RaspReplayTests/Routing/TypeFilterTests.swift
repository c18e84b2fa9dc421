import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// `--drop` and `--hide` in the kernel: each type's action found once, from the patterns; a
/// followed file replayed with them as it grows.
@Suite struct TypeFilterTests {
  static let typeNames = [["heading", "location"].map { "geo.\($0)" }, ["nav.push", "nav.pop"]]

  @Test func eachTypeIsDroppedHiddenOrAppliedAndDropWinsOverHide() throws {
    let filter = try #require(
      TypeFilter(
        dropping: [TypeGlob("nav.*")], hiding: [TypeGlob("*.pop"), TypeGlob("geo.heading")],
        typeNames: Self.typeNames))
    #expect(filter.action(domain: 0, event: 0) == .hide)
    #expect(filter.action(domain: 0, event: 1) == .apply)
    #expect(filter.action(domain: 1, event: 0) == .drop)
    #expect(filter.action(domain: 1, event: 1) == .drop)
    #expect(filter.hidesSome)
  }

  @Test func noPatternIsNoFilter() {
    #expect(TypeFilter(dropping: [], hiding: [], typeNames: Self.typeNames) == nil)
  }

  @Test func onlyAStarIsSpecial() {
    #expect(TypeGlob.problem(in: "nav.*") == nil)
    #expect(TypeGlob.problem(in: "*") == nil)
    #expect(TypeGlob.problem(in: "@@redux/*") == nil)
    for text in ["", "nav.pu?h", "nav.[ab]", "nav.{a,b}", "nav. push", "nav.\u{1B}"] {
      #expect(TypeGlob.problem(in: text) != nil, "\(text)")
    }
  }

  @Test func aFollowedFileIsReplayedWithoutDroppedAndHiddenLines() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-type-filter-\(UUID().uuidString).log").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let heading = { (value: Int) in
      #"{"type":"geo.heading","payload":{"heading":\#(value)}}"# + "\n"
    }
    let location = #"{"type":"geo.location","payload":{"latitude":1,"longitude":2}}"# + "\n"
    let push = #"{"type":"nav.push","payload":{"screen":"a"}}"# + "\n"
    try (heading(1) + push + location).write(toFile: path, atomically: false, encoding: .utf8)
    let interruption = ReplayInterruption()
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.selection = try JSONPath("geo.heading")
    configuration.droppedTypes = ["nav.*"]
    configuration.hiddenTypes = ["geo.heading"]
    configuration.interruption = interruption
    var replay = Replay(
      configuration: configuration, inputs: [try ReplayInput.following(path, name: "app.log")])
    var output: [UInt8] = []
    var seen: [String] = []
    var waits = 0
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record(let record):
        seen.append("\(record.line ?? 0): " + String(decoding: output[record.range], as: UTF8.self))
      case .waiting:
        waits += 1
        if seen.count == 1, waits < 1_000 {
          let handle = FileHandle(forWritingAtPath: path)
          try handle?.seekToEnd()
          try handle?.write(contentsOf: Data((heading(2) + push + location).utf8))
          try handle?.close()
          waits = 1_000
        } else if seen.count == 2 {
          interruption.request(signal: SIGINT)
        }
      case .checkpoint:
        break
      case .end(let summary):
        let counts = summary.statistics
        seen.append(
          "end: \(counts.read) read, \(counts.applied) applied, \(counts.hidden) hidden, "
            + "\(counts.droppedByOption) dropped")
      default:
        break
      }
    }
    #expect(seen == ["3: 1", "6: 2", "end: 6 read, 4 applied, 2 hidden, 2 dropped"])
  }
}
