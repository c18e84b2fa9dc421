import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// The reading thread of a keyed replay on one kernel reads each event's key ahead of the
/// kernel (``KeyHints``): the hints are right for every kind of item, and a replay that uses
/// them prints what one that reads every key in its turn prints.
@Suite struct KeyHintsTests {
  /// A log of `count` lines whose keys are short and long strings, numbers, objects, missing
  /// and `null`, with blank and bad lines among them, each ended by a newline (so a blank last
  /// line is a line too).
  private static func log(count: Int) -> String {
    var random = SplitMix64(seed: 42)
    func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    return (0..<count).map { _ in
      let device: String
      switch next(8) {
      case 0: device = #","device":"a device named at length \#(next(50))""#
      case 1: device = #","device":\#(next(40))"#
      case 2: device = #","device":{"id":\#(next(9))}"#
      case 3: device = ""
      case 4: device = #","device":null"#
      default: device = #","device":"d\#(next(300))""#
      }
      switch next(20) {
      case 0: return ""
      case 1: return #"{"type":"nav.push""#
      case 2, 3, 4: return #"{"type":"nav.pop"\#(device)}"#
      case 5, 6, 7, 8: return #"{"type":"nav.push"\#(device),"payload":{"screen":"s\#(next(4))"}}"#
      default: return #"{"type":"geo.heading"\#(device),"payload":{"heading":\#(next(360))}}"#
      }
    }.map { $0 + "\n" }.joined()
  }

  @Test func aHintIsWhatFindingTheKeyNeedsForEachEventAndNothingForTheRest() throws {
    let text = Self.log(count: 600)
    let reading = InputReading(
      ReplayInput(name: "log", source: .memory(JSONMemorySource(Array(text.utf8)))),
      shouldStop: { false })
    let path = try JSONPath("device")
    let router = SnapshotState(domains: [GeoDomain(), NavDomain()]).router
    let batcher = LineBatcher(
      input: 0, reading: reading, tracksTime: false,
      keyHints: KeyHints(keys: ReplayKeys(path: path), router: router))
    guard case .batch(let batch) = batcher.nextBatch(mayWait: true) else {
      Issue.record("no batch")
      return
    }
    #expect(batch.count == 600)
    #expect(batch.keyHints.count == batch.count)
    var keys = ReplayKeys(path: path)
    var hinted = 0
    for (index, item) in batch.items.enumerated() {
      let hint = batch.keyHints[index]
      guard case .event(let envelope) = item.kind else {
        #expect(hint == nil, "line \(item.lineNumber) is not an event")
        continue
      }
      // The key, as the kernel reads it in the event's turn, and the hint, found in the
      // table the same way.
      let canonical = Self.canonicalKey(of: item.bytes)
      guard let hint else {
        #expect(canonical == nil || canonical!.count > 16, "line \(item.lineNumber)")
        continue
      }
      hinted += 1
      #expect(canonical.map { $0.count <= 16 } == true, "line \(item.lineNumber)")
      guard case .number(let number) = keys.number(of: envelope, typeName: "") else {
        Issue.record("line \(item.lineNumber): no key")
        continue
      }
      #expect(keys.number(of: hint) == number, "line \(item.lineNumber)")
      #expect(Array(keys.key(number)) == canonical, "line \(item.lineNumber)")
    }
    #expect(hinted > 300)
  }

  /// The canonical JSON of a line's `device`, read with a parser of its own; `nil` when it
  /// is missing or `null` (the key `null`, found in its turn).
  private static func canonicalKey(of line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard case .object(let object)? = try? JSONParser.parse(line),
      let value = object["device"]
    else { return nil }
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  @Test(arguments: [false, true])
  func aReplayWithHintsPrintsWhatOneWithoutPrints(isFinal: Bool) throws {
    // More lines than a batch holds, so that the look-ahead crosses batches.
    let text = Self.log(count: 9_000)
    func run(_ threading: ReplayConfiguration.Threading, jobs: Int = 1) -> [UInt8] {
      var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
      configuration.threading = threading
      configuration.jobs = jobs
      configuration.errorMode = .skip
      configuration.keyPath = try? JSONPath("device")
      configuration.isFinal = isFinal
      var replay = Replay(memory: text, configuration: configuration)
      var described: [UInt8] = []
      replay.forEachOutcome { outcome, bytes in
        switch outcome {
        case .record:
          described += (bytes ?? []) + [10]
        case .skipped(let diagnostic): described += Array("skipped \(diagnostic)\n".utf8)
        case .end(let summary):
          let counts = summary.statistics
          described += Array(
            "end: \(counts.applied) applied, \(counts.keys) keys, \(counts.withoutKey)\n".utf8)
        default: break
        }
      }
      return described
    }
    // `single` reads every key in the kernel's turn; the others on a reading thread.
    let expected = run(.single)
    #expect(expected.count > 9_000)
    // With a pool of kernels, each event's kernel is told from the key read for its hint.
    let runs: [(ReplayConfiguration.Threading, Int)] = [
      (.readAhead, 1), (.decodeAhead, 1), (.automatic, 1), (.automatic, 2), (.readAhead, 3),
    ]
    for (threading, jobs) in runs {
      // Compared as a whole, then by line for the message: a difference of two arrays this
      // long would take the test library minutes to explain.
      let actual = run(threading, jobs: jobs)
      let same = actual == expected
      let differing = same ? nil : zip(Self.lines(actual), Self.lines(expected)).first { $0 != $1 }
      #expect(same, "\(threading), -j \(jobs): \(String(describing: differing))")
    }
  }

  private static func lines(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
  }
}
