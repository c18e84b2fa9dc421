import Foundation
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp blame` against a second implementation: every state that `rasp replay --with-event`
/// prints, read with Foundation's JSON parser, the path walked by this file's own code, and
/// the value compared with the one before each event, per key. Run over generated logs,
/// unkeyed and keyed, on one thread and two, for a member, an array, its last element, its
/// length, a whole domain and a value that is `null` at first.
@Suite struct BlameCommandTests {
  /// One change, as both implementations describe it: values as canonical JSON text.
  struct Change: Equatable, CustomStringConvertible {
    let seq: Int
    let key: String
    let before: String
    let after: String
    var description: String { "#\(seq) \(key): \(before) → \(after)" }
  }

  static let paths = ["nav.stack", "nav.stack[-1]", "nav.stack|length", "geo.heading", "geo"]

  /// Canonical JSON text of a Foundation value (`nil`: missing, as `null`).
  static func canonical(_ value: Any?) -> String {
    guard let value, !(value is NSNull) else { return "null" }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else { return "?" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The value at `path` (`a.b`, `a[-1]`, `a|length`) in `state`, walked here.
  static func walk(_ state: Any?, _ path: String) -> Any? {
    var text = path
    var length = false
    if text.hasSuffix("|length") {
      text.removeLast("|length".count)
      length = true
    }
    var value = state
    for part in text.split(separator: ".") {
      var name = Substring(part)
      var index: Int?
      if let open = part.firstIndex(of: "[") {
        name = part[..<open]
        index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)])
      }
      value = (value as? [String: Any])?[String(name)]
      if let index {
        guard let array = value as? [Any] else { return nil }
        let position = index < 0 ? array.count + index : index
        value = array.indices.contains(position) ? array[position] : nil
      }
    }
    guard length else { return value }
    switch value {
    case let array as [Any]: return array.count
    case let object as [String: Any]: return object.count
    case let string as String: return string.unicodeScalars.count
    case nil, is NSNull: return 0
    default: return value
    }
  }

  static func objects(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The oracle: the changes of `path` over every state `rasp replay --with-event` prints.
  static func expectedChanges(_ log: String, path: String, options: [String]) throws -> [Change] {
    let initial = try #require(
      objects(CommandRun.run(["replay", "--final", "-"], input: []).standardOutput).first)
    let records = objects(
      CommandRun.run(["replay", "--with-event"] + options + ["-"], input: Array(log.utf8))
        .standardOutput)
    var values: [String: String] = [:]
    var changes: [Change] = []
    for record in records {
      let key = canonical(record["key"])
      let before = values[key] ?? canonical(walk(initial, path))
      let after = canonical(walk(record["state"], path))
      values[key] = after
      if after != before {
        changes.append(
          Change(seq: record["seq"] as? Int ?? -1, key: key, before: before, after: after))
      }
    }
    return changes
  }

  /// What `rasp blame` printed, read with Foundation.
  static func blamed(_ log: String, path: String, options: [String]) -> (Int32, [Change]) {
    let run = CommandRun.run(["blame", path] + options + ["-"], input: Array(log.utf8))
    return (
      run.status,
      objects(run.standardOutput).map {
        Change(
          seq: $0["seq"] as? Int ?? -1, key: canonical($0["key"]), before: canonical($0["before"]),
          after: canonical($0["after"]))
      }
    )
  }

  @Test(arguments: [
    (keys: 0, jobs: "1"), (keys: 7, jobs: "1"), (keys: 7, jobs: "3"),
  ])
  func findsEveryChangeTheStatesShow(keys: Int, jobs: String) throws {
    let log =
      AssertionOracleTests.log(count: 400, faults: [50, 200], keys: keys, seed: 5)
    let options = (keys > 0 ? ["--key-by", "device"] : []) + ["--domain", "geo,nav"]
    for path in Self.paths {
      let expected = try Self.expectedChanges(log, path: path, options: options)
      let (status, actual) = Self.blamed(log, path: path, options: options + ["-j", jobs])
      #expect(status == 0, "\(path)")
      #expect(!expected.isEmpty, "\(path): the log changes it")
      #expect(actual == expected, "\(path), \(keys) keys, -j \(jobs)")
    }
  }

  /// With `--since` and `--until`, the changes in the range, each with the value before it as
  /// the whole replay had it (the value is followed from the start, not from `--since`).
  @Test(arguments: [
    (keys: 0, jobs: "1", since: 50, until: 400), (keys: 7, jobs: "1", since: 137, until: 300),
    (keys: 7, jobs: "3", since: 2, until: 51),
  ])
  func sinceAndUntilKeepTheChangesInTheirRange(keys: Int, jobs: String, since: Int, until: Int)
    throws
  {
    let log = AssertionOracleTests.log(count: 400, faults: [50, 200], keys: keys, seed: 5)
    let options = (keys > 0 ? ["--key-by", "device"] : []) + ["--domain", "geo,nav"]
    for path in Self.paths {
      let expected = try Self.expectedChanges(log, path: path, options: options)
        .filter { $0.seq >= since && $0.seq <= until }
      let (status, actual) = Self.blamed(
        log, path: path,
        options: options + ["-j", jobs, "--since", "#\(since)", "--until", "#\(until)"])
      #expect(status == 0, "\(path)")
      #expect(!expected.isEmpty, "\(path): the range changes it")
      #expect(actual == expected, "\(path), \(keys) keys, -j \(jobs), #\(since)…#\(until)")
    }
  }

  @Test(arguments: [1, 2, 49, 50, 51, 137, 400])
  func atAnEventItIsTheLastChangeOfThatEventsKey(event: Int) throws {
    let log = AssertionOracleTests.log(count: 400, faults: [50, 200], keys: 5, seed: 9)
    let options = ["--key-by", "device", "--domain", "geo,nav"]
    let key = Self.canonical(Self.objects(log)[event - 1]["device"])
    for path in Self.paths {
      let expected = try Self.expectedChanges(log, path: path, options: options)
        .last { $0.seq <= event && $0.key == key }
      let (status, actual) = Self.blamed(
        log, path: path, options: options + ["--at", "\(event)"])
      #expect(status == 0)
      #expect(actual == (expected.map { [$0] } ?? []), "\(path) at \(event)")
      #expect(Self.blamed(log, path: path, options: options + ["--at", "#\(event)"]).1 == actual)
    }
  }

  @Test func eachChangeNamesItsEventAsReadAndItsPlace() throws {
    let run = CommandRun.run(
      ["blame", "geo.heading", "fixtures/example/events.jsonl"], in: Repository.root)
    #expect(run.status == 0)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == #"{"after":271.5,"before":null,"event":{"payload":{"heading":271.5},"#
        + #""ts":"2026-11-22T09:30:00.12Z","type":"geo.heading"},"#
        + #""file":"fixtures/example/events.jsonl","key":null,"line":6,"seq":6}"#)
    #expect(run.standardError == "rasp: 2 of 20 events changed 'geo.heading'\n")
  }

  @Test func saysWhenNoEventSetTheValue() {
    let run = CommandRun.run(
      ["blame", "nav.stack", "--at", "3", "fixtures/example/events.jsonl"], in: Repository.root)
    #expect(run.status == 0)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError
        == "rasp: none of 3 events changed 'nav.stack': it holds its initial value\n")
  }

  @Test(arguments: [
    (
      ["blame", "geo.headng", "fixtures/example/events.jsonl"],
      "unknown field 'headng' of domain 'geo' in 'rasp blame geo.headng'; did you mean "
        + "'geo.heading'?"
    ),
    (
      ["blame", "gep.heading", "fixtures/example/events.jsonl"],
      "unknown domain 'gep' in 'rasp blame gep.heading'; did you mean 'geo'?"
    ),
    (
      ["blame", "nav.stack[]", "fixtures/example/events.jsonl"],
      "'nav.stack[]' is not one value of the state: blame follows a path without patterns or "
        + "filters but '|length', in a domain ('geo.heading', 'nav.stack')"
    ),
    (["blame"], "missing expected argument '<path>'"),
    (
      ["blame", "geo.heading", "--select", "geo", "fixtures/example/events.jsonl"],
      "unknown option '--select'"
    ),
  ])
  func refusesWhatIsNotOneValue(arguments: [String], message: String) {
    let run = CommandRun.run(arguments, in: Repository.root)
    #expect(run.status == 64)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }

  @Test func aBadLineIsAnErrorWithItsPlace() {
    let run = CommandRun.run(
      ["blame", "geo.heading", "-"],
      input: Array((#"{"type":"geo.heading","payload":{"heading":1}}"# + "\n{\n").utf8))
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("<stdin>:2:"), "\(run.standardError)")
  }
}
