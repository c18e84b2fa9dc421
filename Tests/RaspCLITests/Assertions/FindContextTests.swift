import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp find --context N` against every state `rasp replay --with-event` prints: each event
/// found carries the `N` events of its key before and after it, with the state after each,
/// exactly as the replay printed them, and `--first` still reads the `N` after its event.
@Suite struct FindContextTests {
  /// The replay's records, by key (the whole log for an unkeyed replay), in order.
  static func recordsByKey(_ arguments: [String], in directory: String) throws -> [JSONValue:
    [JSONValue]]
  {
    let replay = CommandRun.run(["replay", "--with-event"] + arguments, in: directory)
    #expect(replay.status == 0, "\(replay.standardError)")
    var byKey: [JSONValue: [JSONValue]] = [:]
    for line in replay.standardOutput.split(separator: "\n") {
      let record = try JSONParser.parse(String(line))
      byKey[record["key"] ?? .null, default: []].append(record)
    }
    return byKey
  }

  static func found(_ arguments: [String], in directory: String) throws -> [JSONValue] {
    let run = CommandRun.run(["find"] + arguments, in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    return try run.standardOutput.split(separator: "\n").map { try JSONParser.parse(String($0)) }
  }

  /// What a context entry must be: the record's place and state.
  static func place(_ record: JSONValue) -> [JSONValue?] {
    [record["seq"], record["line"], record["file"], record["state"]]
  }

  @Test(arguments: [(0, 1, 1), (0, 3, 1), (3, 2, 1), (3, 2, 2)])
  func holdsTheStatesReplayPrintsAroundEachEvent(keys: Int, context: Int, jobs: Int) throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "events.jsonl",
      AssertionOracleTests.log(count: 400, faults: [3, 97, 98 + 5, 250, 399], keys: keys, seed: 7))
    let keyed = keys > 0 ? ["--key-by", "device", "-j", "\(jobs)"] : []
    let byKey = try Self.recordsByKey(keyed + ["events.jsonl"], in: directory.path)
    let crash = #".nav.stack[-1] == "crash""#
    let found = try Self.found(
      [crash, "--context", "\(context)"] + keyed + ["events.jsonl"], in: directory.path)
    #expect(found.count == 5)
    for match in found {
      let records = byKey[match["key"] ?? .null] ?? []
      guard let position = records.firstIndex(where: { $0["seq"] == match["seq"] }) else {
        Issue.record("no record of \(match)")
        continue
      }
      #expect(match["state"] == records[position]["state"], "--context implies --with-state")
      let before = records[max(0, position - context)..<position].map(Self.place)
      let after = records[(position + 1)..<min(records.count, position + 1 + context)].map(
        Self.place)
      guard case .array(let shownBefore)? = match["before"],
        case .array(let shownAfter)? = match["after"]
      else {
        Issue.record("no context in \(match)")
        continue
      }
      #expect(shownBefore.map(Self.place) == before, "before \(match["seq"] ?? .null)")
      #expect(shownAfter.map(Self.place) == after, "after \(match["seq"] ?? .null)")
      for entry in shownBefore + shownAfter {
        // The event as rasp read it: its type, always.
        #expect(entry["event"]?["type"] != nil)
      }
    }
  }

  @Test func firstReadsOnUntilItsContextIsWhole() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "events.jsonl", AssertionOracleTests.log(count: 300, faults: [40, 200], keys: 0, seed: 3))
    let crash = #".nav.stack[-1] == "crash""#
    let found = try Self.found(
      ["--first", crash, "--context", "4", "events.jsonl"], in: directory.path)
    #expect(found.count == 1)
    #expect(found.first?["seq"] == .number(JSONNumber(40)))
    guard case .array(let after)? = found.first?["after"] else {
      Issue.record("no after context")
      return
    }
    #expect(after.compactMap { $0["seq"] } == (41...44).map { .number(JSONNumber($0)) })
    let stats = CommandRun.run(
      ["find", "--first", crash, "--context", "4", "--stats", "events.jsonl"], in: directory.path)
    // It stopped reading at the last event of the context (44), not at the end of the log.
    #expect(stats.standardError.contains("44 applied"), "\(stats.standardError)")
  }

  @Test func aContextAtTheEdgesOfTheLogIsShorter() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "events.jsonl", AssertionOracleTests.log(count: 50, faults: [1, 49], keys: 0, seed: 1))
    let found = try Self.found(
      [#".nav.stack[-1] == "crash""#, "--context", "3", "events.jsonl"], in: directory.path)
    #expect(found.count == 2)
    #expect(found.first?["before"] == .array([]))
    if case .array(let after)? = found.last?["after"] {
      #expect(after.count == 1, "only event 50 comes after 49")
    } else {
      Issue.record("no after context")
    }
  }

  @Test func refusesAContextThatIsNotACount() {
    for value in ["x", "-1", "1.5"] {
      let run = CommandRun.run(["find", ".nav.tab == null", "--context", value, "-"])
      #expect(run.status == 64)
      #expect(
        run.standardError.hasPrefix(
          "rasp: error: invalid value '\(value)' for '--context <n>': expected a whole number"))
    }
  }
}
