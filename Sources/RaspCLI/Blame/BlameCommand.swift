import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp blame`: every event that changed one value of the state, in order, with the value
/// before and after it — where a value came from.
///
/// The replay runs as `rasp replay`'s would, with its options for reading logs, and a
/// ``BlameObserver`` follows the path through the state after each event; nothing is printed
/// for the other events. Each change is one JSON line on standard output (`after`, `before`,
/// `event` as rasp read it, `file`, `key`, `line`, `seq`); a summary goes to standard error.
/// `--at <position>` keeps only the change that set the value in force there.
enum BlameCommand {
  /// The options of `rasp replay` that shape what is printed, or where printing starts,
  /// which blame, printing changes, has no use for.
  private static let replayOptionsLeftOut: Set<RaspOptionName> = [
    .select, .final, .withEvent, .emit, .changesOnly, .pretty, .rawOutput,
    .at, .saveState, .resume, .checkpointEvery, .drop, .hide, .follow,
  ]

  static let spec = RaspCommandSpec(
    name: "rasp blame",
    abstract: "Show every event that changed a value of the state, with before and after.",
    discussion: """
      The logs are replayed as by 'rasp replay', with its options for reading them, and the \
      value at <path> (a path as --select takes: 'geo.heading', 'nav.stack', 'nav.stack[-1]', \
      'nav.stack|length', a whole domain 'geo') is compared after each event with the value \
      before it. Each event that changed it is one JSON line on standard output: "after" and \
      "before", the value after and before the event; "event", the event as rasp read it; \
      "file" and "line", where it is; "key", its key with --key-by (each key's value is its \
      own), else null; "seq", its number in the replay. A summary goes to standard error.

      --at <position> prints only the event that set the value in force at <position> (the \
      last event's key's, with --key-by), and nothing when no event changed it since the \
      initial state. --since <position> prints the changes from <position> on (the value is \
      followed from the start, so the first change's "before" is the value in force there), \
      and --until the changes up to it.
      """,
    usage: "rasp blame <path> [--at <position>] [<options>] [<file> ...]",
    arguments: [
      RaspArgumentSpec(name: "path", help: "The value to follow: a path as --select takes."),
      RaspArgumentSpec(
        name: "file", help: "An event log; '-' or no file reads standard input.", isRepeatable: true
      ),
    ],
    options: [
      RaspOptionSpec(
        name: .at, valueName: "position",
        help:
          "Print only the event that set the value in force at <position>: an event's number "
          + "(5 or #5), a line (events.jsonl:12, line:12) or a time, as 'rasp replay --at' "
          + "takes it.")
    ] + ReplayOptions.specs.filter { !replayOptionsLeftOut.contains($0.name) },
    exitStatuses: [
      ("0", "The replay ran, whether or not an event changed the value."),
      ("2", "Bad input: a bad line, a file that cannot be read."),
      ("64", "A usage error: an unknown option, a path no domain has."),
      ("129, 130, 143", "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM."),
    ])

  /// Runs the command.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let fail = spec.usageError
    let parsed = try RaspArgumentParser.parse(eventNumbersMarked(arguments), spec: spec)
    let positionals = parsed.positionals
    guard let text = positionals.first else {
      throw fail("Missing expected argument '<path>'")
    }
    // The logs are the arguments after the path.
    var logs = parsed
    logs.positionals.removeFirst()
    var options = try ReplayOptions(
      parsed: logs, domains: domains, spec: spec, environment: environment)
    let path = try ReplayOptions.selection(
      text, option: "rasp blame", domains: options.configuration.domains,
      environment: environment, fail: fail)
    guard path.isLocatable, !path.isPattern, let domain = path.firstKey,
      domain != ReplayConfiguration.eventRoot
    else {
      throw fail(
        "'\(text)' is not one value of the state: blame follows a path without patterns or "
          + "filters but '|length', in a domain ('geo.heading', 'nav.stack')")
    }
    let keepsEveryChange = options.configuration.at == nil
    let observer = BlameObserver(
      path: path, domains: options.configuration.domains, inputNames: options.displayNames,
      keepsEveryChange: keepsEveryChange)
    options.configuration.stateObserver = observer
    options.configuration.isFinal = true
    var sink = DiscardingSink()
    let result = ReplayRun.run(options, environment: environment, into: &sink)
    let status = ReplayRun.finish(result, options: options, environment: environment)
    if result.interruptingSignal != nil { return status }
    if result.failure != nil || result.ending == .stoppedAtBadLine { return .failure }
    let printed = keepsEveryChange ? observer.changes : observer.changeInForce.map { [$0] } ?? []
    try RaspCommandLine.printOutput(printed.flatMap(\.jsonLine), environment: environment)
    RaspDiagnostics.write(
      summary(path: text, changes: printed, events: observer.events, at: !keepsEveryChange),
      to: environment)
    return status
  }

  /// `--at 5` means the fifth event, as `--at '#5'` does (a bare number is no line or time).
  private static func eventNumbersMarked(_ arguments: [String]) -> [String] {
    var marked = arguments
    for index in marked.indices.dropLast() where marked[index] == "--at" {
      let value = marked[index + 1]
      if !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
        marked[index + 1] = "#" + value
      }
    }
    return marked
  }

  /// The line on standard error: how many events changed the value, of how many; with
  /// `--at`, which event set it.
  static func summary(path: String, changes: [BlameObserver.Change], events: Int, at: Bool)
    -> String
  {
    let read = "\(events) event\(events == 1 ? "" : "s")"
    guard at else { return "rasp: \(changes.count) of \(read) changed '\(path)'\n" }
    guard let change = changes.first else {
      return "rasp: none of \(read) changed '\(path)': it holds its initial value\n"
    }
    return "rasp: event \(change.seq) of \(read) set the value of '\(path)' in force\n"
  }
}
