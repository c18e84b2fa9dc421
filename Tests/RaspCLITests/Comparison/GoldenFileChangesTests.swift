import Testing

@testable import RaspCLI

@Suite struct GoldenFileChangesTests {
  typealias Lines = GoldenFileChanges.Lines

  /// The changes between an old file's lines and a new file's, compared place by place.
  func changes(old: [String], new: [String]) -> GoldenFileChanges {
    var changes = GoldenFileChanges()
    for (index, text) in new.enumerated() {
      guard index < old.count else {
        changes.noteAdded(line: index + 1)
        continue
      }
      Array(text.utf8).withUnsafeBufferPointer { new in
        Array(old[index].utf8).withUnsafeBufferPointer { old in
          changes.compare(new: new, old: old, line: index + 1)
        }
      }
    }
    for index in new.count..<max(new.count, old.count) {
      changes.noteRemoved(line: index + 1)
    }
    return changes
  }

  func lines(_ numbers: [Int]) -> Lines {
    var lines = Lines()
    for number in numbers { lines.append(number) }
    return lines
  }

  @Test(arguments: [
    // (lines, description)
    ([7], "(line 7)"),
    ([4, 5, 6], "(lines 4-6)"),
    ([4, 5, 6, 9], "(lines 4-6, 9)"),
    ([1, 2, 4, 6, 7, 9, 11], "(lines 1-2, 4, 6-7, 9, 11)"),
    ([1, 3, 5, 7, 9, 11, 12, 13, 15], "(lines 1, 3, 5, 7, 9, ... and 4 more)"),
    // The fifth run grows while its lines follow on; after a gap, lines are only counted.
    ([1, 3, 5, 7, 9, 10, 11, 13], "(lines 1, 3, 5, 7, 9-11, ... and 1 more)"),
  ])
  func linesNameTheirFirstRunsThenCountTheRest(numbers: [Int], description: String) {
    let lines = lines(numbers)
    #expect(lines.count == numbers.count)
    #expect(lines.description() == description)
  }

  @Test func aQualifierGoesBeforeTheWordLine() {
    #expect(lines([8, 9]).description(qualifier: "old ") == "(old lines 8-9)")
  }

  @Test func snapshotsEqualByMeaningAreUnchanged() {
    let same = changes(
      old: [#"{"a":1,"b":[1,2]}"#, #"{ "b" : [1.0, 2e0], "a" : 1 }"#],
      new: [#"{"a":1,"b":[1,2]}"#, #"{"a":1,"b":[1,2]}"#])
    #expect(!same.hasChanges)
    #expect(same.unchanged == 2)
    #expect(
      same.summary(golden: "g.jsonl")
        == "rasp: 2 snapshots match 'g.jsonl': nothing to update, the file is left as it was\n")
    #expect(
      changes(old: ["1"], new: ["1"]).summary(golden: "g.jsonl")
        == "rasp: 1 snapshot matches 'g.jsonl': nothing to update, the file is left as it was\n")
  }

  @Test func everyDifferenceIsAChangeAndSoIsAnOldLineThatIsNotJSON() {
    let changed = changes(
      old: ["1", #"{"ts":1}"#, "{oops", "4", "5"], new: ["1", #"{"ts":2}"#, "3", "4.0", "5.000001"]
    )
    #expect(changed.changed == lines([2, 3, 5]))
    #expect(changed.unchanged == 2)
    #expect(
      changed.summary(golden: "g.jsonl")
        == "rasp: updated 'g.jsonl': 3 snapshots changed (lines 2-3, 5), 2 unchanged\n")
  }

  @Test func summaryCountsChangedAddedAndRemovedWithTheirLines() {
    #expect(
      changes(old: ["1", "2", "3"], new: ["1", "9", "3", "4"]).summary(golden: "g.jsonl")
        == "rasp: updated 'g.jsonl': 1 snapshot changed (line 2), 1 added (line 4), 2 unchanged\n")
    #expect(
      changes(old: ["1", "2", "3"], new: ["1"]).summary(golden: "g.jsonl")
        == "rasp: updated 'g.jsonl': 2 snapshots removed (old lines 2-3), 1 unchanged\n")
    #expect(
      changes(old: [], new: ["1", "2"]).summary(golden: "g.jsonl")
        == "rasp: updated 'g.jsonl': 2 snapshots added (lines 1-2)\n")
    #expect(
      changes(old: ["1", "2"], new: ["0"]).summary(golden: "g.jsonl")
        == "rasp: updated 'g.jsonl': 1 snapshot changed (line 1), 1 removed (old line 2)\n")
  }

  @Test func anEmptyReplayOverAnEmptyFileChangesNothing() {
    #expect(
      changes(old: [], new: []).summary(golden: "g.jsonl")
        == "rasp: 0 snapshots match 'g.jsonl': nothing to update, the file is left as it was\n")
  }
}
