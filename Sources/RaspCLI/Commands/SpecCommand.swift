import RaspDomains

/// `rasp spec --check`: validates spec files alone, before a replay needs them.
enum SpecCommand {
  static let spec = RaspCommandSpec(
    name: "rasp spec",
    abstract: "Check spec files, which define domains in JSON, without replaying any event.",
    discussion: """
      A spec file defines domains by their initial state and, for each event type, the \
      operations that change it; 'rasp replay --spec <file>' adds them to the snapshot. \
      Every mistake is reported with its line, column and JSON path. See docs/spec.md.
      """,
    usage: "rasp spec --check <file> ...",
    arguments: [
      RaspArgumentSpec(
        name: "file", help: "A spec file; '-' reads standard input.", isRepeatable: true,
        isRequired: true)
    ],
    options: [
      RaspOptionSpec(
        name: .check,
        help:
          "Validate the files: report every mistake, or print one 'ok' line per file on "
          + "standard error."
      ),
      RaspColorChoice.optionSpec(coloring: "the labels of errors and warnings on standard error"),
    ])

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    guard parsed.flag(.check) else {
      throw .usage(
        "Missing expected option '--check': 'rasp spec' only checks files for now",
        usage: spec.usage,
        command: spec.name)
    }
    if parsed.positionals.filter({ $0 == "-" }).count > 1 {
      throw spec.usageError(
        "Standard input ('-') can be read only once")
    }
    var status = RaspExitCode.success
    for outcome in SpecFiles.load(parsed.positionals, after: domains, environment: environment) {
      switch outcome.result {
      case .success(let loaded):
        let domainCount = loaded.domains.count
        let eventCount = loaded.eventTypeCount
        RaspDiagnostics.write(
          "\(outcome.displayName): ok: \(domainCount) domain\(domainCount == 1 ? "" : "s"), "
            + "\(eventCount) event type\(eventCount == 1 ? "" : "s")\n",
          to: environment)
      case .failure(let error):
        RaspDiagnostics.report(error, to: environment)
        status = .failure
      }
    }
    return status
  }
}
