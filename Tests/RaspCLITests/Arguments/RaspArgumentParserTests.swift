import Testing

@testable import RaspCLI

/// Short options as getopt reads them, which `make -j8`, `cargo -j8` and `jq -rc` users type.
@Suite struct RaspArgumentParserTests {
  /// The options and positionals `rasp replay <arguments>` parses into, or the error.
  private func parsed(_ arguments: [String]) -> String {
    do {
      let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
      let options = parsed.values.keys.map(\.rawValue).sorted().map { name in
        "\(name)=\(RaspOptionName(rawValue: name).flatMap { parsed.values[$0] } ?? [])"
      }
      return (options + parsed.positionals).joined(separator: " ")
    } catch {
      return "\(error)".split(separator: "\n").first.map(String.init) ?? ""
    }
  }

  @Test(arguments: [
    (["-j", "2", "a.jsonl"], #"jobs=["2"] a.jsonl"#),
    (["-j2", "a.jsonl"], #"jobs=["2"] a.jsonl"#),
    (["-rj", "2", "a.jsonl"], #"jobs=["2"] raw-output=[""] a.jsonl"#),
    (["-rj2", "a.jsonl"], #"jobs=["2"] raw-output=[""] a.jsonl"#),
    (["-r", "-j", "2"], #"jobs=["2"] raw-output=[""]"#),
    // A value-taking option takes the rest of the group, as getopt does.
    (["-jr", "a.jsonl"], #"jobs=["r"] a.jsonl"#),
    (["--jobs=2", "-", "--", "-r"], #"jobs=["2"] - -r"#),
  ])
  func readsShortOptionsTogetherAndValuesJoinedToThem(arguments: [String], expected: String) {
    #expect(parsed(arguments) == expected)
  }

  @Test func namesTheUnknownLetterOrSuggestsTheLongOption() {
    #expect(parsed(["-rx"]) == "rasp: error: unknown option '-x' in '-rx'")
    #expect(
      parsed(["-select"]) == "rasp: error: unknown option '-select'; did you mean '--select'?")
    #expect(parsed(["-j"]) == "rasp: error: missing value for '--jobs <n>'")
    #expect(parsed(["-rr"]) == #"raw-output=["", ""]"#)
  }
}
