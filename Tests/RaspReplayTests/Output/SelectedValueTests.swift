import Rasp
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// What a `--select` path picks (``SelectedValue``), in an event's line and in a snapshot's
/// text, checked against values written by hand.
@Suite struct SelectedValueTests {
  private func ofEvent(_ path: String, _ line: String) throws -> String {
    let path = try JSONPath(path, allowsFilters: true)
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer {
      String(decoding: SelectedValue.ofEvent(path, in: $0), as: UTF8.self)
    }
  }

  @Test func anEventsValueIsCanonicalAfterTheFirstKey() throws {
    let line = #"{"type":"nav.push","meta":{"user":"ada","tags":[ 2 , 1.50 ],"o":{"b":1,"a":2}}}"#
    #expect(try ofEvent("event.meta.user", line) == #""ada""#)
    #expect(try ofEvent("event.meta.tags", line) == "[2,1.5]")
    #expect(try ofEvent("event.meta.o", line) == #"{"a":2,"b":1}"#)
    #expect(try ofEvent("event.meta.tags|length", line) == "2")
    #expect(try ofEvent("event.meta.missing", line) == "null")
    #expect(try ofEvent("event.meta.tags[]", line) == "2\n1.5")
  }

  @Test func aSnapshotsValueIsReadFromItsDomainsText() throws {
    let state = SnapshotState(domains: [GeoDomain(), NavDomain()])
    var text = SnapshotText(state)
    var spare = JSONWriter()
    let nav = try #require(state.domainIndex(named: "nav"))
    func select(_ path: String, domain: Int?) throws -> String {
      String(
        decoding: SelectedValue.inSnapshot(
          try JSONPath(path), domain: domain, member: nil, text: &text, state, spare: &spare),
        as: UTF8.self)
    }
    #expect(try select("nav.stack", domain: nav) == "[]")
    #expect(try select("nav.stack|length", domain: nav) == "0")
    #expect(try select("nav.nothing", domain: nav) == "null")
    // From the top, a path that names no domain.
    #expect(try select("nothing.here", domain: nil) == "null")
    #expect(try select("nav.stack", domain: nil) == "[]")
    #expect(spare.bytes.isEmpty, "the spare writer is left as it was")
  }
}

/// A selection that goes on with a member its domain reads from the typed state (`nav.tab`,
/// ``RaspDomains/RaspMemberReading``) prints the bytes that locating the path in every
/// snapshot's text prints: the domains' own JSON is the oracle, byte for byte.
@Suite struct SelectedMemberTests {
  private static let domains: [any RaspDomain] = RaspBuiltinDomains.all

  /// Events of every built-in domain, every one of them valid, with numbers of every form the
  /// writer has (integers, short and long fractions, exponents, negative zero) and strings
  /// that need escapes.
  private static func log(seed: UInt64, count: Int) -> String {
    var random = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    func pick(_ choices: [String]) -> String { choices[next(choices.count)] }
    let angles = ["0", "1", "71.5", "0.1", "1e-7", "89.999", "90", "12.000"]
    let numbers = angles + ["-0.0", "-3.25", "123456789012", "1.5e300", "-52.520008"]
    // `é` three ways: two of them the same bytes once read, the third (`e` and a combining
    // accent) another string, which Swift's `==` would take for the same.
    let names = [#""a""#, #""b\"q""#, #""tab\t""#, #""é""#, #""\u00e9""#, #""e\u0301""#]
    var depth = 0
    var presents = false
    var lines: [String] = []
    for _ in 0..<count {
      switch next(15) {
      case 0: lines.append(#"{"type":"nav.selectTab","payload":{"tab":\#(pick(names))}}"#)
      case 1, 2:
        lines.append(#"{"type":"nav.push","payload":{"screen":\#(pick(names))}}"#)
        depth += 1
      case 3 where depth > 0:
        lines.append(#"{"type":"nav.pop"}"#)
        depth -= 1
      case 3, 4:
        lines.append(
          presents
            ? #"{"type":"nav.dismiss"}"#
            : #"{"type":"nav.present","payload":{"screen":\#(pick(names))}}"#)
        presents.toggle()
      case 5: lines.append(#"{"type":"geo.heading","payload":{"heading":\#(pick(angles))}}"#)
      case 6:
        lines.append(
          #"{"type":"geo.location","payload":{"latitude":\#(pick(angles)),"#
            + #""longitude":-\#(pick(angles)),"accuracy":\#(pick(angles))}}"#)
      case 7:
        lines.append(
          #"{"type":"rest.link","payload":{"rel":\#(pick(names)),"href":"/x/\#(next(9))"}}"#)
      case 8: lines.append(#"{"type":"rest.unlink","payload":{"rel":\#(pick(names))}}"#)
      case 9:
        lines.append(#"{"type":"lifecycle.launch","ts":"2026-11-22T09:29:5\#(next(10))Z"}"#)
      case 10: lines.append(#"{"type":"lifecycle.memoryWarning"}"#)
      case 11:
        lines.append(
          #"{"type":"motion.sample","payload":{"acceleration":{"x":\#(pick(numbers)),"#
            + #""y":\#(pick(numbers)),"z":\#(pick(numbers))}}}"#)
      case 12:
        let activity = pick([#""walking""#, #""running""#])
        lines.append(
          #"{"type":"motion.activity","payload":{"activity":\#(activity),"confidence":"high"}}"#)
      case 13:
        lines.append(
          #"{"type":"data.set","payload":{"key":\#(pick(names)),"#
            + #""value":{"n":\#(pick(numbers)),"s":\#(pick(names))}}}"#)
      default:
        lines.append(
          #"{"type":"data.merge","payload":{"key":"cart","value":{"total":\#(pick(numbers))}}}"#)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The records of a replay: each event's number and the record's bytes.
  private func records(_ log: String, selection: String?) throws -> [(seq: Int, text: String)] {
    var configuration = ReplayConfiguration(domains: Self.domains)
    configuration.selection = try selection.map { try JSONPath($0, allowsFilters: true) }
    var replay = Replay(memory: log, configuration: configuration)
    var records: [(Int, String)] = []
    var end = ""
    replay.forEachOutcome { outcome, bytes in
      switch outcome {
      case .record(let record):
        records.append((record.seq, String(decoding: bytes ?? [], as: UTF8.self)))
      case .end(let summary): end = "\(summary.statistics.applied) applied"
      default: end = "\(outcome)"
      }
    }
    // Every line of the log is a valid event.
    #expect(end == "3000 applied")
    return records
  }

  /// What `path` selects in a snapshot's text, located there from the top.
  private func located(_ path: JSONPath, in snapshot: String) throws -> String {
    let bytes = Array(snapshot.utf8)
    guard path.isLocatable else {
      return String(decoding: try path.selectedLines(in: bytes.span), as: UTF8.self)
    }
    switch try path.locate(in: bytes.span) {
    case .value(let range): return String(decoding: bytes[range], as: UTF8.self)
    case .length(let count): return String(count)
    case .missing: return "null"
    }
  }

  @Test(arguments: [
    "nav.tab", "nav.stack", "nav.modal", "nav.stack[0]", "nav.stack[-1]", "nav.stack|length",
    "nav.stack[]", "geo.heading", "geo.accuracy", "geo.location", "geo.location.latitude",
    "rest.links", "rest.links|keys", "lifecycle.phase", "lifecycle.changedAt",
    "lifecycle.launches", "motion.sample", "motion.sample.acceleration.x", "motion.activity",
    "motion.confidence", "data.cart", "data.cart.total", "data.a", "data.a.s", "data.é.n",
    "nav.nothing",
  ])
  func aMemberReadFromTheTypedStateIsWhatTheSnapshotsTextHolds(_ text: String) throws {
    let log = Self.log(seed: 5, count: 3_000)
    let path = try JSONPath(text, allowsFilters: true)
    var expected: [(seq: Int, text: String)] = []
    for record in try records(log, selection: nil) {
      let value = try located(path, in: record.text)
      // By their bytes, as the selector compares values: Swift's `!=` would take `é` and `e`
      // with a combining accent for one value.
      if expected.last.map({ Array($0.text.utf8) }) != Array(value.utf8) {
        expected.append((record.seq, value))
      }
    }
    // `[]` of an empty array prints no record.
    expected.removeAll { $0.text.isEmpty }
    let selected = try records(log, selection: text)
    #expect(selected.map { Array($0.text.utf8) } == expected.map { Array($0.text.utf8) }, "\(text)")
    #expect(selected.map(\.seq) == expected.map(\.seq), "\(text)")
    let constant = ["nav.nothing", "motion.confidence"]
    #expect(Set(expected.map(\.text)).count > 1 || constant.contains(text), "\(text) changes")
  }

  /// A member that goes from one kind of value to another, and to none: each change is a
  /// record, whatever kind the value before was (`null` after a number is a change).
  @Test func aMemberChangingKindIsARecordEachTime() throws {
    let values = ["42", "42", #""a""#, "true", "[1]", "[1]", "null", "false", #""a""#]
    var lines = values.map { #"{"type":"data.set","payload":{"key":"note","value":\#($0)}}"# }
    // Removed after each kind: no value is `null`.
    for index in [8, 7, 5, 3, 2, 1].sorted(by: >) {
      lines.insert(#"{"type":"data.remove","payload":{"key":"note"}}"#, at: index)
    }
    var configuration = ReplayConfiguration(domains: Self.domains)
    configuration.selection = try JSONPath("data.note")
    var replay = Replay(memory: lines.joined(separator: "\n"), configuration: configuration)
    var records: [String] = []
    replay.forEachOutcome { outcome, bytes in
      if case .record = outcome { records.append(String(decoding: bytes ?? [], as: UTF8.self)) }
    }
    // The values as the log sets them, each once until it changes.
    #expect(
      records == [
        "42", "null", "42", "null", #""a""#, "null", "true", "[1]", "null", "[1]", "null",
        "false", "null", #""a""#,
      ])
  }

  @Test func theBuiltInDomainsReadTheMembersTheSelectionsAbove() throws {
    let state = SnapshotState(domains: Self.domains)
    for (domain, member) in [
      ("nav", "tab"), ("geo", "location"), ("rest", "links"), ("lifecycle", "phase"),
      ("motion", "sample"), ("data", "cart"),
    ] {
      let index = try #require(state.domainIndex(named: domain))
      #expect(state.member(named: member, ofDomainAt: index) != nil, "\(domain).\(member)")
    }
  }
}
