import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONDiffReportTests {
  private func render(_ expected: String, _ actual: String, options: JSONDiffOptions = .init())
    throws -> String
  {
    try JSONDiffReport.render(
      expected: JSONParser.parse(expected), actual: JSONParser.parse(actual), options: options)
  }

  @Test func expandsOnlyTheDifferingPath() throws {
    let report = try render(
      #"{"geo":{"heading":90,"location":null},"nav":{"stack":[]}}"#,
      #"{"geo":{"heading":91,"location":null},"nav":{"stack":[]}}"#)
    #expect(
      report == """
          {
            "geo": {
        -     "heading": 90,
        +     "heading": 91,
              ... (1 unchanged)
            },
            ... (1 unchanged)
          }
        """)
  }

  @Test func rendersNothingForEqualValues() throws {
    #expect(try render(#"{"a":[1,2.0]}"#, #"{"a":[1.0,2]}"#) == "")
  }

  @Test func showsAddedElementsWithTheirIndex() throws {
    let report = try render(
      #"{"nav":{"stack":["home"]}}"#, #"{"nav":{"stack":["home","list","detail"]}}"#)
    #expect(
      report == """
          {
            "nav": {
              "stack": [
                ... (1 unchanged),
        +       [1]: "list",
        +       [2]: "detail"
              ]
            }
          }
        """)
  }

  @Test func showsRemovedElementsInIndexOrder() throws {
    #expect(
      try render(#"["home","list","detail"]"#, #"["home"]"#) == """
          [
            ... (1 unchanged),
        -   [1]: "list",
        -   [2]: "detail"
          ]
        """)
  }

  @Test func showsAddedRemovedAndRetypedMembers() throws {
    let report = try render(#"{"a":1,"b":{"x":[1,2]},"c":true}"#, #"{"b":[1],"c":true,"d":null}"#)
    #expect(
      report == """
          {
        -   "a": 1,
        -   "b": {"x":[1,2]},
        +   "b": [1],
            ... (1 unchanged),
        +   "d": null
          }
        """)
  }

  @Test func collapsesEachRunOfUnchangedSiblingsInPlace() throws {
    let report = try render(
      #"{"a":1,"b":1,"c":1,"d":1,"e":1}"#, #"{"a":2,"b":1,"c":1,"d":2,"e":1}"#)
    #expect(
      report == """
          {
        -   "a": 1,
        +   "a": 2,
            ... (2 unchanged),
        -   "d": 1,
        +   "d": 2,
            ... (1 unchanged)
          }
        """)
  }

  @Test func expandsNestedElements() throws {
    let report = try render(
      #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
      #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"B"}]}"#)
    #expect(
      report == """
          {
            "items": [
              ... (1 unchanged),
              [1]: {
                ... (1 unchanged),
        -       "name": "b"
        +       "name": "B"
              }
            ]
          }
        """)
  }

  @Test func rendersRootScalarsAndRetypedRoots() throws {
    #expect(try render("1", #""1""#) == "- 1\n+ \"1\"")
    #expect(try render("[]", "{}") == "- []\n+ {}")
    #expect(try render("{}", #"{"a":1}"#) == "  {\n+   \"a\": 1\n  }")
  }

  @Test func writesKeysAsJSONStrings() throws {
    #expect(
      try render(#"{"a\"b":1,"é":[]}"#, #"{"a\"b":2,"é":[]}"#) == """
          {
        -   "a\\"b": 1,
        +   "a\\"b": 2,
            ... (1 unchanged)
          }
        """)
  }

  @Test func countsIgnoredDifferencesAsUnchanged() throws {
    let options = JSONDiffOptions(ignoring: [try JSONPath("**.ts", allowsPatterns: true)])
    let report = try render(
      #"{"a":{"ts":1,"v":1},"b":{"ts":1}}"#, #"{"a":{"ts":2,"v":2},"b":{"ts":2}}"#, options: options
    )
    #expect(
      report == """
          {
            "a": {
              ... (1 unchanged),
        -     "v": 1
        +     "v": 2
            },
            ... (1 unchanged)
          }
        """)
    #expect(try render(#"{"ts":1}"#, #"{"ts":2}"#, options: options) == "")
    #expect(try render(#"{"ts":1}"#, #"{}"#, options: options) == "")
  }

  @Test func countsNumbersWithinTheToleranceAsUnchanged() throws {
    let report = try render(
      #"{"x":1.0,"y":2}"#, #"{"x":1.0001,"y":3}"#, options: .init(tolerance: 0.001))
    #expect(
      report == """
          {
            ... (1 unchanged),
        -   "y": 2
        +   "y": 3
          }
        """)
  }

  @Test func showsEveryDifferenceOfRandomPairs() throws {
    var generator = SplitMix64(seed: 9)
    for _ in 0..<1_000 {
      let a = RandomJSON.value(using: &generator)
      let b = RandomJSON.mutation(of: a, using: &generator)
      let report = JSONDiffReport.render(expected: a, actual: b)
      let differences = JSONDiff.differences(from: a, to: b)
      #expect(report.isEmpty == differences.isEmpty)
      guard !report.isEmpty else { continue }
      let lines = report.split(separator: "\n", omittingEmptySubsequences: false)
      let minus = lines.filter { $0.hasPrefix("-") }.count
      let plus = lines.filter { $0.hasPrefix("+") }.count
      // Each difference is one `-` line, one `+` line, or both.
      #expect(minus == differences.filter { $0.expected != .none }.count, "\(report)")
      #expect(plus == differences.filter { $0.actual != .none }.count, "\(report)")
      #expect(
        lines.allSatisfy { $0.hasPrefix("  ") || $0.hasPrefix("- ") || $0.hasPrefix("+ ") },
        "\(report)")
    }
  }
}
