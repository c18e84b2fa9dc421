import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// An event of a type that other domains listen to (a spec's `on`) is applied to its own domain
/// and theirs, in the order of the domains, all or nothing; a selection, a keyed replay and
/// `-j N` see every domain it changed.
@Suite struct ListenedEventsTests {
  /// `cart` empties on `user.loggedOut` and takes back its last item on any `*.undo`; `user`
  /// has its own `loggedOut`; `audit` counts `user.loggedOut` and refuses one without a
  /// `payload.by`.
  private static let spec = #"""
    {"domains": [
      {"name": "audit", "initial": 0, "events": [
        {"on": ["user.loggedOut"], "ops": [
          {"op": "increment", "path": ".", "from": "payload.by"}]}]},
      {"name": "cart", "initial": {"items": []}, "events": [
        {"name": "added", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]},
        {"on": ["user.loggedOut"], "ops": [{"op": "clear", "path": "items"}]},
        {"on": ["*.undo"], "ops": [{"op": "pop", "path": "items"}]}]},
      {"name": "user", "initial": {"in": true}, "events": [
        {"name": "loggedOut", "ops": [{"op": "set", "path": "in", "value": false}]}]}]}
    """#

  /// The records and bad lines of a replay of `lines`, as text.
  private func replay(
    _ lines: [String], _ configure: (inout ReplayConfiguration) throws -> Void = { _ in }
  ) throws -> (records: [String], skipped: [String]) {
    let domains = try RaspSpec(parsing: Array(Self.spec.utf8)).domains
    var configuration = ReplayConfiguration(domains: domains)
    configuration.errorMode = .skip
    try configure(&configuration)
    var replay = Replay(memory: lines.joined(separator: "\n"), configuration: configuration)
    var records: [String] = []
    var skipped: [String] = []
    replay.forEachOutcome { outcome, bytes in
      if let bytes { records.append(String(decoding: bytes, as: UTF8.self)) }
      if case .skipped(let diagnostic) = outcome { skipped.append(diagnostic.description) }
    }
    return (records, skipped)
  }

  private static let added = #"{"type":"cart.added","payload":{"sku":"A"}}"#
  private static let loggedOut = #"{"type":"user.loggedOut","payload":{"by":1}}"#

  @Test func theEventChangesItsOwnDomainAndEveryListeningOne() throws {
    let result = try replay([Self.added, Self.loggedOut, Self.added, #"{"type":"app.undo"}"#])
    #expect(result.skipped == [])
    #expect(
      result.records == [
        #"{"audit":0,"cart":{"items":["A"]},"user":{"in":true}}"#,
        #"{"audit":1,"cart":{"items":[]},"user":{"in":false}}"#,
        #"{"audit":1,"cart":{"items":["A"]},"user":{"in":false}}"#,
        #"{"audit":1,"cart":{"items":[]},"user":{"in":false}}"#,
      ])
  }

  @Test func aDomainThatRefusesItUndoesItInEveryDomain() throws {
    // `audit` refuses a logout without `payload.by`: cart and user keep their states too.
    let result = try replay([Self.added, #"{"type":"user.loggedOut","payload":{}}"#, Self.added])
    #expect(
      result.records == [
        #"{"audit":0,"cart":{"items":["A"]},"user":{"in":true}}"#,
        #"{"audit":0,"cart":{"items":["A","A"]},"user":{"in":true}}"#,
      ])
    #expect(result.skipped.count == 1)
    // In the order of the domains, audit's refusal is met first, and named, at the payload.
    #expect(
      result.skipped == [
        "log:2:36: event rejected: by 'audit', which listens to 'user.loggedOut': "
          + "missing required field 'payload.by'"
      ])
    // An `undo` with nothing to take back is refused by cart: no record at all.
    #expect(try replay([#"{"type":"app.undo"}"#]).records == [])
  }

  @Test func aSelectionOfAListeningDomainChangesWithTheEvent() throws {
    let result = try replay([Self.added, Self.loggedOut, Self.loggedOut]) {
      $0.selection = try JSONPath("cart.items")
    }
    #expect(result.records == [#"["A"]"#, "[]"])
  }

  @Test func aKeyedReplayAppliesItToTheKeysStateOnAnyNumberOfThreads() throws {
    let lines = (0..<40).map { index in
      index % 3 == 0
        ? #"{"type":"user.loggedOut","device":"d\#(index % 4)","payload":{"by":1}}"#
        : #"{"type":"cart.added","device":"d\#(index % 4)","payload":{"sku":"s\#(index)"}}"#
    }
    let one = try replay(lines) {
      $0.keyPath = try JSONPath("device")
      $0.includesEvent = true
    }
    let two = try replay(lines) {
      $0.keyPath = try JSONPath("device")
      $0.includesEvent = true
      $0.jobs = 2
    }
    #expect(one.records.count == 40)
    #expect(one.records == two.records)
    // d3 logged out at lines 4, 16, 28 and 40.
    #expect(one.records.last?.contains(#""audit":4"#) == true, "\(one.records.last ?? "")")
  }
}
