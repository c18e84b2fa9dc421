import Foundation
import Rasp
import RaspDomains
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

/// The fixtures whose logs exercise each domain.
private let fixtures = [
  "domain-data", "domain-geo", "domain-lifecycle", "domain-motion", "domain-nav", "domain-rest",
  "domain-rest-hal", "domain-rest-hal-spring", "example", "session-mixed", "spec-cart",
]

/// The domains to replay a fixture with: its spec's, or the built-in ones.
private func domains(for fixture: String) throws -> [any RaspDomain] {
  guard fixture.hasPrefix("spec-") else { return RaspBuiltinDomains.all }
  let path = Repository.path("fixtures/\(fixture)/cart.json")
  return try RaspSpec(parsing: Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
    .domains
}

/// The log's lines, without blank ones.
private func lines(of fixture: String) throws -> [String] {
  let text = try String(
    contentsOfFile: Repository.path("fixtures/\(fixture)/events.jsonl"), encoding: .utf8)
  return text.split(separator: "\n").map(String.init)
}

/// A snapshot whose every domain was written as JSON and read back.
private func roundTripped(_ snapshot: SnapshotState, domains: [any RaspDomain]) throws
  -> SnapshotState
{
  var restored = SnapshotState(domains: domains)
  for index in 0..<snapshot.domainCount {
    let value = try JSONParser.parse(snapshot.encodedState(ofDomainAt: index))
    try restored.restoreState(ofDomainAt: index, from: value)
  }
  return restored
}

@Suite struct RaspStateRoundTripTests {
  @Test(arguments: fixtures)
  func aStateReadBackIsWrittenTheSame(fixture: String) throws {
    let domains = try domains(for: fixture)
    var replay = LogReplay(domains)
    for line in try lines(of: fixture) {
      _ = replay.send(line)
      let restored = try roundTripped(replay.pipeline.current, domains: domains)
      #expect(
        String(decoding: restored.json(), as: UTF8.self)
          == String(decoding: replay.pipeline.current.json(), as: UTF8.self), "after \(line)")
    }
  }

  @Test(arguments: fixtures)
  func aStateReadBackChangesAsTheOriginalWithEveryLaterEvent(fixture: String) throws {
    let domains = try domains(for: fixture)
    let log = try lines(of: fixture)
    // The full replay's outcome and snapshot after each line: the oracle.
    var oracle = LogReplay(domains)
    var snapshots: [String] = []
    var outcomes: [String] = []
    for line in log {
      outcomes.append(oracle.send(line))
      snapshots.append(oracle.json(whole: true))
    }
    var prefix = LogReplay(domains)
    for cut in 0..<log.count {
      var resumed = LogReplay(from: try roundTripped(prefix.pipeline.current, domains: domains))
      for index in cut..<log.count {
        let outcome = resumed.send(log[index])
        #expect(outcome.hasPrefix("col ") == outcomes[index].hasPrefix("col "), "line \(index + 1)")
        #expect(resumed.json(whole: true) == snapshots[index], "resumed after line \(cut)")
      }
      _ = prefix.send(log[cut])
    }
  }

  @Test func aStateOfTheWrongShapeIsRefusedWithItsPath() throws {
    let nav = #"{"modal":null,"stack":["a",2],"tab":null}"#
    #expect(throws: RaspStateError(path: "stack[1]", reason: "expected a string, found 2")) {
      try NavDomain().decodeState(try JSONParser.parse(nav))
    }
    #expect(throws: RaspStateError(path: "", reason: "missing member 'heading'")) {
      try GeoDomain().decodeState(try JSONParser.parse(#"{"accuracy":null,"location":null}"#))
    }
    let phase = #"{"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"asleep"}"#
    let error = try #require(
      throws: RaspStateError.self,
      performing: { try LifecycleDomain().decodeState(try JSONParser.parse(phase)) })
    #expect(error.description.hasPrefix("at 'phase': expected one of 'notRunning', "))
  }

  @Test func aDomainWithoutDecodeStateCannotBeRestored() throws {
    let error = try #require(
      throws: RaspStateError.self, performing: { try TallyDomain().decodeState(.null) })
    #expect(
      error.description
        == "the domain 'tally' cannot be restored from a checkpoint: it does not implement "
        + "decodeState(_:)")
  }
}

/// A domain of a library user's, which does not implement `decodeState(_:)`.
private struct TallyDomain: RaspDomain {
  struct State: RaspState, Sendable {
    var count = 0
    enum Event: Sendable { case add }
    mutating func apply(event: Event) { count += 1 }
  }
  var name: String { "tally" }
  var summary: String { "Counts." }
  var events: [RaspEventSchema] { [RaspEventSchema(name: "add", summary: "Adds one.", fields: [])] }
  var initialState: State { State() }
  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> State.Event { .add }
  func encode(_ state: State, into writer: inout JSONWriter) {
    writer.writeInteger(Int64(state.count))
  }
}
