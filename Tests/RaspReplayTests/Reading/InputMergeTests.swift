#if canImport(Glibc)
  import Glibc
#endif
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// The merge of several inputs: by time, stably (the first input's item on a tie, an input's
/// own order kept), checked against a model; or one input after another (`--concat`).
@Suite struct InputMergeTests {
  /// A line of input `input`'s `n`th event, at `seconds` past the minute, or with no time.
  private static func line(_ input: Int, _ n: Int, at seconds: Int?) -> String {
    let time = seconds.map { #","ts":"2026-11-22T09:30:\#(String(format: "%02d", $0))Z""# } ?? ""
    return #"{"type":"data.set","payload":{"key":"i\#(input)","value":\#(n)}\#(time)}"#
  }

  private func merge(_ inputs: [[String]], concatenates: Bool = false) -> InputMerge {
    let batchers = inputs.enumerated().map { index, lines in
      LineBatcher(
        input: index,
        reading: InputReading(
          ReplayInput(
            name: "log\(index)",
            source: .memory(JSONMemorySource(Array(lines.joined(separator: "\n").utf8)))),
          shouldStop: { false }),
        tracksTime: true)
    }
    return InputMerge(batchers: batchers, concatenates: concatenates)
  }

  /// Every item the merge hands on, as `input:line`.
  private func order(of merge: InputMerge) -> [String] {
    var found: [String] = []
    while case .item(let batch, let index) = merge.next(mayWait: true) {
      found.append("\(batch.items[index].input):\(batch.items[index].lineNumber)")
    }
    return found
  }

  @Test func mergesByTimeTheFirstInputsItemFirstOnATie() {
    let times = [[0, 2, 2, 5, 9], [1, 2, 3, 9, 9, 12], [2, 2, 4]]
    let inputs = times.enumerated().map { input, seconds in
      seconds.enumerated().map { Self.line(input, $0, at: $1) }
    }
    // The model: every line by its time, then its input, then its place in the input.
    let expected = times.enumerated()
      .flatMap { input, seconds in seconds.enumerated().map { (input, $0 + 1, $1) } }
      .sorted { ($0.2, $0.0, $0.1) < ($1.2, $1.0, $1.1) }
      .map { "\($0.0):\($0.1)" }
    #expect(order(of: merge(inputs)) == expected)
    // The model itself, read: the first input's line at second 2 before the second's.
    #expect(expected.prefix(5) == ["0:1", "1:1", "0:2", "0:3", "1:2"])
  }

  @Test func keepsEachInputsOwnOrderAndGivesALineWithoutTimeTheTimeBeforeIt() {
    // The second input goes back in time; its lines are handed on in its order all the same,
    // each when it is the earliest head. Its line 2 has no time: it takes line 1's.
    let inputs = [
      [Self.line(0, 0, at: 3), Self.line(0, 1, at: 6)],
      [Self.line(1, 0, at: 5), Self.line(1, 1, at: nil), "", Self.line(1, 2, at: 1)],
    ]
    #expect(order(of: merge(inputs)) == ["0:1", "1:1", "1:2", "1:3", "1:4", "0:2"])
  }

  @Test func concatenatesInputsInTheirOrderWhateverTheirTimes() {
    let inputs = [
      [Self.line(0, 0, at: 9), Self.line(0, 1, at: 10)],
      [],
      [Self.line(2, 0, at: 1), Self.line(2, 1, at: nil)],
    ]
    #expect(order(of: merge(inputs, concatenates: true)) == ["0:1", "0:2", "2:1", "2:2"])
  }

  @Test func handsOnAcrossBatches() {
    // Lines of about 80 bytes: a batch ends at 256 KiB, after about 3,200 of them, so that
    // each input is read in three batches, which end at other places in the two.
    let counts = [8_000, 7_001]
    let inputs = counts.enumerated().map { input, count in
      (0..<count).map { Self.line(input, $0 * 7, at: $0 * 4 / count) }
    }
    let expected = counts.enumerated()
      .flatMap { input, count in (0..<count).map { (input, $0 + 1, $0 * 4 / count) } }
      .sorted { ($0.2, $0.0, $0.1) < ($1.2, $1.0, $1.1) }
      .map { "\($0.0):\($0.1)" }
    #expect(order(of: merge(inputs)) == expected)
  }

  @Test func knowsNoEarliestItemWhileALiveInputHasNothingReady() throws {
    var ends: [Int32] = [-1, -1]
    try #require(makeCloseOnExecPipe(&ends))
    defer { close(ends[0]) }
    let live = LineBatcher(
      input: 1,
      reading: InputReading(
        ReplayInput(name: "pipe", source: .descriptor(ends[0]), isLive: true),
        shouldStop: { false }),
      tracksTime: true)
    let file = LineBatcher(
      input: 0,
      reading: InputReading(
        ReplayInput(
          name: "file",
          source: .memory(JSONMemorySource(Array(Self.line(0, 0, at: 4).utf8)))),
        shouldStop: { false }),
      tracksTime: true)
    let merge = InputMerge(batchers: [file, live])
    func next() -> String {
      switch merge.next(mayWait: false) {
      case .item(let batch, let index):
        "\(batch.items[index].input):\(batch.items[index].lineNumber)"
      case .wouldWait: "wouldWait"
      case .end: "end"
      }
    }
    // The earliest is not known while the live input has no head.
    #expect(next() == "wouldWait")
    let bytes = Array((Self.line(1, 0, at: 2) + "\n").utf8)
    #expect(write(ends[1], bytes, bytes.count) == bytes.count)
    #expect(next() == "1:1")
    #expect(next() == "wouldWait")
    close(ends[1])
    #expect(next() == "0:1")
    #expect(next() == "end")
  }
}
