import RaspJSON

/// What `rasp check --assert` prints: the violations, as text or JSON, on standard output,
/// and a one-line summary for standard error.
///
/// ```swift
/// let report = AssertionReport(observer: observer)
/// print(report.text, terminator: "")   // assertion failed: .cart.total >= 0 (event 7, …)
/// print(report.summary, terminator: "")   // rasp: 1 violation of 1 assertion in 12 events
/// ```
struct AssertionReport {
  /// The violations shown.
  let violations: [AssertionViolation]
  /// How many there were.
  let violationCount: Int
  /// How many assertions were checked.
  let assertionCount: Int
  /// How many events were applied.
  let events: Int
  /// The lines whose events were applied, by input, for `--applied-lines`; `nil` without it.
  let appliedLines: [(file: String, runs: [ClosedRange<Int>])]?

  /// The report of an observer whose replay ended.
  ///
  /// - Parameters:
  ///   - observer: The observer.
  ///   - listsAppliedLines: Whether the JSON report lists the lines whose events were
  ///     applied, which the observer recorded.
  init(observer: AssertionObserver, listsAppliedLines: Bool = false) {
    violations = observer.violations
    violationCount = observer.violationCount
    assertionCount = observer.assertionCount
    events = observer.events
    appliedLines = listsAppliedLines ? observer.appliedLines : nil
  }

  /// Whether every assertion held.
  var holds: Bool { violationCount == 0 }

  /// The violations for people, one block each, then how many more there were.
  var text: String {
    var text = violations.map(\.text).joined(separator: "\n")
    let more = violationCount - violations.count
    if more > 0 {
      text += "\n\(ComparisonReport.count(more, "more violation")) not shown (see --max-failures)\n"
    }
    return text
  }

  /// The report as one JSON document: `{"assertions":…,"events":…,"violationCount":…,
  /// "violations":[…]}`, and `"appliedLines":[{"file":…,"runs":[[first,last],…]},…]` with
  /// `--applied-lines`.
  var json: [UInt8] {
    var object = JSONObject()
    if let appliedLines {
      object["appliedLines"] = .array(
        appliedLines.map { input in
          var member = JSONObject()
          member["file"] = .string(input.file)
          member["runs"] = .array(
            input.runs.map { run in
              .array([.number(JSONNumber(run.lowerBound)), .number(JSONNumber(run.upperBound))])
            })
          return .object(member)
        })
    }
    object["assertions"] = .number(JSONNumber(assertionCount))
    object["events"] = .number(JSONNumber(events))
    object["holds"] = .bool(holds)
    object["violationCount"] = .number(JSONNumber(violationCount))
    object["violations"] = .array(violations.map(\.json))
    var writer = JSONWriter()
    writer.write(.object(object))
    return writer.bytes + [UInt8(ascii: "\n")]
  }

  /// The one-line summary: `rasp: 3 assertions hold over 12 events`, or
  /// `rasp: 2 violations of 3 assertions over 12 events, the first at event 7`.
  var summary: String {
    let assertions = ComparisonReport.count(assertionCount, "assertion")
    let over = "over \(ComparisonReport.count(events, "event"))"
    guard !holds else {
      return "rasp: \(assertions) \(assertionCount == 1 ? "holds" : "hold") \(over)\n"
    }
    var text =
      "rasp: \(ComparisonReport.count(violationCount, "violation")) of \(assertions) \(over)"
    if let first = violations.first {
      if first.isFinal {
        text += ", the first on the last state"
      } else if let seq = first.seq {
        text += ", the first at event \(seq)"
      }
    }
    return text + "\n"
  }
}
