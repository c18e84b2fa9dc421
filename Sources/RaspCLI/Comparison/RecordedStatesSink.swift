import RaspJSON
import RaspReplay

/// Compares a replay of a Redux DevTools export with the states the app recorded in it
/// (`computedStates`): `rasp check --log-format devtools session.json` without `--golden`.
///
/// Each staged action of the export is one line of the replay, and has one recorded state: the
/// app's state after it. The state the replay is in after the same line must mean the same,
/// for the domains compared (those of the spec files, or every domain without one): the
/// recorded state's members of other names (slices the spec does not model) are left out and
/// named once on standard error. An action the replay applies is compared with the snapshot it
/// makes; one it does not (`@@INIT`, a type no domain has, one `--drop` drops) with the
/// snapshot before it, since it left the state as it was — so a reducer that reacts to another
/// slice's action is caught at that action. With `--final`, only the state after the last
/// action read is compared.
///
/// ```swift
/// var sink = try RecordedStatesSink(
///   document: document, initialSnapshot: initial, comparedDomains: ["todos", "filters"],
///   isFinal: false, options: JSONDiffOptions(), keepingAtMost: 10)
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// sink.finish(linesRead: result.statistics.read)
/// print(sink.report.text)
/// ```
struct RecordedStatesSink: ReplaySink {
  /// The export, and where its actions are.
  let document: ImportedDocument
  /// The names of the domains compared.
  let comparedDomains: Set<String>
  /// Whether only the final state is compared.
  let isFinal: Bool
  /// The comparison so far.
  private(set) var comparison: SnapshotComparison
  /// The replay's state after the last record, restricted to the compared domains.
  private var state: JSONValue
  /// The number of events the replay had applied at the last record.
  private var applied = 0
  /// The next line whose recorded state is not compared yet.
  private var nextLine = 1
  /// The recorded state's members that no compared domain has, in the order first seen.
  private(set) var uncomparedMembers: [String] = []
  /// The first action the app's reducer threw on, and what it threw.
  private(set) var firstError: (index: Int, message: String)?
  /// How many actions after an error were not compared: DevTools computes no state after one.
  private(set) var interrupted = 0
  /// The mistake that stopped the check, if one did.
  private(set) var error: RaspCommandError?

  /// Creates a sink that compares a replay of `document` with the states it recorded.
  ///
  /// - Parameters:
  ///   - document: The export.
  ///   - initialSnapshot: The replay's snapshot before any event.
  ///   - comparedDomains: The names of the domains to compare.
  ///   - isFinal: Whether the replay prints only its final snapshot (`--final`).
  ///   - options: What to ignore, and how close numbers must be.
  ///   - limit: How many differing actions to keep for the report; `nil` keeps them all.
  ///   - ignoredTexts: The `--ignore` paths as written.
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` when the export
  ///   does not record a state after each action.
  init(
    document: ImportedDocument, initialSnapshot: [UInt8], comparedDomains: Set<String>,
    isFinal: Bool, options: JSONDiffOptions, keepingAtMost limit: Int? = nil,
    ignoredTexts: [String] = []
  ) throws(RaspCommandError) {
    do {
      try document.export.checkRecordedStates()
    } catch {
      let place = error.position(in: document.bytes)
      throw .invalidFile(
        document.name, line: place.line, column: place.column, path: error.path,
        reason: error.reason)
    }
    self.document = document
    self.comparedDomains = comparedDomains
    self.isFinal = isFinal
    self.comparison = SnapshotComparison(
      options: options, keepingAtMost: limit, ignoredTexts: ignoredTexts)
    let initial = (try? JSONParser.parse(initialSnapshot)) ?? .object(JSONObject())
    self.state = Self.restricted(initial, to: comparedDomains)
  }

  /// The report of the comparison.
  var report: ComparisonReport {
    ComparisonReport(
      comparison: comparison, expectedName: document.name, actualName: nil, noun: "action",
      expectedPhrase: "the states recorded in '\(document.name)'")
  }

  /// The note about the recorded state's members that were not compared, or `nil`.
  var uncomparedNote: String? {
    guard !uncomparedMembers.isEmpty else { return nil }
    let names = uncomparedMembers.map { "'\($0)'" }.joined(separator: ", ")
    let (noun, verb) = uncomparedMembers.count == 1 ? ("member", "is") : ("members", "are")
    return "rasp: note: the recorded state's \(noun) \(names) \(verb) not compared: no domain "
      + "of the replay has \(uncomparedMembers.count == 1 ? "that name" : "those names")\n"
  }

  /// The note about the actions after an error, which were not compared, or `nil`.
  var interruptionNote: String? {
    guard let firstError, interrupted > 0 else { return nil }
    let count = interrupted == 1 ? "1 later action was" : "\(interrupted) later actions were"
    return "rasp: note: the app's reducer threw at action \(firstError.index) "
      + "('\(firstError.message)'); DevTools computed no state after it, so \(count) not "
      + "compared\n"
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    defer { output.removeSubrange(record.range.lowerBound...) }
    let snapshot: JSONValue
    do {
      snapshot = try output[record.range].withUnsafeBufferPointer { bytes throws(JSONError) in
        try JSONParser.parse(bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
      }
    } catch {
      self.error = .failure("the replay wrote invalid JSON: \(error)")
      throw .sinkFinished
    }
    let replayed = Self.restricted(snapshot, to: comparedDomains)
    if !isFinal, let line = record.line {
      compareUnchanged(through: line - 1)
      compare(line: line, with: replayed, applied: record.seq)
      nextLine = line + 1
    }
    state = replayed
    applied = record.seq
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {}

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {}

  /// Compares the states recorded after the lines the replay read but made no snapshot of:
  /// called once the replay is over, with the number of lines it read.
  mutating func finish(linesRead: Int) {
    if isFinal {
      if linesRead >= 1 { compare(line: linesRead, with: state, applied: applied) }
    } else {
      compareUnchanged(through: linesRead)
    }
  }

  /// Compares the states recorded after the lines from ``nextLine`` through `last`, which the
  /// replay applied no event of, with its state before them.
  private mutating func compareUnchanged(through last: Int) {
    guard nextLine <= last else { return }
    for line in nextLine...last {
      compare(line: line, with: state, applied: applied)
    }
    nextLine = last + 1
  }

  /// Compares the state recorded after a line with the replay's.
  private mutating func compare(line: Int, with replayed: JSONValue, applied: Int) {
    guard let recorded = document.export.recordedState(afterLine: line) else { return }
    if let error = recorded.error {
      // After an error, DevTools' instrument keeps the state and records this instead.
      if error == Self.interruptedError {
        interrupted += 1
        if firstError == nil { firstError = firstThrownError(before: line) }
        return
      }
      if firstError == nil { firstError = (recorded.index, error) }
    }
    if case .object(let members) = recorded.state {
      for key in members.keys where !comparedDomains.contains(key) {
        if !uncomparedMembers.contains(key) { uncomparedMembers.append(key) }
      }
    }
    let action = document.export.places[line - 1]
    let actionLine = JSONTextPosition(offset: action.offset, in: document.bytes).line
    let stateLine = JSONTextPosition(offset: recorded.offset, in: document.bytes).line
    let type = action.type.map { " '\($0)'" } ?? ""
    let thrown = recorded.error.map { ", recorded after the app's reducer threw '\($0)'" } ?? ""
    let actualPlace = SnapshotComparison.Place(
      snapshot: applied, file: document.name, line: actionLine, path: action.path,
      description: "action \(recorded.index)\(type) (\(document.name):\(actionLine), "
        + "\(action.path))")
    let expectedPlace = SnapshotComparison.Place(
      snapshot: recorded.index, file: document.name, line: stateLine, path: recorded.path,
      error: recorded.error,
      description: "\(recorded.path) (\(document.name):\(stateLine))\(thrown)")
    comparison.compare(
      expected: Self.restricted(recorded.state, to: comparedDomains), at: expectedPlace,
      actual: replayed, at: actualPlace)
  }

  /// The first action before a line that the app's reducer threw on, when the comparison did
  /// not pass it (`--final`).
  private func firstThrownError(before line: Int) -> (index: Int, message: String)? {
    for earlier in 1..<line {
      if let recorded = document.export.recordedState(afterLine: earlier),
        let error = recorded.error, error != Self.interruptedError
      {
        return (recorded.index, error)
      }
    }
    return nil
  }

  /// The error of a check that compared nothing because every state it reached came after an
  /// error of the app's reducer, or `nil`.
  var nothingComparedError: RaspCommandError? {
    guard comparison.compared == 0, interrupted > 0 else { return nil }
    let thrown =
      firstError.map { " after the app's reducer threw at action \($0.index) ('\($0.message)')" }
      ?? ""
    return .failure(
      "no state to compare in '\(document.name)': DevTools computed none\(thrown); check "
        + "without --final, or up to the action that threw with --until")
  }

  /// What DevTools records after an action that followed an error, instead of computing a state.
  static let interruptedError = "Interrupted by an error up the chain"

  /// The members of an object that are compared domains; any other value as it is, so that a
  /// recorded state that is not an object of slices differs from the replay's.
  private static func restricted(_ value: JSONValue, to domains: Set<String>) -> JSONValue {
    guard case .object(let object) = value else { return value }
    var kept = JSONObject()
    for key in object.keys where domains.contains(key) {
      kept[key] = object[key]
    }
    return .object(kept)
  }
}
