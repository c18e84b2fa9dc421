import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct ComparisonOptionsTests {
  let spec = RaspCommandSpec(
    name: "rasp diff", abstract: "", usage: "rasp diff <a> <b>", options: ComparisonOptions.specs)

  func options(_ arguments: [String]) throws(RaspCommandError) -> ComparisonOptions {
    try ComparisonOptions(parsed: try RaspArgumentParser.parse(arguments, spec: spec), spec: spec)
  }

  func usageMessage(_ arguments: [String]) -> String? {
    do {
      _ = try options(arguments)
      return nil
    } catch {
      guard case .usage(let message, _, _) = error else { return "not a usage error: \(error)" }
      return message
    }
  }

  @Test func defaultsCompareExactlyAsText() throws {
    let options = try options([])
    #expect(options.diff == JSONDiffOptions())
    #expect(options.format == .text)
  }

  @Test func ignoreIsRepeatableAndAcceptsPatterns() throws {
    let options = try options([
      "--ignore", "lifecycle.changedAt", "--ignore", "**.ts", "--ignore", "nav.stack.*",
    ])
    #expect(
      options.diff.ignoring.map(\.description) == ["lifecycle.changedAt", "**.ts", "nav.stack.*"])
    #expect(options.diff.ignores([.key("geo"), .key("ts")]))
    #expect(options.diff.ignores([.key("lifecycle"), .key("changedAt")]))
    #expect(!options.diff.ignores([.key("lifecycle"), .key("phase")]))
  }

  @Test func precisionBecomesTheTolerance() throws {
    #expect(try options(["--precision", "0.001"]).diff.tolerance == 0.001)
    #expect(try options(["--precision", "1e-9"]).diff.tolerance == 1e-9)
    #expect(try options(["--precision", "0"]).diff.tolerance == 0)
  }

  @Test(arguments: [
    "-1", "-0.5", "nan", "inf", "-inf", "infinity", "", "0.1.2", "one", "1e400", "0x2", "0x1p-3",
    ".5",
  ])
  func precisionMustBeANonNegativeFiniteNumber(_ text: String) {
    #expect(
      usageMessage(["--precision=\(text)"])
        == "Invalid value '\(text)' for '--precision <epsilon>': "
        + "expected a non-negative number such as 0.001")
  }

  @Test(arguments: ["", "."])
  func ignoreRejectsTheWholeSnapshot(_ text: String) {
    #expect(
      usageMessage(["--ignore", text])
        == "Invalid path '\(text)' for '--ignore <path>': it would ignore the whole snapshot; "
        + "name a field such as 'lifecycle.changedAt'")
  }

  @Test func ignoreRejectsInvalidPathsLengthsAndNegativeIndices() {
    #expect(
      usageMessage(["--ignore", "geo..heading"])
        == "Invalid path 'geo..heading' for '--ignore <path>': empty key at column 5")
    #expect(
      usageMessage(["--ignore", "rest.links|length"])
        == "Invalid path 'rest.links|length' for '--ignore <path>': it cannot end in '|length'")
    #expect(
      usageMessage(["--ignore", "nav.stack[-1]"])
        == "Invalid path 'nav.stack[-1]' for '--ignore <path>': "
        + "negative indices cannot be ignored; use '*' for every element")
  }

  @Test func maxDiffsLimitsTheReportTenByDefaultAndZeroShowsAll() throws {
    #expect(try options([]).differenceLimit == 10)
    #expect(try options(["--max-diffs", "3"]).differenceLimit == 3)
    #expect(try options(["--max-diffs=1"]).differenceLimit == 1)
    #expect(try options(["--max-diffs", "0"]).differenceLimit == nil)
  }

  @Test(arguments: ["-1", "", "ten", "1.5", "1e3", "99999999999999999999", " 3"])
  func maxDiffsMustBeAWholeNumberFromZero(_ text: String) {
    #expect(
      usageMessage(["--max-diffs=\(text)"])
        == "Invalid value '\(text)' for '--max-diffs <n>': expected a whole number, "
        + "or 0 to show every difference")
  }

  @Test func formatIsTextOrJSON() throws {
    #expect(try options(["--format", "json"]).format == .json)
    #expect(try options(["--format", "text"]).format == .text)
    #expect(
      usageMessage(["--format", "yaml"])
        == "Invalid value 'yaml' for '--format <format>': expected 'text' or 'json'")
  }
}
