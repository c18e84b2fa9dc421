import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp find`: the events at which an expression of the predicate language becomes true —
/// `git bisect` for a log, in one pass.
///
/// The log is replayed as by `rasp replay`, and the expression (docs/debugging.md) evaluated
/// on the kernel's state after each event, as `rasp check --assert` does; each event after
/// which it holds and did not before (per key, with `--key-by`) is printed as one JSON line:
/// `{"event":…,"file":…,"key":…,"line":…,"seq":…}`, with `"state"` under `--with-state`.
/// `--first` ends the replay at the first, without reading further; `--every` prints every
/// event after which it holds; `--context N` adds the `N` events before and after each one
/// (of its key), with their states, as `"before"` and `"after"` (``ContextObserver``). The
/// status is grep's: 0 when an event was found, 1 when none.
enum FindCommand {
  static let excludedReplayOptions: Set<RaspOptionName> = [
    .pretty, .final, .select, .emit, .changesOnly, .withEvent, .rawOutput,
  ]

  static let spec = RaspCommandSpec(
    name: "rasp find",
    abstract: "Print the events at which an expression over the state becomes true.",
    discussion: """
      The logs are replayed as by 'rasp replay', and <expr>, a jq-like expression such as \
      '.nav.stack | length > 3' (see docs/debugging.md), is evaluated on the state after each \
      event. Each event after which it holds, when it did not hold before (for the event's \
      key, with --key-by), is printed as one JSON line with its 'seq', 'file', 'line', 'key' \
      and the event as read; --with-state adds the state after it, and --context <n> the n \
      events before and after it (of its key), each with its state, as 'before' and 'after'.
      """,
    usage:
      "rasp find <expr> [--first | --every] [--with-state] [--context <n>] [<options>] "
      + "[<file> ...]",
    arguments: [
      RaspArgumentSpec(
        name: "expr", help: "The expression, as for 'rasp check --assert' (docs/debugging.md)."),
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.",
        isRepeatable: true),
    ],
    options: [
      RaspOptionSpec(
        name: .first,
        help: "Print the first event only, and stop reading there."),
      RaspOptionSpec(
        name: .every,
        help: "Print every event after which <expr> holds, not only those where it becomes true."),
      RaspOptionSpec(
        name: .withState, help: "Add the state after each event printed, as 'state'."),
      RaspOptionSpec(
        name: .context, valueName: "n",
        help:
          "Add the <n> events before and after each event printed (of its key), with their "
          + "states, as 'before' and 'after'; implies --with-state."),
    ] + ReplayOptions.specs.filter { !excludedReplayOptions.contains($0.name) },
    exitStatuses: [
      ("0", "An event was found."),
      ("1", "None was."),
      ("2", "Bad input, or an expression that cannot be evaluated for some state."),
      ("64", "A usage error."),
      ("129, 130, 143", "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM."),
    ])

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let fail = spec.usageError
    var parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    guard !parsed.positionals.isEmpty else { throw fail("Missing expected argument '<expr>'") }
    let text = parsed.positionals.removeFirst()
    var options = try ReplayOptions(
      parsed: parsed, domains: domains, spec: spec, environment: environment)
    if parsed.flag(.first), parsed.flag(.every) {
      throw fail("Options '--first' and '--every' cannot be used together")
    }
    var contextCount = 0
    if let text = parsed.value(.context) {
      guard let count = Int(text), count >= 0 else {
        throw fail("Invalid value '\(text)' for '--context <n>': expected a whole number from 0")
      }
      contextCount = count
    }
    let configuration = options.configuration
    let names = configuration.domains.map(\.name).sorted { JSONObject.keyPrecedes($0, $1) }
    var known: [String: [String]] = [:]
    for domain in configuration.domains {
      known[domain.name] = ReplayOptions.fixedFields(of: domain)
    }
    let expression: Assertion
    do {
      expression = try Assertion(
        text, domains: names, fields: { known[$0] ?? nil }, origin: "<expr>")
    } catch {
      throw fail("Invalid expression '\(text)' at column \(error.column ?? 1): \(error)")
    }
    let observer = AssertionObserver(
      // A violation of `not (expr)` is an event after which `expr` holds and did not before.
      assertions: [Assertion(negating: expression)], domains: configuration.domains,
      inputNames: options.displayNames, maximumFailures: parsed.flag(.first) ? 1 : Int.max,
      reportsEvery: parsed.flag(.every),
      keepsState: parsed.flag(.withState) || contextCount > 0, stopsAtLimit: parsed.flag(.first))
    let context = contextCount > 0 ? ContextObserver(finding: observer, count: contextCount) : nil
    options.configuration.isFinal = true
    options.configuration.discardsRecords = true
    options.configuration.stateObserver = context ?? observer
    var sink = DiscardingSink()
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    var output: [UInt8] = []
    var writer = JSONWriter()
    for (index, violation) in observer.violations.enumerated() {
      var object = JSONObject()
      if let context {
        object["before"] = ContextObserver.value(
          of: context.before[index], inputNames: options.displayNames)
        object["after"] = ContextObserver.value(
          of: context.after[index], inputNames: options.displayNames)
      }
      object["seq"] = violation.seq.map { .number(JSONNumber($0)) } ?? .null
      object["file"] = violation.file.map { .string($0) } ?? .null
      object["line"] = violation.line.map { .number(JSONNumber($0)) } ?? .null
      object["key"] = violation.key ?? .null
      object["event"] = violation.event ?? .null
      if let state = violation.state { object["state"] = state }
      writer.removeAll()
      writer.write(.object(object))
      output += writer.bytes
      output.append(UInt8(ascii: "\n"))
    }
    // The events found first, then what the replay says of itself (`--stats`, bad lines).
    try RaspCommandLine.printOutput(output, environment: environment)
    let status = ReplayRun.finish(result, options: options, environment: environment)
    if result.interruptingSignal != nil { return status }
    if let error = observer.error {
      RaspDiagnostics.report(error, to: environment)
      return .failure
    }
    if status != .success || result.failure != nil || result.ending == .stoppedAtBadLine {
      return .failure
    }
    return observer.violations.isEmpty ? .differences : .success
  }
}
