import Testing
import Rasp

fileprivate struct Broken: Error, CustomStringConvertible {
  var description: String { "broken" }
}

@Suite struct RaspFailureTests {
  @Test func describesEachOriginOnOneLine() {
    #expect(
      "\(RaspFailure(error: Broken(), event: "tap", origin: .event))"
        == "event tap rejected: broken")
    #expect(
      "\(RaspFailure(error: Broken(), event: "tap", origin: .composite))"
        == "composite rolled back at event tap: broken")
    #expect(
      "\(RaspFailure(error: Broken(), event: "undo", origin: .fallback))"
        == "fallback event undo rejected: broken")
    #expect(
      "\(RaspFailure<String>(error: Broken(), event: nil, origin: .source(index: 2)))"
        == "source 2 failed: broken")
  }

  @Test func originsCompareByCaseAndIndex() {
    typealias Origin = RaspFailure<String>.Origin
    #expect(Origin.source(index: 1) == .source(index: 1))
    #expect(Origin.source(index: 1) != .source(index: 2))
    #expect(Origin.event != .composite)
  }
}
