import RaspJSON

/// Compares two streams of snapshots pair by pair, by meaning, keeping counts and the first
/// differences: what `rasp check` and `rasp diff` report.
///
/// The expected side is the golden file (or the first file of `rasp diff`), the actual side the
/// replay (or the second file). Pairs are compared as they come, so neither stream is held in
/// memory: a pair whose bytes are equal is equal without being parsed (golden files written by
/// `rasp check --update` are canonical, byte for byte like the replay), other pairs are parsed
/// and compared with ``RaspJSON/JSONDiff`` under the options. The differing pairs are kept, in
/// order, up to a limit (`--max-diffs`), and counted beyond it.
///
/// ```swift
/// var comparison = SnapshotComparison(options: JSONDiffOptions(), keepingAtMost: 10)
/// try comparison.compare(expected: goldenLine, at: goldenPlace, actual: record, at: recordPlace)
/// comparison.noteExtra(at: nextRecordPlace)
/// comparison.isEqual   // false
/// ```
struct SnapshotComparison {
  /// Where a snapshot is: its number and its file and line, each known or not.
  struct Place: Equatable {
    /// The snapshot's number: the event count for a replay, the position in a file otherwise.
    var snapshot: Int?
    /// The file, as the user named it.
    var file: String?
    /// The line in the file.
    var line: Int?
    /// The JSON path of the snapshot in its file, for a file that holds more than snapshots (a
    /// DevTools export: `computedStates[3].state`).
    var path: String? = nil
    /// What the app's reducer threw, for a state a DevTools export recorded after an error.
    var error: String? = nil
    /// How the text report names the place, when its file and line do not say enough.
    var description: String? = nil
  }

  /// A pair that differs: both values, and where they are.
  struct Difference {
    /// Where the expected snapshot is.
    let expectedPlace: Place
    /// Where the actual snapshot is.
    let actualPlace: Place
    /// The expected snapshot.
    let expected: JSONValue
    /// The actual snapshot.
    let actual: JSONValue
  }

  /// Which side of a pair a bad line is on.
  enum Side {
    case expected
    case actual
  }

  /// A pair's line that is not valid JSON.
  struct InputError: Error {
    /// The side the line is on.
    let side: Side
    /// What is wrong, at which offset.
    let error: JSONError
  }

  /// What to ignore, and how close numbers must be.
  let options: JSONDiffOptions
  /// How many differing pairs to keep; `nil` keeps them all.
  let limit: Int?
  /// The number of pairs compared.
  private(set) var compared = 0
  /// The number of pairs that differ.
  private(set) var differing = 0
  /// The number of expected snapshots after the end of the actual ones.
  private(set) var missing = 0
  /// The number of actual snapshots after the end of the expected ones.
  private(set) var extra = 0
  /// The pairs that differ, in order, up to ``limit``.
  private(set) var differences: [Difference] = []
  /// Where the first missing snapshot is on the expected side.
  private(set) var firstMissing: Place?
  /// Where the first extra snapshot is on the actual side.
  private(set) var firstExtra: Place?
  /// Which `--ignore` paths have matched something yet.
  private(set) var ignored: IgnoredPaths

  /// Creates an empty comparison.
  ///
  /// - Parameters:
  ///   - options: What to ignore, and how close numbers must be.
  ///   - limit: How many differing pairs to keep for the report; `nil`, the default, keeps
  ///     them all. The rest are only counted.
  ///   - ignoredTexts: The `--ignore` paths as written, in the order of `options.ignoring`,
  ///     for the warning about a path that matched nothing.
  init(options: JSONDiffOptions, keepingAtMost limit: Int? = nil, ignoredTexts: [String] = []) {
    self.options = options
    self.limit = limit
    self.ignored = IgnoredPaths(
      texts: ignoredTexts.count == options.ignoring.count
        ? ignoredTexts : options.ignoring.map { "\($0)" },
      paths: options.ignoring)
  }

  /// The first pair that differs.
  var firstDifference: Difference? { differences.first }

  /// The number of differing pairs beyond ``limit``, which the report only counts.
  var omitted: Int { differing - differences.count }

  /// Whether the streams are equal: no pair differs, none is missing, none is extra.
  var isEqual: Bool { differing == 0 && missing == 0 && extra == 0 }

  /// Compares one pair of snapshots, each one line of JSON text.
  ///
  /// - Throws: ``InputError`` when either line is not exactly one JSON value.
  mutating func compare(
    expected: UnsafeBufferPointer<UInt8>, at expectedPlace: Place,
    actual: UnsafeBufferPointer<UInt8>, at actualPlace: Place
  ) throws(InputError) {
    if !ignored.isWaiting, UTF8Order.equal(expected, actual) {
      try Self.validate(expected, side: .expected)
      compared += 1
      return
    }
    let expectedValue = try Self.parse(expected, side: .expected)
    let actualValue = try Self.parse(actual, side: .actual)
    compare(expected: expectedValue, at: expectedPlace, actual: actualValue, at: actualPlace)
  }

  /// Compares one pair of snapshots, already read.
  mutating func compare(
    expected expectedValue: JSONValue, at expectedPlace: Place, actual actualValue: JSONValue,
    at actualPlace: Place
  ) {
    compared += 1
    if ignored.isWaiting {
      ignored.note(expectedValue)
      ignored.note(actualValue)
    }
    guard JSONDiff.hasDifferences(from: expectedValue, to: actualValue, options: options) else {
      return
    }
    differing += 1
    if limit.map({ differences.count < $0 }) ?? true {
      differences.append(
        Difference(
          expectedPlace: expectedPlace, actualPlace: actualPlace, expected: expectedValue,
          actual: actualValue))
    }
  }

  /// Counts an expected snapshot that has no actual one.
  mutating func noteMissing(at place: Place) {
    missing += 1
    if firstMissing == nil { firstMissing = place }
  }

  /// Counts an actual snapshot that has no expected one.
  mutating func noteExtra(at place: Place) {
    extra += 1
    if firstExtra == nil { firstExtra = place }
  }

  /// Checks that text is exactly one JSON value.
  static func validate(_ text: UnsafeBufferPointer<UInt8>, side: Side) throws(InputError) {
    do throws(JSONError) {
      var scanner = JSONScanner(text, maximumDepth: JSONLimits.maximumWrittenDepth)
      try scanner.skipValue()
      try scanner.expectEnd()
    } catch {
      throw InputError(side: side, error: error)
    }
  }

  private static func parse(_ text: UnsafeBufferPointer<UInt8>, side: Side) throws(InputError)
    -> JSONValue
  {
    do throws(JSONError) {
      return try JSONParser.parse(text, maximumDepth: JSONLimits.maximumWrittenDepth)
    } catch {
      throw InputError(side: side, error: error)
    }
  }
}
