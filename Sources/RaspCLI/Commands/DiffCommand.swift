import RaspJSON

/// `rasp diff`: compares two files of snapshots line by line, by meaning.
///
/// For the outputs of two versions of a reducer, or of two logs. The files are read a line at
/// a time, in step; blank lines are skipped, and snapshots are numbered by their position among
/// the other lines (the files hold no events, so no event's file or line is known). The report,
/// the options and the exit statuses are those of `rasp check`, with the first file as the
/// expected side (`-`) and the second as the actual side (`+`); `--color` covers the report
/// and the diagnostics.
enum DiffCommand {
  static let spec = RaspCommandSpec(
    name: "rasp diff",
    abstract: "Compare two files of snapshots, line by line, by meaning.",
    discussion: """
      Each line of <actual> is compared with the same line of <expected>, blank lines aside: \
      key order, whitespace and the spelling of numbers never matter. The report is that of \
      'rasp check': each differing snapshot, up to --max-diffs, as a tree of '-' expected and \
      '+' actual lines, then the number of further differing, missing and extra snapshots. \
      Snapshots are numbered by position.
      """,
    usage:
      "rasp diff [--ignore <path> ...] [--precision <epsilon>] [--format <format>] "
      + "<expected> <actual>",
    arguments: [
      RaspArgumentSpec(
        name: "expected",
        help: "The first file, such as the output of the old version ('-' for standard input).",
        isRequired: true),
      RaspArgumentSpec(
        name: "actual", help: "The second file, compared with the first ('-' for standard input).",
        isRequired: true),
    ],
    options: ComparisonOptions.specs,
    exitStatuses: [
      ("0", "The files match."),
      ("1", "They differ."),
      ("2", "Bad input: a file that cannot be read, or a line that is not JSON."),
      ("64", "A usage error."),
    ])

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let options = try ComparisonOptions(parsed: parsed, spec: spec)
    let files = parsed.positionals
    if files[0] == "-", files[1] == "-" {
      throw spec.usageError(
        "Standard input ('-') can be read only once")
    }
    var expected = try SnapshotLines(file: files[0], environment: environment)
    var actual = try SnapshotLines(file: files[1], environment: environment)
    var comparison = SnapshotComparison(
      options: options.diff, keepingAtMost: options.differenceLimit,
      ignoredTexts: options.ignoredTexts)
    while true {
      let left = try expected.next()
      let right = try actual.next()
      let expectedPlace = SnapshotComparison.Place(
        snapshot: expected.count, file: expected.name, line: left?.number)
      let actualPlace = SnapshotComparison.Place(
        snapshot: actual.count, file: actual.name, line: right?.number)
      switch (left, right) {
      case (nil, nil):
        return try finish(
          comparison, expected: expected, actual: actual, options: options, environment: environment
        )
      case (let left?, let right?):
        do throws(SnapshotComparison.InputError) {
          try comparison.compare(
            expected: left.bytes, at: expectedPlace, actual: right.bytes, at: actualPlace)
        } catch {
          switch error.side {
          case .expected: throw expected.inputError(error.error, in: left)
          case .actual: throw actual.inputError(error.error, in: right)
          }
        }
      case (let left?, nil):
        try expected.validate(left)
        comparison.noteMissing(at: expectedPlace)
      case (nil, let right?):
        try actual.validate(right)
        comparison.noteExtra(at: actualPlace)
      }
    }
  }

  private static func finish(
    _ comparison: SnapshotComparison, expected: SnapshotLines, actual: SnapshotLines,
    options: ComparisonOptions, environment: RaspEnvironment
  ) throws(RaspCommandError) -> RaspExitCode {
    let report = ComparisonReport(
      comparison: comparison, expectedName: expected.name, actualName: actual.name)
    switch options.format {
    case .text:
      try RaspCommandLine.printOutput(
        options.printedText(report.text, environment: environment), environment: environment)
    case .json: try RaspCommandLine.printOutput(report.json, environment: environment)
    }
    if let warning = comparison.ignored.warning { RaspDiagnostics.write(warning, to: environment) }
    RaspDiagnostics.write(report.summary, to: environment)
    return comparison.isEqual ? .success : .differences
  }
}
