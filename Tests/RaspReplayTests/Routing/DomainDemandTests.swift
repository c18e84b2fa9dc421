import Foundation
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// The demand stage (``DomainDemand``): with `--select` of one domain, the events of the
/// others are passed over — counted, their payloads checked to be JSON, neither decoded nor
/// applied — and what is printed is what a replay of every snapshot shows.
@Suite struct DomainDemandTests {
  private static let builtIn: [any RaspDomain] = [
    GeoDomain(), NavDomain(), RestDomain(), LifecycleDomain(),
  ]

  private func demand(
    _ path: String?, domains: [any RaspDomain] = builtIn,
    _ configure: (inout ReplayConfiguration) -> Void = { _ in }
  ) throws -> (DomainDemand, SnapshotState) {
    var configuration = ReplayConfiguration(domains: domains)
    configuration.selection = try path.map { try JSONPath($0, allowsFilters: true) }
    configure(&configuration)
    let snapshot = SnapshotState(domains: domains)
    let selection = ReplaySelection(configuration.selection, snapshot: snapshot)
    let listeners = TypeListeners(
      domains: snapshot.listeningDomains, typeNames: snapshot.router.typeNames)
    return (
      DomainDemand(
        configuration, selection: selection, listeners: listeners,
        domainCount: snapshot.domainCount),
      snapshot
    )
  }

  private func needed(_ demand: DomainDemand, _ snapshot: SnapshotState) -> [String] {
    snapshot.domainNames.indices.filter { demand.needs($0) }.map { snapshot.domainNames[$0] }
  }

  @Test func aSelectionOfOneDomainNeedsThatDomainOnly() throws {
    let (demand, snapshot) = try demand("nav.tab")
    #expect(!demand.needsEvery)
    #expect(needed(demand, snapshot) == ["nav"])
    let (ofEvent, _) = try self.demand("event.meta.user")
    #expect(!ofEvent.needsEvery)
    #expect(needed(ofEvent, snapshot) == [])
  }

  @Test func everyDomainIsNeededWhenTheOutputOrTheChecksMayReadAny() throws {
    let cases: [(String?, (inout ReplayConfiguration) -> Void)] = [
      (nil, { _ in }),
      (".", { _ in }),
      ("nav.tab", { $0.isStrict = true }),
      ("nav.tab", { $0.checkpointInterval = 100 }),
      ("nav.tab", { $0.checkpointsAtEnd = true }),
    ]
    for (path, configure) in cases {
      let (demand, snapshot) = try demand(path, configure)
      #expect(demand.needsEvery, "\(path ?? "no selection")")
      #expect(needed(demand, snapshot).count == 4)
    }
  }

  /// `user.loggedOut` is `user`'s, and `audit` and `cart` listen to it; `cart` also listens
  /// to `*.undo`, which no domain has; `geo` shares nothing.
  private static let listening = #"""
    {"domains": [
      {"name": "audit", "initial": 0, "events": [
        {"on": ["user.loggedOut"], "ops": [
          {"op": "increment", "path": ".", "from": "payload.by"}]}]},
      {"name": "cart", "initial": {"items": []}, "events": [
        {"name": "added", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]},
        {"on": ["user.loggedOut"], "ops": [{"op": "clear", "path": "items"}]},
        {"on": ["*.undo"], "ops": [{"op": "pop", "path": "items"}]}]},
      {"name": "note", "initial": null, "events": [
        {"on": ["app.undo"], "ops": [{"op": "set", "path": ".", "value": "undone"}]}]},
      {"name": "user", "initial": {"in": true}, "events": [
        {"name": "loggedOut", "ops": [{"op": "set", "path": "in", "value": false}]}]}]}
    """#

  @Test func domainsThatShareAnEventAreNeededTogether() throws {
    let spec = try RaspSpec(parsing: Array(Self.listening.utf8))
    let domains: [any RaspDomain] = spec.domains + [GeoDomain()]
    let (geo, snapshot) = try demand("geo.heading", domains: domains)
    #expect(needed(geo, snapshot) == ["geo"])
    // `audit` refuses a `user.loggedOut` without `by`, which then leaves `user` as it was.
    let (user, _) = try demand("user.in", domains: domains)
    #expect(needed(user, snapshot) == ["audit", "cart", "note", "user"])
    // A listener may share a type no domain has (`app.undo`) with any other listener.
    let (note, _) = try demand("note", domains: domains)
    #expect(needed(note, snapshot) == ["audit", "cart", "note", "user"])
  }

  // MARK: - Passing over, against every snapshot

  /// A log of every domain here with, from line 200 on, lines whose payloads are not JSON, of
  /// any domain: bad lines under `--select` too.
  private static func log(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    var lines: [String] = []
    for index in 0..<count {
      let time = #""ts":"2026-11-22T09:\#(10 + index / 60 % 50):\#(10 + index % 50).000Z""#
      switch next(index < 200 ? 11 : 12) {
      case 0: lines.append(#"{\#(time),"type":"nav.selectTab","payload":{"tab":"t\#(next(3))"}}"#)
      case 1, 2:
        lines.append(#"{\#(time),"type":"nav.push","payload":{"screen":"s\#(next(5))"}}"#)
      case 3: lines.append(#"{\#(time),"type":"nav.pop"}"#)
      case 4, 5:
        lines.append(#"{\#(time),"type":"geo.heading","payload":{"heading":\#(next(360))}}"#)
      case 6:
        lines.append(
          #"{\#(time),"type":"geo.location","payload":{"latitude":52.\#(next(999)),"#
            + #""longitude":13.\#(next(999))}}"#)
      case 7:
        lines.append(
          #"{\#(time),"type":"rest.link","payload":{"rel":"r\#(next(4))","href":"/x/\#(next(9))"}}"#
        )
      case 8: lines.append(#"{\#(time),"type":"rest.unlink","payload":{"rel":"r\#(next(4))"}}"#)
      case 9: lines.append(#"{\#(time),"type":"lifecycle.launch"}"#)
      case 10: lines.append(#"{\#(time),"type":"lifecycle.background"}"#)
      default:
        let domain = ["geo.heading", "nav.push"][next(2)]
        lines.append(#"{\#(time),"type":"\#(domain)","payload":{"heading":1]"#)
      }
    }
    return lines
  }

  /// The records of a replay of `lines`, with their events' numbers and lines, and its bad
  /// lines' places.
  private func replay(
    _ lines: [String], _ configure: (inout ReplayConfiguration) throws -> Void
  ) throws -> (records: [(seq: Int, line: Int, text: String)], bad: [String], end: String) {
    var configuration = ReplayConfiguration(domains: Self.builtIn)
    configuration.errorMode = .skip
    try configure(&configuration)
    var replay = Replay(memory: lines.joined(separator: "\n"), configuration: configuration)
    var records: [(Int, Int, String)] = []
    var bad: [String] = []
    var end = ""
    replay.forEachOutcome { outcome, bytes in
      switch outcome {
      case .record(let record):
        let text = String(decoding: bytes ?? [], as: UTF8.self)
        records.append((record.seq, record.line ?? -1, text))
      case .skipped(let diagnostic): bad.append("\(diagnostic.line):\(diagnostic.column)")
      case .end(let summary): end = "\(summary.statistics.applied) applied"
      default: break
      }
    }
    return (records, bad, end)
  }

  /// The value at `member` of `domain` in a snapshot's text, as JSON text, read with
  /// Foundation's parser: not rasp's.
  private func member(_ domain: String, _ member: String?, of text: String) throws -> String {
    let snapshot = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        as? [String: Any])
    var value: Any = snapshot[domain] ?? NSNull()
    if let member { value = (value as? [String: Any])?[member] ?? NSNull() }
    let data = try JSONSerialization.data(
      withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  @Test(
    arguments: [
      ("nav", "tab"), ("nav", "stack"), ("geo", "heading"), ("rest", "links"),
      ("lifecycle", nil),
    ] as [(String, String?)])
  func theSelectedValuesAreThoseOfEverySnapshotOnEveryThreading(
    domain: String, member: String?
  ) throws {
    let lines = Self.log(seed: 11, count: 1_500)
    let every = try replay(lines) { _ in }
    // The selection prints the first value, then each change, from the full snapshots.
    var expected: [(seq: Int, value: String)] = []
    for record in every.records {
      let value = try self.member(domain, member, of: record.text)
      if expected.last?.value != value { expected.append((record.seq, value)) }
    }
    let path = member.map { "\(domain).\($0)" } ?? domain
    let threadings: [ReplayConfiguration.Threading] = [
      .single, .readAhead, .decodeAhead, .automatic,
    ]
    for threading in threadings {
      let selected = try replay(lines) {
        $0.selection = try JSONPath(path)
        $0.threading = threading
      }
      let values = try selected.records.map {
        try self.member("v", nil, of: #"{"v":\#($0.text)}"#)
      }
      #expect(selected.records.map(\.seq) == expected.map(\.seq), "\(path), \(threading)")
      #expect(values == expected.map(\.value), "\(path), \(threading)")
      // Payloads that are not JSON are bad lines still, of whichever domain.
      #expect(selected.bad == every.bad, "\(path), \(threading)")
      #expect(selected.end == every.end)
      #expect(every.bad.count > 50)
    }
  }

  @Test func anEventOfAnotherDomainCountsAsAppliedAndKeepsItsNumber() throws {
    let lines = [
      #"{"type":"geo.heading","payload":{"heading":"north"}}"#,
      #"{"type":"nav.selectTab","payload":{"tab":"orders"}}"#,
      #"{"type":"geo.heading","payload":{"heading":90}}"#,
      #"{"type":"nav.selectTab","payload":{"tab":"cart"}}"#,
    ]
    let selected = try replay(lines) { $0.selection = try JSONPath("nav.tab") }
    #expect(selected.records.map(\.seq) == [1, 2, 4])
    #expect(selected.records.map(\.text) == ["null", #""orders""#, #""cart""#])
    #expect(selected.bad == [])
    #expect(selected.end == "4 applied")
    // `--strict` decodes every event: the heading that is not a number is a bad line.
    let strict = try replay(lines) {
      $0.selection = try JSONPath("nav.tab")
      $0.isStrict = true
    }
    #expect(strict.bad == ["1:44"])
    #expect(strict.records.map(\.seq) == [1, 3])
  }
}
