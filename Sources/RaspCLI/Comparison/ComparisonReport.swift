import RaspJSON

/// The report of a ``SnapshotComparison``: text for people, JSON for tools, and a one-line
/// summary for standard error.
///
/// The text shows each differing snapshot the comparison kept (`--max-diffs`, 10 by default),
/// in order, as a ``RaspJSON/JSONDiffReport`` tree (`-` expected, `+` actual, equal siblings
/// collapsed), then counts the rest:
///
/// ```
/// snapshot 3 (events.jsonl:3) differs from expected.jsonl:3:
///   {
///     "geo": {
/// -     "heading": 90,
/// +     "heading": 91,
///       ... (2 unchanged)
///     },
///     ... (5 unchanged)
///   }
/// ... and 1 more snapshot differs (--max-diffs 0 shows it)
/// 2 snapshots missing: the replay ended before expected.jsonl:8
/// ```
///
/// The JSON report is one canonical JSON document. `diffs` holds the differing pairs the text
/// shows, each with `differences`: RFC 6902 operations that turn the expected snapshot into the
/// actual one, each `replace` and `remove` with the `expected` value too; `first` is the first
/// of them, as before `diffs` existed:
///
/// ```
/// {"compared":7,"differing":2,
///  "diffs":[{"actual":{"file":"events.jsonl","line":3,"snapshot":3},
///            "differences":[{"expected":90,"op":"replace","path":"/geo/heading","value":91}],
///            "expected":{"file":"expected.jsonl","line":3,"snapshot":3}}],
///  "equal":false,"extra":0,"first":{…},"firstExtra":null,
///  "firstMissing":{"file":"expected.jsonl","line":8,"snapshot":8},"missing":2}
/// ```
struct ComparisonReport {
  /// The comparison to report.
  let comparison: SnapshotComparison
  /// The expected side's name: the golden file, or the first file of `rasp diff`.
  let expectedName: String
  /// The actual side's name: `nil` for a replay, or the second file of `rasp diff`.
  let actualName: String?
  /// What the compared things are called: `snapshot`, or `action` for a DevTools export's
  /// recorded states.
  var noun = "snapshot"
  /// How the summary names the expected side, when not as `'<expectedName>'`.
  var expectedPhrase: String? = nil

  /// The report for people: empty when the streams are equal, otherwise lines ending in `\n`.
  var text: String {
    var lines: [String] = []
    for difference in comparison.differences {
      lines.append(
        "\(Self.describe(difference.actualPlace)) differs from "
          + "\(Self.location(difference.expectedPlace)):")
      lines.append(
        JSONDiffReport.render(
          expected: difference.expected, actual: difference.actual, options: comparison.options))
    }
    switch comparison.omitted {
    case 0: break
    case 1: lines.append("... and 1 more \(noun) differs (--max-diffs 0 shows it)")
    case let more:
      lines.append("... and \(more) more \(noun)s differ (--max-diffs 0 shows them all)")
    }
    if let place = comparison.firstMissing {
      let actual = actualName ?? "the replay"
      lines.append(
        "\(Self.count(comparison.missing, "snapshot")) missing: "
          + "\(actual) ended before \(Self.location(place))"
      )
    }
    if let place = comparison.firstExtra {
      lines.append(
        "\(Self.count(comparison.extra, "extra snapshot")): "
          + "\(expectedName) ended before \(Self.describe(place))"
      )
    }
    return lines.map { $0 + "\n" }.joined()
  }

  /// The report for tools: one canonical JSON document and a line end.
  var json: [UInt8] {
    var report = JSONObject()
    report["compared"] = .number(JSONNumber(comparison.compared))
    report["differing"] = .number(JSONNumber(comparison.differing))
    report["missing"] = .number(JSONNumber(comparison.missing))
    report["extra"] = .number(JSONNumber(comparison.extra))
    report["equal"] = .bool(comparison.isEqual)
    let differences = comparison.differences.map { json($0) }
    report["diffs"] = .array(differences)
    report["first"] = differences.first ?? JSONValue.null
    report["firstMissing"] = comparison.firstMissing.map(Self.json) ?? JSONValue.null
    report["firstExtra"] = comparison.firstExtra.map(Self.json) ?? JSONValue.null
    var writer = JSONWriter()
    writer.write(.object(report))
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  /// A differing pair as `{"actual":…,"differences":[…],"expected":…}`.
  private func json(_ difference: SnapshotComparison.Difference) -> JSONValue {
    var object = JSONObject()
    object["expected"] = Self.json(difference.expectedPlace)
    object["actual"] = Self.json(difference.actualPlace)
    object["differences"] = .array(
      JSONDiff.differences(
        from: difference.expected, to: difference.actual, options: comparison.options
      ).map(Self.operation))
    return .object(object)
  }

  /// The one-line summary for standard error:
  /// `rasp: 2 of 7 snapshots differ from 'expected.jsonl', 1 missing`, or
  /// `rasp: 7 snapshots match 'expected.jsonl'`.
  var summary: String {
    let subject = actualName.map { " of '\($0)'" } ?? ""
    let expected = expectedPhrase ?? "'\(expectedName)'"
    guard !comparison.isEqual else {
      let verb = comparison.compared == 1 ? "matches" : "match"
      return "rasp: \(Self.count(comparison.compared, noun))\(subject) \(verb) \(expected)\n"
    }
    var text = "rasp: \(comparison.differing) of \(Self.count(comparison.compared, noun))\(subject)"
    text += comparison.differing == 1 ? " differs" : " differ"
    text += " from \(expected)"
    if comparison.missing > 0 { text += ", \(comparison.missing) missing" }
    if comparison.extra > 0 { text += ", \(comparison.extra) extra" }
    return text + "\n"
  }

  /// An actual snapshot for the text report: `snapshot 3 (events.jsonl:3)`, or
  /// `snapshot 0 (the initial state)` before any event.
  static func describe(_ place: SnapshotComparison.Place) -> String {
    if let description = place.description { return description }
    let number = "snapshot \(place.snapshot ?? 0)"
    guard let file = place.file, let line = place.line else {
      return number + " (the initial state)"
    }
    return "\(number) (\(file):\(line))"
  }

  /// An expected snapshot for the text report: `expected.jsonl:3`.
  static func location(_ place: SnapshotComparison.Place) -> String {
    place.description ?? "\(place.file ?? "?"):\(place.line ?? 0)"
  }

  /// `1 snapshot`, `2 snapshots`.
  static func count(_ number: Int, _ noun: String) -> String {
    number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
  }

  /// A place as `{"file":…,"line":…,"snapshot":…}`, with `null` for what is not known.
  static func json(_ place: SnapshotComparison.Place) -> JSONValue {
    var object = JSONObject()
    let file: JSONValue = place.file.map { .string($0) } ?? .null
    let line: JSONValue = place.line.map { .number(JSONNumber($0)) } ?? .null
    let snapshot: JSONValue = place.snapshot.map { .number(JSONNumber($0)) } ?? .null
    object["file"] = file
    object["line"] = line
    object["snapshot"] = snapshot
    if let path = place.path { object["path"] = .string(path) }
    if let error = place.error { object["error"] = .string(error) }
    return .object(object)
  }

  /// A difference as an RFC 6902 operation, with the expected value of a `replace` or `remove`.
  static func operation(_ difference: JSONDifference) -> JSONValue {
    guard case .object(var operation) = difference.patchOperation else {
      return difference.patchOperation
    }
    if let expected = difference.expected { operation["expected"] = expected }
    return .object(operation)
  }
}
