import Testing
import RaspDomains

@Suite struct LifecycleDomainTests {
  @Test func decodesEveryEventWithItsTimestampAsWritten() {
    var replay = LogReplay([LifecycleDomain()])
    #expect(
      replay.json() == #"{"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"notRunning"}"#)
    let outcomes = replay.send([
      #"{"type":"lifecycle.launch","ts":"2026-11-22T09:30:00.000+01:00"}"#,
      #"{"type":"lifecycle.becomeActive","ts":1795336201.50}"#,
      #"{"type":"lifecycle.memoryWarning","ts":"2026-11-22T08:31:00Z"}"#,
      #"{"type":"lifecycle.resignActive"}"#,
      #"{"type":"lifecycle.enterBackground","ts":"2026-11-22T08:32:00Z","#
        + #""payload":{"reason":"home"}}"#,
      #"{"type":"lifecycle.enterBackground","ts":"2026-11-22T08:33:00Z"}"#,
      #"{"type":"lifecycle.enterForeground","ts":null}"#,
      #"{"type":"lifecycle.terminate","ts":"2026-11-22T08:34:00Z","payload":{}}"#,
    ])
    #expect(
      outcomes == [
        #"{"changedAt":"2026-11-22T09:30:00.000+01:00","launches":1,"memoryWarnings":0,"#
          + #""phase":"inactive"}"#,
        #"{"changedAt":1795336201.5,"launches":1,"memoryWarnings":0,"phase":"active"}"#,
        #"{"changedAt":1795336201.5,"launches":1,"memoryWarnings":1,"phase":"active"}"#,
        #"{"changedAt":null,"launches":1,"memoryWarnings":1,"phase":"inactive"}"#,
        #"{"changedAt":"2026-11-22T08:32:00Z","launches":1,"memoryWarnings":1,"#
          + #""phase":"background"}"#,
        #"{"changedAt":"2026-11-22T08:32:00Z","launches":1,"memoryWarnings":1,"#
          + #""phase":"background"}"#,
        #"{"changedAt":null,"launches":1,"memoryWarnings":1,"phase":"inactive"}"#,
        #"{"changedAt":"2026-11-22T08:34:00Z","launches":1,"memoryWarnings":1,"#
          + #""phase":"terminated"}"#,
      ])
  }

  @Test func reportsEveryError() {
    var replay = LogReplay([LifecycleDomain()])
    let outcomes = replay.send([
      #"{"type":"lifecycle.becomeActive","ts":"2026-11-22T08:30:00Z"}"#,
      #"{"type":"lifecycle.memoryWarning"}"#,
      #"{"type":"lifecycle.launch","payload":[]}"#,
      #"{"type":"lifecycle.launch","ts":"2026-11-22T08:30:00Z"}"#,
      #"{"type":"lifecycle.terminate"}"#,
      #"{"type":"lifecycle.terminate"}"#,
      #"{"type":"lifecycle.enterForeground"}"#,
      #"{"type":"lifecycle.crash"}"#,
    ])
    #expect(
      outcomes == [
        #"{"changedAt":"2026-11-22T08:30:00Z","launches":0,"memoryWarnings":0,"phase":"active"}"#,
        #"{"changedAt":"2026-11-22T08:30:00Z","launches":0,"memoryWarnings":1,"phase":"active"}"#,
        "col 38: field 'payload' must be an object, found an array",
        #"{"changedAt":"2026-11-22T08:30:00Z","launches":1,"memoryWarnings":1,"phase":"inactive"}"#,
        #"{"changedAt":null,"launches":1,"memoryWarnings":1,"phase":"terminated"}"#,
        "col 1: event rejected: cannot terminate: the app has terminated; only a launch can follow",
        "col 1: event rejected: cannot enterForeground: the app has terminated; "
          + "only a launch can follow",
        "ignored",
      ])
  }

  @Test func encodesEveryPhase() {
    for phase in LifecyclePhase.allCases {
      let state = LifecycleState(phase: phase, changedAt: 12.5, launches: 3, memoryWarnings: 4)
      #expect(
        encoded(LifecycleDomain(), state)
          == #"{"changedAt":12.5,"launches":3,"memoryWarnings":4,"phase":"\#(phase.rawValue)"}"#)
    }
  }

  @Test func describesItsEventsWithoutPayloadFields() {
    let domain = LifecycleDomain()
    #expect(domain.name == "lifecycle")
    #expect(domain.events.allSatisfy { $0.fields.isEmpty })
  }
}
