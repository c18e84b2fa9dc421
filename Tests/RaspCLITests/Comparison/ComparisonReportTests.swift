import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct ComparisonReportTests {
  typealias Place = SnapshotComparison.Place

  /// A comparison of `pairs`, then `missing` expected and `extra` actual snapshots.
  func comparison(
    _ pairs: [(String, String)], missing: Int = 0, extra: Int = 0,
    options: JSONDiffOptions = .init(), limit: Int? = nil
  ) -> SnapshotComparison {
    var comparison = SnapshotComparison(options: options, keepingAtMost: limit)
    for (index, (expected, actual)) in pairs.enumerated() {
      Array(expected.utf8).withUnsafeBufferPointer { e in
        Array(actual.utf8).withUnsafeBufferPointer { a in
          try? comparison.compare(
            expected: e, at: Place(snapshot: index + 1, file: "expected.jsonl", line: index + 1),
            actual: a, at: Place(snapshot: index + 3, file: "events.jsonl", line: index + 5))
        }
      }
    }
    for index in 0..<missing {
      let number = pairs.count + index + 1
      comparison.noteMissing(at: Place(snapshot: number, file: "expected.jsonl", line: number))
    }
    for index in 0..<extra {
      let number = pairs.count + index + 3
      comparison.noteExtra(at: Place(snapshot: number, file: "events.jsonl", line: number + 2))
    }
    return comparison
  }

  func report(_ comparison: SnapshotComparison, actualName: String? = nil) -> ComparisonReport {
    ComparisonReport(comparison: comparison, expectedName: "expected.jsonl", actualName: actualName)
  }

  @Test func equalStreamsPrintNothingButTheSummary() {
    let equal = report(comparison([("1", "1"), ("2", "2.0")]))
    #expect(equal.text == "")
    #expect(equal.summary == "rasp: 2 snapshots match 'expected.jsonl'\n")
    #expect(
      report(comparison([("1", "1")])).summary == "rasp: 1 snapshot matches 'expected.jsonl'\n")
  }

  /// Three differing pairs among four, then two missing snapshots.
  func threeDifferences(limit: Int?) -> SnapshotComparison {
    comparison(
      [
        ("{}", "{}"),
        (#"{"geo":{"heading":90,"speed":1}}"#, #"{"geo":{"heading":91,"speed":1}}"#), ("1", "2"),
        ("3", "4"),
      ],
      missing: 2, limit: limit)
  }

  @Test func textShowsEachDifferenceInOrderThenTheCounts() {
    #expect(
      report(threeDifferences(limit: nil)).text == """
        snapshot 4 (events.jsonl:6) differs from expected.jsonl:2:
          {
            "geo": {
        -     "heading": 90,
        +     "heading": 91,
              ... (1 unchanged)
            }
          }
        snapshot 5 (events.jsonl:7) differs from expected.jsonl:3:
        - 1
        + 2
        snapshot 6 (events.jsonl:8) differs from expected.jsonl:4:
        - 3
        + 4
        2 snapshots missing: the replay ended before expected.jsonl:5

        """)
    #expect(report(threeDifferences(limit: 3)).text == report(threeDifferences(limit: nil)).text)
  }

  @Test func textCountsTheDifferencesBeyondTheLimit() {
    #expect(
      report(threeDifferences(limit: 1)).text == """
        snapshot 4 (events.jsonl:6) differs from expected.jsonl:2:
          {
            "geo": {
        -     "heading": 90,
        +     "heading": 91,
              ... (1 unchanged)
            }
          }
        ... and 2 more snapshots differ (--max-diffs 0 shows them all)
        2 snapshots missing: the replay ended before expected.jsonl:5

        """)
    #expect(
      report(threeDifferences(limit: 2)).text.hasSuffix(
        """
        snapshot 5 (events.jsonl:7) differs from expected.jsonl:3:
        - 1
        + 2
        ... and 1 more snapshot differs (--max-diffs 0 shows it)
        2 snapshots missing: the replay ended before expected.jsonl:5

        """))
  }

  @Test func theSummaryCountsEveryDifferenceWhateverTheLimit() {
    #expect(
      report(threeDifferences(limit: 1)).summary
        == "rasp: 3 of 4 snapshots differ from 'expected.jsonl', 2 missing\n")
  }

  @Test func jsonListsTheDifferencesTheTextShowsAndTheFirstAsBefore() throws {
    for limit in [1, 2, nil] {
      let value = try JSONParser.parse(report(threeDifferences(limit: limit)).json)
      guard case .array(let diffs)? = value["diffs"] else {
        Issue.record("no diffs array")
        continue
      }
      #expect(diffs.count == limit ?? 3)
      #expect(value["differing"] == 3)
      #expect(value["first"] == diffs.first)
      #expect(diffs.last?["expected"]?["line"] == .number(JSONNumber((limit ?? 3) + 1)))
      #expect(
        diffs.first?["differences"] == [
          ["op": "replace", "path": "/geo/heading", "value": 91, "expected": 90]
        ])
    }
    let equal = try JSONParser.parse(report(comparison([("1", "1")])).json)
    #expect(equal["diffs"] == [])
    #expect(equal["first"] == .null)
  }

  @Test func textCountsExtraSnapshotsFromTheFirst() {
    let text = report(comparison([("1", "2")], extra: 1)).text
    #expect(
      text == """
        snapshot 3 (events.jsonl:5) differs from expected.jsonl:1:
        - 1
        + 2
        1 extra snapshot: expected.jsonl ended before snapshot 4 (events.jsonl:6)

        """)
  }

  @Test func theInitialStateHasNoEventPlace() {
    let initial = SnapshotComparison.Place(snapshot: 0, file: nil, line: nil)
    #expect(ComparisonReport.describe(initial) == "snapshot 0 (the initial state)")
  }

  @Test func aSecondFileIsNamedInsteadOfTheReplay() {
    let diff = report(comparison([("1", "1")], missing: 1), actualName: "b.jsonl")
    #expect(diff.text == "1 snapshot missing: b.jsonl ended before expected.jsonl:2\n")
    #expect(
      diff.summary == "rasp: 0 of 1 snapshot of 'b.jsonl' differ from 'expected.jsonl', 1 missing\n"
    )
  }

  @Test func summaryCountsDifferingOfComparedThenMissingAndExtra() {
    #expect(
      report(comparison([("1", "2"), ("1", "1"), ("3", "4")], extra: 2)).summary
        == "rasp: 2 of 3 snapshots differ from 'expected.jsonl', 2 extra\n")
    #expect(
      report(comparison([("1", "2"), ("1", "1")])).summary
        == "rasp: 1 of 2 snapshots differs from 'expected.jsonl'\n")
  }

  @Test func jsonGivesTheCountsPlacesAndPatchWithExpectedValues() throws {
    let json = report(
      comparison([(#"{"a":1,"b":[1,2],"c":true}"#, #"{"a":2,"b":[1],"d":null}"#)], missing: 1)
    ).json
    let text = String(decoding: json, as: UTF8.self)
    #expect(text.hasSuffix("}\n"))
    #expect(!text.dropLast().contains("\n"), "one line")
    let value = try JSONParser.parse(json)
    #expect(value["compared"] == 1)
    #expect(value["differing"] == 1)
    #expect(value["missing"] == 1)
    #expect(value["extra"] == 0)
    #expect(value["equal"] == false)
    #expect(value["firstExtra"] == .null)
    #expect(value["firstMissing"] == ["file": "expected.jsonl", "line": 2, "snapshot": 2])
    #expect(value["first"]?["actual"] == ["file": "events.jsonl", "line": 5, "snapshot": 3])
    #expect(value["first"]?["expected"] == ["file": "expected.jsonl", "line": 1, "snapshot": 1])
    #expect(
      value["first"]?["differences"] == [
        ["op": "replace", "path": "/a", "value": 2, "expected": 1],
        ["op": "remove", "path": "/b/1", "expected": 2],
        ["op": "remove", "path": "/c", "expected": true],
        ["op": "add", "path": "/d", "value": nil],
      ])
  }

  @Test func jsonDifferencesArePatchesFromExpectedToActual() throws {
    let expected: JSONValue = ["nav": ["stack": ["home", "list"]], "geo": ["heading": 90]]
    let actual: JSONValue = ["nav": ["stack": ["home"]], "geo": ["heading": 91, "speed": 3]]
    let json = report(comparison([(expected.description, actual.description)])).json
    let patch = try #require(try JSONParser.parse(json)["first"]?["differences"])
    #expect(try JSONPatch.apply(patch, to: expected) == actual)
  }

  @Test func ignoredDifferencesAreLeftOutOfTheReport() throws {
    let options = JSONDiffOptions(ignoring: [try JSONPath("ts", allowsPatterns: true)])
    let comparison = comparison([(#"{"ts":1,"x":1}"#, #"{"ts":2,"x":2}"#)], options: options)
    let value = try JSONParser.parse(report(comparison).json)
    #expect(
      value["first"]?["differences"] == [
        ["op": "replace", "path": "/x", "value": 2, "expected": 1]
      ])
    #expect(report(comparison).text.contains("... (1 unchanged)"))
  }
}
