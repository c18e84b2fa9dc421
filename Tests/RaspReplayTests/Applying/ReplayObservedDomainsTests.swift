import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// An observer that names the domains it reads is told only of the events that changed one of
/// them — an event that a named domain listens to included — with their own numbers and lines,
/// and the kernel counts the others; every event is applied either way.
@Suite struct ReplayObservedDomainsTests {
  /// `cart` takes items and empties on `user.loggedOut`; `user` has its own events.
  private static let spec = #"""
    {"domains": [
      {"name": "cart", "initial": {"items": []}, "events": [
        {"name": "added", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]},
        {"on": ["user.loggedOut"], "ops": [{"op": "clear", "path": "items"}]}]},
      {"name": "user", "initial": {"in": true}, "events": [
        {"name": "loggedOut", "ops": [{"op": "set", "path": "in", "value": false}]},
        {"name": "seen", "ops": [{"op": "set", "path": "in", "value": true}]}]}]}
    """#

  /// The log, as a marble table of the domains each line changes:
  ///
  /// ```
  /// line   1      2     3          4     5      6
  /// cart   added        (cleared)        added
  /// user          seen  loggedOut  seen         seen
  /// ```
  private static let log = [
    #"{"type":"cart.added","payload":{"sku":"A"}}"#,
    #"{"type":"user.seen"}"#,
    #"{"type":"user.loggedOut"}"#,
    #"{"type":"user.seen"}"#,
    #"{"type":"cart.added","payload":{"sku":"B"}}"#,
    #"{"type":"user.seen"}"#,
  ].joined(separator: "\n")

  /// Keeps `seq@line:domains changed` of each event it is told of.
  fileprivate final class Recorder: ReplayStateObserver {
    let observedDomains: ReplayObservedDomains?
    var told: [String] = []

    init(observes: [Bool]?) {
      observedDomains = observes.map { ReplayObservedDomains(observes: $0) }
    }

    func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
      let names = event.state.domainNames
      told.append(
        "\(event.seq)@\(event.line):"
          + event.changedDomains.map { names[$0] }.joined(separator: ","))
    }
  }

  /// The events `recorder` is told of, and how many lines the replay applied.
  private func replay(_ recorder: Recorder) throws -> Int {
    var configuration = ReplayConfiguration(
      domains: try RaspSpec(parsing: Array(Self.spec.utf8)).domains)
    configuration.stateObserver = recorder
    var replay = Replay(memory: Self.log, configuration: configuration)
    var applied = 0
    replay.forEachOutcome { outcome, _ in
      if case .end(let summary) = outcome { applied = summary.statistics.applied }
    }
    return applied
  }

  @Test func anObserverOfEveryDomainIsToldOfEveryEvent() throws {
    let recorder = Recorder(observes: nil)
    #expect(try replay(recorder) == 6)
    #expect(
      recorder.told == [
        "1@1:cart", "2@2:user", "3@3:user,cart", "4@4:user", "5@5:cart", "6@6:user",
      ])
  }

  @Test func anObserverOfOneDomainIsToldOfItsEventsAndOfThoseItListensTo() throws {
    let recorder = Recorder(observes: [true, false])
    #expect(try replay(recorder) == 6)
    #expect(recorder.told == ["1@1:cart", "3@3:user,cart", "5@5:cart"])
    #expect(recorder.observedDomains?.passedOver == 3)
  }

  @Test func anObserverOfTheOtherDomainIsToldOfTheOtherEvents() throws {
    let recorder = Recorder(observes: [false, true])
    #expect(try replay(recorder) == 6)
    #expect(recorder.told == ["2@2:user", "3@3:user,cart", "4@4:user", "6@6:user"])
    #expect(recorder.observedDomains?.passedOver == 2)
  }

  @Test func anObserverOfNoDomainIsToldOfNothingAndEveryEventIsCounted() throws {
    let recorder = Recorder(observes: [false, false])
    #expect(try replay(recorder) == 6)
    #expect(recorder.told == [])
    #expect(recorder.observedDomains?.passedOver == 6)
  }
}
