import Testing
import Rasp

fileprivate struct Broken: Error, CustomStringConvertible {
  var description: String { "broken" }
}

/// A state whose events are strings, for failures to carry.
fileprivate struct Log: RaspState, Sendable {
  var lines: [String] = []
  mutating func apply(event: String) throws { lines.append(event) }
}

@Suite struct RaspFailureTests {
  @Test func describesEachOriginOnOneLine() {
    #expect(
      "\(RaspFailure(error: Broken(), event: "tap", origin: .event, state: Log()))"
        == "event tap rejected: broken")
    #expect(
      "\(RaspFailure(error: Broken(), event: "tap", origin: .composite, state: Log()))"
        == "composite rolled back at event tap: broken")
    #expect(
      "\(RaspFailure(error: Broken(), event: "undo", origin: .fallback, state: Log()))"
        == "fallback event undo rejected: broken")
    #expect(
      "\(RaspFailure(error: Broken(), event: nil, origin: .source(index: 2), state: Log()))"
        == "source 2 failed: broken")
  }

  @Test func originsCompareByCaseAndIndex() {
    typealias Origin = RaspFailure<Log>.Origin
    #expect(Origin.source(index: 1) == .source(index: 1))
    #expect(Origin.source(index: 1) != .source(index: 2))
    #expect(Origin.event != .composite)
  }
}
