import Testing
import RaspDomains
import RaspJSON

@Suite struct LifecycleStateTests {
  @Test func followsATypicalSession() throws {
    var app = LifecycleState()
    try app.apply(event: .launch(at: "t1"))
    #expect(app == LifecycleState(phase: .inactive, changedAt: "t1", launches: 1))
    try app.apply(event: .becomeActive(at: "t2"))
    try app.apply(event: .resignActive(at: "t3"))
    try app.apply(event: .enterBackground(at: "t4"))
    #expect(app.phase == .background)
    try app.apply(event: .enterForeground(at: "t5"))
    #expect(app.phase == .inactive)
    try app.apply(event: .becomeActive(at: 6))
    #expect(app == LifecycleState(phase: .active, changedAt: 6, launches: 1))
    try app.apply(event: .terminate(at: nil))
    #expect(app == LifecycleState(phase: .terminated, changedAt: nil, launches: 1))
  }

  @Test func anEventToTheCurrentPhaseChangesNothing() throws {
    var app = LifecycleState(phase: .background, changedAt: "t1", launches: 1)
    try app.apply(event: .enterBackground(at: "t2"))
    #expect(app == LifecycleState(phase: .background, changedAt: "t1", launches: 1))
  }

  @Test func acceptsEveryMoveBetweenRunningPhases() throws {
    for from in [LifecyclePhase.inactive, .active, .background] {
      for event in [
        LifecycleState.Event.becomeActive(at: 1), .resignActive(at: 1), .enterBackground(at: 1),
        .enterForeground(at: 1), .terminate(at: 1),
      ] {
        var app = LifecycleState(phase: from, launches: 1)
        try app.apply(event: event)
      }
    }
  }

  @Test func launchCountsInEveryPhaseAndRelaunchesARunningApp() throws {
    for phase in LifecyclePhase.allCases {
      var app = LifecycleState(phase: phase, changedAt: "before", launches: 2)
      try app.apply(event: .launch(at: "now"))
      #expect(app.phase == .inactive)
      #expect(app.launches == 3)
      // changedAt moves only when the phase does: an inactive app that relaunches keeps it.
      #expect(app.changedAt == (phase == .inactive ? "before" : "now"))
    }
  }

  @Test func rejectsEveryOtherEventAfterTheAppTerminated() {
    let events: [LifecycleState.Event] = [
      .becomeActive(at: nil), .resignActive(at: nil), .enterBackground(at: nil),
      .enterForeground(at: nil), .terminate(at: nil), .memoryWarning,
    ]
    for event in events {
      var app = LifecycleState(phase: .terminated, changedAt: "t1", launches: 1)
      #expect(throws: LifecycleError.terminated(event: event.name)) {
        try app.apply(event: event)
      }
      #expect(app == LifecycleState(phase: .terminated, changedAt: "t1", launches: 1))
    }
    #expect(
      "\(LifecycleError.terminated(event: "enterBackground"))"
        == "cannot enterBackground: the app has terminated; only a launch can follow")
  }

  @Test func acceptsALogThatBeginsInTheMiddleOfASession() throws {
    var app = LifecycleState()
    try app.apply(event: .enterBackground(at: "t1"))
    #expect(app == LifecycleState(phase: .background, changedAt: "t1", launches: 0))
    var warned = LifecycleState()
    try warned.apply(event: .memoryWarning)
    #expect(warned == LifecycleState(phase: .notRunning, launches: 0, memoryWarnings: 1))
    var stopped = LifecycleState()
    try stopped.apply(event: .terminate(at: "t2"))
    #expect(stopped == LifecycleState(phase: .terminated, changedAt: "t2", launches: 0))
  }

  @Test func countsMemoryWarningsWithoutChangingThePhase() throws {
    var app = LifecycleState(phase: .background, changedAt: "t1", launches: 1)
    try app.apply(event: .memoryWarning)
    try app.apply(event: .memoryWarning)
    #expect(
      app == LifecycleState(phase: .background, changedAt: "t1", launches: 1, memoryWarnings: 2))
  }

  @Test func namesEveryEventAsTheLogDoes() {
    let events: [LifecycleState.Event] = [
      .launch(at: nil), .becomeActive(at: nil), .resignActive(at: nil), .enterBackground(at: nil),
      .enterForeground(at: nil), .terminate(at: nil), .memoryWarning,
    ]
    #expect(events.map(\.name) == LifecycleDomain().events.map(\.name))
  }

  @Test func isRunningOnlyBetweenLaunchAndTermination() {
    #expect(
      LifecyclePhase.allCases.filter { LifecycleState(phase: $0).isRunning } == [
        .inactive, .active, .background,
      ])
    #expect(LifecycleState.throwsBeforeMutating)
  }
}
