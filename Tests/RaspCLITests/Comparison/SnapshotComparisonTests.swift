import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct SnapshotComparisonTests {
  typealias Place = SnapshotComparison.Place

  func compare(
    _ pairs: [(String, String)], options: JSONDiffOptions = .init(), limit: Int? = nil
  ) throws(SnapshotComparison.InputError) -> SnapshotComparison {
    var comparison = SnapshotComparison(options: options, keepingAtMost: limit)
    for (index, (expected, actual)) in pairs.enumerated() {
      let place = Place(snapshot: index + 1, file: "f", line: index + 1)
      let result: Result<Void, SnapshotComparison.InputError> = Array(expected.utf8)
        .withUnsafeBufferPointer { e in
          Array(actual.utf8).withUnsafeBufferPointer { a in
            Result { () throws(SnapshotComparison.InputError) in
              try comparison.compare(expected: e, at: place, actual: a, at: place)
            }
          }
        }
      try result.get()
    }
    return comparison
  }

  @Test func equalByMeaningWhateverTheKeyOrderWhitespaceOrNumberSpelling() throws {
    let comparison = try compare([
      (#"{"a":1,"b":[1,2]}"#, #"{"a":1,"b":[1,2]}"#),
      (#"{ "b" : [1.0, 2e0], "a" : 1 }"#, #"{"a":1,"b":[1,2]}"#),
    ])
    #expect(comparison.isEqual)
    #expect(comparison.compared == 2)
    #expect(comparison.firstDifference == nil)
  }

  @Test func keepsEveryDifferenceInOrderWithoutALimit() throws {
    let comparison = try compare([
      ("1", "1"), (#"{"a":1}"#, #"{"a":2}"#), ("[1]", "[2]"), ("3", "3"),
    ])
    #expect(comparison.differing == 2)
    #expect(comparison.omitted == 0)
    #expect(!comparison.isEqual)
    let first = try #require(comparison.firstDifference)
    #expect(first.expected == ["a": 1])
    #expect(first.actual == ["a": 2])
    #expect(first.actualPlace == Place(snapshot: 2, file: "f", line: 2))
    #expect(comparison.differences.map(\.actual) == [["a": 2], [2]])
  }

  @Test(arguments: [
    // (limit, kept, omitted)
    (1, [2], 3), (2, [2, 3], 2), (4, [2, 3, 5, 6], 0), (5, [2, 3, 5, 6], 0),
  ])
  func keepsTheFirstDifferencesUpToTheLimitAndCountsTheRest(
    limit: Int, kept: [Int], omitted: Int
  ) throws {
    let comparison = try compare(
      [("0", "0"), ("1", "2"), ("1", "3"), ("4", "4"), ("1", "5"), ("1", "6")], limit: limit)
    #expect(comparison.differing == 4)
    #expect(comparison.differences.map(\.actual) == kept.map { .number(JSONNumber($0)) })
    #expect(comparison.omitted == omitted)
  }

  @Test func optionsIgnorePathsAndToleratePrecision() throws {
    let options = JSONDiffOptions(
      ignoring: [try JSONPath("**.ts", allowsPatterns: true)], tolerance: 0.01)
    let comparison = try compare(
      [(#"{"x":{"ts":1},"y":1.0}"#, #"{"x":{"ts":2},"y":1.005}"#)], options: options)
    #expect(comparison.isEqual)
  }

  @Test func missingAndExtraSnapshotsKeepTheFirstPlace() {
    var comparison = SnapshotComparison(options: .init())
    comparison.noteMissing(at: Place(snapshot: 3, file: "g", line: 4))
    comparison.noteMissing(at: Place(snapshot: 4, file: "g", line: 5))
    comparison.noteExtra(at: Place(snapshot: 9, file: "e", line: 10))
    #expect(comparison.missing == 2)
    #expect(comparison.extra == 1)
    #expect(comparison.firstMissing == Place(snapshot: 3, file: "g", line: 4))
    #expect(comparison.firstExtra == Place(snapshot: 9, file: "e", line: 10))
    #expect(!comparison.isEqual)
  }

  @Test func badJSONOnEitherSideNamesTheSide() {
    #expect(throws: SnapshotComparison.InputError.self) { _ = try compare([("{", "{}")]) }
    do {
      _ = try compare([("{}", "[1,]")])
    } catch {
      #expect(error.side == .actual)
      #expect(error.error.offset == 2)
    }
    do {
      _ = try compare([("nul", "nul")])
    } catch {
      #expect(error.side == .expected, "equal bytes are still checked to be JSON")
    }
  }
}
