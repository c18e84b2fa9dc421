import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp compare`: replays every log through an old and a new version of the domains (spec
/// files, map files, or a program's Swift domains) and reports, per log, whether the states
/// are identical, differ only as declared (`--allow`), or diverge — and where first.
///
/// Each log is replayed once by each version, the two read in step in one process
/// (``CompareRun``, ``LogComparison``); the report goes to standard output, as `rasp check`'s
/// does, and a one-line summary to standard error. The status is diff(1)'s: 0 when nothing
/// unintended differs, 1 when something does, 2 when a log cannot be compared.
enum CompareCommand {
  /// The options of `rasp replay` that compare takes as they are, for both versions.
  private static let replayOptionsKept: Set<RaspOptionName> = [
    .domain, .drop, .spec, .logFormat, .map, .keyBy, .strict, .onError,
  ]

  static let spec = RaspCommandSpec(
    name: "rasp compare",
    abstract: "Replay logs through an old and a new version of the domains, and compare.",
    discussion: """
      Every log is replayed through both versions in one process, and the states after each \
      event are compared by meaning, as 'rasp check' compares a snapshot with its golden \
      line: key order and the spelling of numbers never matter, --ignore leaves paths out \
      and --precision lets numbers differ a little. An event that one version does not \
      apply is compared with that version's state before it; a line that only one version \
      rejects is a divergence there. With --key-by, each key's state is compared with its \
      own. Paths are of the state, for --ignore and --allow alike ('cart.total').

      A version is a spec file, a map file, or both: --old-spec and --new-spec, --old-map \
      and --new-map; --spec and --map are of both versions. --old <file> and --new <file> \
      take either kind, telling a spec (a JSON object with 'domains') from a map file by its \
      content. A program built on RaspCLI that registers new versions of its Swift domains \
      compares them with no option at all.

      --allow declares an intended change: 'add:<path>' a value only the new states have, \
      'remove:<path>' one only the old states have, 'change:<path>' a value both have that \
      differs, a bare '<path>' any of the three; at the path and below it, with '*' and '**' \
      as --ignore takes them. What the allowed changes leave is unintended.

      For each log the report on standard output says 'identical', 'only allowed \
      differences (n)' (n events whose states differed only so), or the first divergence: \
      the event's number in the log, its file:line, its key, the event as rasp read it, and \
      the states after it, '-' old and '+' new, with what did not differ collapsed. A \
      directory stands for every *.jsonl file in it, in name order (*.json with --log-format \
      devtools: each file one DevTools export). '-' reads standard input, once, into \
      memory, for both versions. A summary goes to standard error.
      """,
    usage:
      "rasp compare (--old <file> --new <file> | --old-spec <file> ... | --new-map <file> ...) "
      + "[--allow <change> ...] [--ignore <path> ...] [<options>] <file-or-directory> ...",
    arguments: [
      RaspArgumentSpec(
        name: "file-or-directory",
        help:
          "An event log ('-': standard input), or a directory: every *.jsonl file in it "
          + "(*.json with --log-format devtools), in name order.",
        isRepeatable: true, isRequired: true)
    ],
    options: [
      RaspOptionSpec(
        name: .old, valueName: "file", isRepeatable: true,
        help:
          "The old version: a spec file (a JSON object with 'domains') or a map file, told "
          + "apart by its content; repeat for a spec and a map."),
      RaspOptionSpec(
        name: .new, valueName: "file", isRepeatable: true,
        help: "The new version, as --old takes it."),
      RaspOptionSpec(
        name: .oldSpec, valueName: "file", isRepeatable: true,
        help: "A spec file of the old version only (see docs/spec.md); repeatable."),
      RaspOptionSpec(
        name: .newSpec, valueName: "file", isRepeatable: true,
        help: "A spec file of the new version only; repeatable."),
      RaspOptionSpec(
        name: .oldMap, valueName: "file",
        help: "The map file the old version reads logs with, in place of --map."),
      RaspOptionSpec(
        name: .newMap, valueName: "file",
        help: "The map file the new version reads logs with, in place of --map."),
      RaspOptionSpec(
        name: .allow, valueName: "change", isRepeatable: true,
        help:
          "Declare an intended change, not reported: 'add:<path>', 'remove:<path>', "
          + "'change:<path>', or '<path>' for any (such as add:cart.coupon); repeatable."),
      RaspOptionSpec(
        name: .jobs, short: "j", valueName: "n",
        help:
          "Compare <n> logs at a time, each on a thread (a single keyed log: apply its events "
          + "on <n> threads); the report is the same for every <n>. 1 by default."),
    ] + ComparisonOptions.specs.filter { $0.name != .maxDiffs }
      + ReplayOptions.specs.filter { replayOptionsKept.contains($0.name) },
    exitStatuses: [
      ("0", "No log differs but as --allow allows."),
      ("1", "Some log diverges."),
      (
        "2",
        "Bad input: a spec or map file with a mistake, a log that cannot be read, a line that "
          + "both versions reject."
      ),
      ("64", "A usage error."),
      ("129, 130, 143", "Stopped by SIGHUP, Ctrl-C (SIGINT) or SIGTERM."),
    ])

  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after `compare`.
  ///   - environment: The streams, variables and working directory.
  ///   - domains: The command's own domains: the old version's.
  ///   - newVersions: New versions of some of them, for the new version.
  /// - Returns: The exit status: 0 nothing unintended differs, 1 a log diverges, 2 a log
  ///   could not be compared.
  /// - Throws: A usage error, or the error of a spec or map file.
  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains: [any RaspDomain],
    newVersions: [any RaspDomain] = []
  ) throws(RaspCommandError) -> RaspExitCode {
    let fail = spec.usageError
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    guard !parsed.positionals.isEmpty else {
      throw fail("Missing expected argument '<file-or-directory>': the logs to compare")
    }
    if parsed.positionals.filter({ $0 == "-" }).count > 1 {
      throw fail("Standard input ('-') can be read once: give it as one log, not twice")
    }
    let versions = try CompareVersions(
      parsed: parsed, domains: domains, newVersions: newVersions, spec: spec,
      environment: environment)
    let readsDocuments = versions.old.configuration.format.document == .devtools
    if readsDocuments != (versions.new.configuration.format.document == .devtools) {
      throw fail(
        "The old and the new version read logs of different kinds: one map file reads each "
          + "log as a DevTools export ('document'), the other as JSON lines")
    }
    let comparison = try ComparisonOptions(parsed: parsed, spec: spec)
    try checkPaths(parsed.all(.ignore), option: "--ignore", versions: versions, fail: fail)
    var allowed: [AllowedChange] = []
    for text in parsed.all(.allow) {
      do {
        allowed.append(try AllowedChange(parsing: text))
      } catch {
        throw fail("Invalid value '\(text)' for '--allow <change>': \(error.reason)")
      }
    }
    for change in allowed {
      let path =
        change.operation == nil ? change.text : String(change.text.drop { $0 != ":" }.dropFirst())
      try checkPaths([path], option: "--allow \(change.text)", versions: versions, fail: fail)
    }
    let logs = try listLogs(
      parsed.positionals, extension: readsDocuments ? ".json" : ".jsonl",
      environment: environment)
    // Both versions read standard input: it is read whole, once, before either starts.
    let standardInput =
      parsed.positionals.contains("-")
      ? try SpecFiles.readAll(environment.standardInput, name: "<stdin>") : []
    let run = CompareRun(
      versions: versions, options: comparison.diff, allowed: allowed, environment: environment,
      standardInput: standardInput)
    let jobs = versions.old.jobs ?? 1
    let results: [CompareRun.Result]
    if let interruption = environment.interruption {
      results = interruption.watching { run.compareAll(logs, jobs: jobs) }
    } else {
      results = run.compareAll(logs, jobs: jobs)
    }
    let report = CompareReport(
      entries: zip(logs, results).map { CompareReport.Entry(file: $0.name, verdict: $1.verdict) },
      onlyOld: versions.onlyOld, onlyNew: versions.onlyNew, options: comparison.diff,
      isKeyed: run.isKeyed)
    switch comparison.format {
    case .text:
      try RaspCommandLine.printOutput(
        comparison.printedText(report.text, environment: environment), environment: environment)
    case .json:
      try RaspCommandLine.printOutput(report.json, environment: environment)
    }
    var rejected = false
    for result in results {
      for diagnostic in result.rejectedByBoth {
        rejected = true
        if let (position, path) = result.rejectionPlaces[diagnostic.line] {
          RaspDiagnostics.report(
            .invalidFile(
              diagnostic.inputName, line: position.line, column: position.column, path: path,
              reason: diagnostic.reason + " (under both versions)"),
            to: environment)
          continue
        }
        RaspDiagnostics.report(
          .input(
            file: diagnostic.inputName, line: diagnostic.line, column: diagnostic.column,
            reason: diagnostic.reason + " (under both versions)"),
          to: environment)
      }
    }
    let used = results.reduce(into: Set<Int>()) { $0.formUnion($1.usedAllowances) }
    for (index, change) in allowed.enumerated() where !used.contains(index) {
      RaspDiagnostics.warn(
        "rasp: warning: --allow '\(change.text)' allowed no difference in what was compared\n",
        to: environment)
    }
    RaspDiagnostics.write(report.summary, to: environment)
    for result in results {
      if case .interrupted(let signal) = result.verdict { return .signal(signal) }
    }
    let counts = report.counts
    if counts.failed > 0 || rejected { return .failure }
    return counts.divergent > 0 ? .differences : .success
  }

  /// Refuses a path that neither version's states can have (a domain neither has, a field a
  /// built-in domain never has), as `rasp check` does for `--ignore`; one that either
  /// version's can have is kept.
  private static func checkPaths(
    _ texts: [String], option: String, versions: CompareVersions,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    for text in texts {
      do {
        try ReplayOptions.checkIgnoredPaths(
          [text], configuration: unwrapped(versions.old.configuration), fail: fail)
      } catch {
        do {
          try ReplayOptions.checkIgnoredPaths(
            [text], configuration: unwrapped(versions.new.configuration), fail: fail)
        } catch {
          guard option != "--ignore", case .usage(let message, let usage, let command) = error
          else { throw error }
          throw RaspCommandError.usage(
            message.replacing("'--ignore \(text)'", with: "'\(option)'"), usage: usage,
            command: command)
        }
      }
    }
  }

  /// The configuration as its paths are read: of the state, not of a keyed record.
  private static func unwrapped(_ configuration: ReplayConfiguration) -> ReplayConfiguration {
    var configuration = configuration
    configuration.keyPath = nil
    configuration.includesEvent = false
    return configuration
  }

  /// The logs: each file as given, each directory's `*.jsonl` files in name order.
  static func listLogs(
    _ arguments: [String], extension suffix: String, environment: RaspEnvironment
  ) throws(RaspCommandError) -> [(path: String, name: String)] {
    var logs: [(path: String, name: String)] = []
    for argument in arguments {
      let resolved = environment.resolve(argument)
      guard argument != "-", RaspDirectory.exists(atPath: resolved) else {
        logs.append((argument, argument == "-" ? "<stdin>" : argument))
        continue
      }
      let names: [String]
      do {
        names = try RaspDirectory.names(atPath: resolved)
      } catch {
        throw .cannotOpen(argument, reason: "cannot list the directory")
      }
      let logNames = names.filter { $0.hasSuffix(suffix) }.sorted {
        Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
      }
      if logNames.isEmpty {
        throw .failure("no *\(suffix) file in the directory '\(argument)' to compare")
      }
      let prefix = argument.hasSuffix("/") ? argument : argument + "/"
      logs += logNames.map { (prefix + $0, prefix + $0) }
    }
    return logs
  }
}
