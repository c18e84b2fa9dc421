import RaspJSON

/// What `rasp check --update` changes in a golden file that exists: which snapshots changed,
/// which were added and which removed, and the one-line summary of it on standard error.
///
/// The old file is read alongside the replay (``GoldenFileSink``) and each new snapshot is
/// compared with the old one at its place, by meaning and exactly — `--ignore` and
/// `--precision` are for checking, not for what the file holds: key order, whitespace and the
/// spelling of numbers do not count as changes, any other difference does, and so does an old
/// line that is not JSON. Nothing is kept but counts and the first few line numbers.
///
/// ```swift
/// var changes = GoldenFileChanges()
/// changes.compare(new: record, old: oldLine.bytes, line: 4)
/// changes.noteAdded(line: 7)
/// print(changes.summary(golden: "expected.jsonl"), terminator: "")
/// // rasp: updated 'expected.jsonl': 1 snapshot changed (line 4), 1 added (line 7), 5 unchanged
/// ```
struct GoldenFileChanges: Equatable {
  /// The numbers of some lines, in increasing order: all of them counted, the first few kept
  /// as runs (`4-6`) for the summary.
  struct Lines: Equatable {
    /// How many runs of lines a summary names before it counts the rest.
    static let shownRuns = 5

    /// How many lines there are.
    private(set) var count = 0
    /// The first runs of consecutive lines.
    private(set) var runs: [ClosedRange<Int>] = []

    /// Adds a line, after the lines already added.
    mutating func append(_ line: Int) {
      count += 1
      if let last = runs.last, last.upperBound + 1 == line, shown == count - 1 {
        runs[runs.count - 1] = last.lowerBound...line
      } else if runs.count < Self.shownRuns, shown == count - 1 {
        runs.append(line...line)
      }
    }

    /// How many lines ``runs`` holds.
    var shown: Int { runs.reduce(0) { $0 + $1.count } }

    /// The lines for a summary: `(line 7)`, `(lines 4-6, 9)`,
    /// `(lines 1, 3, 5, 7, 9, ... and 7 more)`; `qualifier` goes before `line`.
    func description(qualifier: String = "") -> String {
      let words = runs.map {
        $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)"
      }
      var text = "(\(qualifier)\(count == 1 ? "line" : "lines") " + words.joined(separator: ", ")
      let rest = count - shown
      if rest > 0 { text += ", ... and \(rest) more" }
      return text + ")"
    }
  }

  /// How many snapshots are the same in the old file and the new one.
  private(set) var unchanged = 0
  /// The snapshots that changed, by their lines in the new file.
  private(set) var changed = Lines()
  /// The snapshots beyond the end of the old file, by their lines in the new file.
  private(set) var added = Lines()
  /// The snapshots beyond the end of the new file, by their lines in the old file.
  private(set) var removed = Lines()

  /// Whether any snapshot changed, was added or was removed.
  var hasChanges: Bool { changed.count > 0 || added.count > 0 || removed.count > 0 }

  /// Compares a new snapshot with the old one at its place.
  ///
  /// - Parameters:
  ///   - new: The new snapshot: one line of canonical JSON, as the replay wrote it.
  ///   - old: The old file's line at the same place, which may not be JSON at all.
  ///   - line: The new snapshot's line in the new file.
  mutating func compare(
    new: UnsafeBufferPointer<UInt8>, old: UnsafeBufferPointer<UInt8>, line: Int
  ) {
    if new.elementsEqual(old) {
      unchanged += 1
      return
    }
    let depth = JSONLimits.maximumWrittenDepth
    guard let newValue = try? JSONParser.parse(new, maximumDepth: depth),
      let oldValue = try? JSONParser.parse(old, maximumDepth: depth),
      !JSONDiff.hasDifferences(from: oldValue, to: newValue, options: JSONDiffOptions())
    else {
      changed.append(line)
      return
    }
    unchanged += 1
  }

  /// Counts a new snapshot that the old file does not have.
  mutating func noteAdded(line: Int) {
    added.append(line)
  }

  /// Counts an old snapshot that the new file does not have.
  mutating func noteRemoved(line: Int) {
    removed.append(line)
  }

  /// The summary for standard error, ending with a line end:
  /// `rasp: updated 'g.jsonl': 3 snapshots changed (lines 4-6), 1 added (line 7), 3 unchanged`,
  /// or, when nothing changed,
  /// `rasp: 6 snapshots match 'g.jsonl': nothing to update, the file is left as it was`.
  func summary(golden: String) -> String {
    guard hasChanges else {
      let verb = unchanged == 1 ? "matches" : "match"
      return
        "rasp: \(ComparisonReport.count(unchanged, "snapshot")) \(verb) '\(golden)': "
        + "nothing to update, the file is left as it was\n"
    }
    var parts: [String] = []
    for (lines, verb, qualifier) in [
      (changed, "changed", ""), (added, "added", ""), (removed, "removed", "old "),
    ] where lines.count > 0 {
      // The first part names the noun: "3 snapshots changed …, 1 added …".
      let number =
        parts.isEmpty ? ComparisonReport.count(lines.count, "snapshot") : "\(lines.count)"
      parts.append("\(number) \(verb) \(lines.description(qualifier: qualifier))")
    }
    if unchanged > 0 { parts.append("\(unchanged) unchanged") }
    return "rasp: updated '\(golden)': " + parts.joined(separator: ", ") + "\n"
  }
}
