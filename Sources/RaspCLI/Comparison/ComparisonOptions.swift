import RaspJSON

/// How `rasp check` and `rasp diff` compare snapshots and print the result: `--ignore`,
/// `--precision`, `--max-diffs`, `--color` and `--format`.
///
/// ```swift
/// let options = try ComparisonOptions(parsed: parsed, spec: spec)
/// JSONDiff.hasDifferences(from: expected, to: actual, options: options.diff)
/// ```
struct ComparisonOptions {
  /// The report's format.
  enum Format: String {
    /// Each difference as a tree of `-`/`+` lines, then counts, for people.
    case text
    /// One JSON document with the same content, for tools.
    case json
  }

  /// What to ignore, and how close numbers must be.
  var diff = JSONDiffOptions()
  /// The report's format.
  var format = Format.text
  /// How many differing snapshots the report shows (`--max-diffs`); `nil` shows them all.
  var differenceLimit: Int? = Self.defaultDifferenceLimit
  /// When the text report and the diagnostics are coloured.
  var color = RaspColorChoice.auto
  /// The `--ignore` paths as written, in the order of `diff.ignoring`.
  var ignoredTexts: [String] = []

  /// How many differing snapshots the report shows without `--max-diffs`.
  static let defaultDifferenceLimit = 10

  /// The options `check` and `diff` share, in help order.
  static let specs: [RaspOptionSpec] = [
    RaspOptionSpec(
      name: .ignore, valueName: "path", isRepeatable: true,
      help:
        "Leave out differences at <path> and below it; '*' matches any one key or index and "
        + "'**' any depth (such as lifecycle.changedAt or '**.ts'). Repeat for several."
    ),
    RaspOptionSpec(
      name: .precision, valueName: "epsilon",
      help: "Count numbers as equal when they differ by at most <epsilon> (such as 0.001)."),
    RaspOptionSpec(
      name: .maxDiffs, valueName: "n",
      help:
        "Show at most <n> differing snapshots, in order, and count the rest "
        + "(\(defaultDifferenceLimit) by default); 0 shows them all."),
    RaspColorChoice.optionSpec(
      coloring: "the report's '-' and '+' lines and the labels of errors and warnings"),
    RaspOptionSpec(
      name: .format, valueName: "format", allowedValues: ["text", "json"],
      help:
        "Print the report as 'text' (the default), for people, or as one JSON document, "
        + "for tools."),
  ]

  /// Reads the options from a parsed command line.
  ///
  /// - Throws: A usage error for a path that is not valid, a precision that is not a
  ///   non-negative finite number, or a `--max-diffs` that is not a whole number from 0.
  init(parsed: RaspParsedArguments, spec: RaspCommandSpec) throws(RaspCommandError) {
    let fail = spec.usageError
    for text in parsed.all(.ignore) {
      let path: JSONPath
      do {
        path = try JSONPath(text, allowsPatterns: true)
      } catch {
        throw fail("Invalid path '\(text)' for '--ignore <path>': \(error)")
      }
      if path.components.isEmpty {
        throw fail(
          "Invalid path '\(text)' for '--ignore <path>': it would ignore the whole snapshot; "
            + "name a field such as 'lifecycle.changedAt'"
        )
      }
      if path.selectsLength {
        throw fail("Invalid path '\(text)' for '--ignore <path>': it cannot end in '|length'")
      }
      if path.components.contains(where: {
        if case .index(let index) = $0 { index < 0 } else { false }
      }) {
        throw fail(
          "Invalid path '\(text)' for '--ignore <path>': negative indices cannot be ignored; "
            + "use '*' for every element"
        )
      }
      diff.ignoring.append(path)
      ignoredTexts.append(text)
    }
    if let text = parsed.value(.precision) {
      guard case .number(let number)? = try? JSONParser.parse(text),
        case let epsilon = number.doubleValue,
        epsilon >= 0
      else {
        throw fail(
          "Invalid value '\(text)' for '--precision <epsilon>': expected a non-negative "
            + "number such as 0.001"
        )
      }
      diff.tolerance = epsilon
    }
    if let text = parsed.value(.maxDiffs) {
      guard let limit = Int(text), limit >= 0 else {
        throw fail(
          "Invalid value '\(text)' for '--max-diffs <n>': expected a whole number, "
            + "or 0 to show every difference")
      }
      differenceLimit = limit == 0 ? nil : limit
    }
    format = parsed.value(.format).flatMap(Format.init(rawValue:)) ?? .text
    color = parsed.value(.color).flatMap(RaspColorChoice.init(rawValue:)) ?? .auto
  }

  /// The text report as it is printed to `environment`'s standard output: coloured when the
  /// colour choice says so.
  func printedText(_ text: String, environment: RaspEnvironment) -> String {
    color.colors(environment.standardOutput, environment)
      ? RaspColorChoice.coloringReport(text) : text
  }
}
