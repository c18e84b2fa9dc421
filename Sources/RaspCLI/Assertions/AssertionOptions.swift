import RaspDomains
import RaspJSON

/// The options of `rasp check` that state assertions: `--assert`, `--assert-file`,
/// `--assert-final` and `--max-failures`.
///
/// ```swift
/// let assertions = try AssertionOptions(
///   parsed: parsed, domains: options.configuration.domains, spec: spec,
///   environment: environment)
/// assertions.isEmpty   // false for rasp check --assert '.cart.total >= 0'
/// ```
struct AssertionOptions {
  /// The assertions, in the order given: `--assert`s, then `--assert-file`s' lines, then
  /// `--assert-final`s.
  var assertions: [Assertion] = []
  /// How many violations the report shows (`--max-failures`).
  var maximumFailures = 1
  /// Whether the JSON report lists the lines whose events were applied (`--applied-lines`).
  var reportsAppliedLines = false

  /// Whether no assertion was given.
  var isEmpty: Bool { assertions.isEmpty }

  /// The options, in help order.
  static let specs: [RaspOptionSpec] = [
    RaspOptionSpec(
      name: .assert, valueName: "expr", isRepeatable: true,
      help:
        "Check that every state satisfies <expr>, a jq-like expression such as "
        + "'.nav.stack | length < 10' (see docs/debugging.md); 'never <expr>' checks that no "
        + "state does. Repeat for several."),
    RaspOptionSpec(
      name: .assertFile, valueName: "file", isRepeatable: true,
      help: "Read assertions from <file>, one per line; '#' starts a comment."),
    RaspOptionSpec(
      name: .assertFinal, valueName: "expr", isRepeatable: true,
      help: "Check that the last state (each key's, with --key-by) satisfies <expr>."),
    RaspOptionSpec(
      name: .maxFailures, valueName: "n",
      help: "Report at most <n> violations of the assertions (1 by default); 0 reports all."),
  ]

  /// `--applied-lines`, which `rasp check` alone takes: what merging the reports of a log's
  /// parts needs (docs/scale-out.md).
  static let appliedLinesSpec = RaspOptionSpec(
    name: .appliedLines,
    help:
      "With --format json, list the lines whose events were applied, as runs [first, last] of "
      + "each input: what merging the reports of a log's parts needs (see docs/scale-out.md).")

  /// Reads the options.
  ///
  /// - Throws: A usage error for an expression of `--assert` or `--assert-final` that does
  ///   not parse or names a path no state has, or a bad `--max-failures`; an input error
  ///   naming `file:line:column` for a bad line of an `--assert-file`, and one for a file that
  ///   cannot be read.
  init(
    parsed: RaspParsedArguments, domains: [any RaspDomain], spec: RaspCommandSpec,
    environment: RaspEnvironment
  ) throws(RaspCommandError) {
    let fail = spec.usageError
    let sorted = domains.map(\.name).sorted { JSONObject.keyPrecedes($0, $1) }
    var known: [String: [String]] = [:]
    for domain in domains { known[domain.name] = ReplayOptions.fixedFields(of: domain) }
    let fields: (String) -> [String]? = { known[$0] ?? nil }
    func parse(_ text: String, option: RaspOptionName) throws(RaspCommandError) -> Assertion {
      do {
        return try Assertion(
          text, domains: sorted, fields: fields, isFinal: option == .assertFinal,
          origin: "--\(option.rawValue)")
      } catch {
        throw fail(
          "Invalid expression '\(text)' for '--\(option.rawValue)' at column "
            + "\(error.column ?? 1): \(error)")
      }
    }
    for text in parsed.all(.assert) { assertions.append(try parse(text, option: .assert)) }
    for file in parsed.all(.assertFile) {
      let bytes = try environment.readFile(file)
      let lines = String(decoding: bytes, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      for (number, line) in lines.enumerated() {
        var text = String(line)
        if text.hasSuffix("\r") { text.removeLast() }
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
        let indent = text.unicodeScalars.count - trimmed.unicodeScalars.count
        do {
          assertions.append(
            try Assertion(
              String(trimmed), domains: sorted, fields: fields,
              origin: "\(file):\(number + 1)"))
        } catch {
          throw .input(
            file: file, line: number + 1, column: indent + (error.column ?? 1),
            reason: "invalid assertion: \(error)")
        }
      }
    }
    for text in parsed.all(.assertFinal) {
      assertions.append(try parse(text, option: .assertFinal))
    }
    if let text = parsed.value(.maxFailures) {
      guard let count = Int(text), count >= 0 else {
        throw fail(
          "Invalid value '\(text)' for '--max-failures <n>': expected a whole number from 0")
      }
      maximumFailures = count == 0 ? Int.max : count
    }
    if assertions.isEmpty, parsed.isGiven(.maxFailures) {
      throw fail("Option '--max-failures' counts violations of assertions: give '--assert <expr>'")
    }
  }
}
