#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspDomains
import RaspJSON
import RaspReplay

/// How `rasp replay` (and `rasp check`, which replays too) reads logs and prints records: the
/// command line's options, read into the kernel's ``RaspReplay/ReplayConfiguration`` and what
/// only the command line does (files, spec files, layout, summary).
///
/// ```swift
/// let options = try ReplayOptions(
///   parsed: parsed, domains: RaspBuiltinDomains.all, spec: spec, environment: environment)
/// var replay = Replay(configuration: options.configuration, inputs: inputs)
/// ```
struct ReplayOptions {
  /// The logs, as the user named them; `-` is standard input.
  var files: [String] = ["-"]
  /// The spec files given with `--spec`, in order.
  var specFiles: [String] = []
  /// The names of the domains the spec files define, in order.
  var specDomainNames: [String] = []
  /// What the replay applies and yields.
  var configuration = ReplayConfiguration(domains: [])
  /// The number `--jobs` gives, or `nil` without it; the configuration holds how the replay
  /// runs on them (``threads(jobs:processors:isKeyed:isFinal:)``).
  var jobs: Int?
  /// Whether to indent the output.
  var isPretty = false
  /// Whether to print selected strings as their text, as `jq -r` does (`rasp replay` only).
  var isRaw = false
  /// Whether to print a summary on standard error.
  var showsStats = false
  /// Whether to follow the files as they grow (`--follow`).
  var follows = false
  /// Whether to show a progress line on standard error.
  var progress = ProgressChoice.automatic
  /// Whether to write one Redux DevTools export instead of lines (`--emit devtools`).
  var emitsDevTools = false
  /// Where to save checkpoints (`--save-state`), if anywhere.
  var saveStateFile: String?
  /// The checkpoint to resume from (`--resume`), if any.
  var resumeFile: String?
  /// The options a replay's state depends on, as a checkpoint keeps them: a replay resumes
  /// only from a checkpoint saved with the same.
  var checkpointOptions = JSONObject()
  /// The command that replays, as help names it: `rasp replay`, `rasp check`.
  var commandName = "rasp replay"
  /// Notes about how options were read, for standard error before the replay: a time
  /// without a zone read in UTC.
  var notes: [String] = []
  /// The positions of `--since`, `--until` and `--at` as written, for messages.
  private var positionTexts: [RaspOptionName: String] = [:]

  /// The value of `--since`, `--until` or `--at` as written; empty when not given.
  func text(of option: RaspOptionName) -> String { positionTexts[option] ?? "" }

  /// When a replay shows its progress line.
  typealias ProgressChoice = ProgressDisplay.Choice

  /// The domains in the snapshot: the command's own and those of the spec files.
  var domains: [any RaspDomain] { configuration.domains }
  /// The path selected with `--select`.
  var select: JSONPath? { configuration.selection }
  /// Whether to print only the last snapshot.
  var isFinal: Bool { configuration.isFinal }
  /// What to do with bad lines.
  var errorMode: ReplayConfiguration.ErrorMode { configuration.errorMode }

  /// The names of the files for messages and `--with-event`: `<stdin>` for `-`.
  var displayNames: [String] { files.map { $0 == "-" ? "<stdin>" : $0 } }

  /// The options `replay` and `check` share, in help order.
  /// `--save-state`, `--checkpoint-every` and `--resume`, for the commands that take them;
  /// `after` says what a resumed run does after the checkpoint.
  static func checkpointSpecs(after: String) -> [RaspOptionSpec] {
    [
      RaspOptionSpec(
        name: .saveState, valueName: "file",
        help:
          "Save a checkpoint in <file> at the end: the state of every domain (and key) and "
          + "where the replay is in each log, written atomically; --resume goes on from it."),
      RaspOptionSpec(
        name: .checkpointEvery, valueName: "n",
        help:
          "With --save-state, save a checkpoint after every <n> events too, so that a replay "
          + "killed on the way can be resumed from the last one."),
      RaspOptionSpec(
        name: .resume, valueName: "file",
        help:
          "Go on from the checkpoint in <file>: read each log from where it stopped (a log "
          + "that has grown since is read on; one changed before is refused) and \(after)."),
    ]
  }

  static let specs: [RaspOptionSpec] = [
    RaspOptionSpec(
      name: .select, valueName: "path",
      help:
        "Print only the value at <path> (such as geo.heading, nav.stack[-1] or "
        + "rest.links|length; jq's [], [1:], |keys, |first and |last too), and only when it "
        + "changes; event.<path> reads each event's line (event.meta.user). The events of "
        + "domains the path does not read are counted, not decoded (--strict decodes them)."
    ),
    RaspOptionSpec(
      name: .domain, valueName: "name", isRepeatable: true,
      help:
        "Put only this domain in the snapshots; repeat, or separate names with commas, for "
        + "several (--domain geo,nav). Events of other domains are ignored."
    ),
    RaspOptionSpec(
      name: .drop, valueName: "type", isRepeatable: true,
      help:
        "Leave out the events of this type, as if the log had not got them: not applied, no "
        + "line (Redux DevTools' skip). '*' is any text: nav.*, geo.heading; repeatable."
    ),
    RaspOptionSpec(
      name: .hide, valueName: "type", isRepeatable: true,
      help:
        "Apply the events of this type, but print no line for them (Redux DevTools' hide); the "
        + "next line holds the state after them, and a diff is from the last line printed."
    ),
    RaspOptionSpec(
      name: .spec, valueName: "file", isRepeatable: true,
      help:
        "Add the domains that a spec file defines (see docs/spec.md); without --domain, the "
        + "snapshot holds the spec's domains only; repeat for several files."
    ),
    RaspOptionSpec(
      name: .logFormat, valueName: "name", allowedValues: LogFormat.presetNames,
      valueHints: Self.logFormatHints,
      help:
        "Read logs written in this format: 'rasp' (the default), 'fsa' (Redux actions), "
        + "'devtools' (a Redux DevTools export, one JSON document), 'cloudevents', 'segment', "
        + "'otel' (OTLP/JSON logs), 'kcat' (Kafka messages), 'gpsd' (gpsd's JSON reports) or "
        + "'owntracks' (OwnTracks locations). 'rasp formats' describes them."
    ),
    RaspOptionSpec(
      name: .map, valueName: "file",
      help:
        "Read logs as the map file <file> describes: where a line keeps its type, payload, "
        + "time and source, and how a type becomes 'domain.event' (see docs/formats.md)."
    ),
    RaspOptionSpec(
      name: .concat,
      help:
        "Read the logs one after another, as the parts of one log (rotated files, a "
        + "recorder's session.jsonl, session.1.jsonl, …), instead of merging them by time. "
        + "With --follow, the last is followed."
    ),
    RaspOptionSpec(
      name: .keyBy, valueName: "path",
      help:
        "Keep a state of every domain for each key: the value at <path> in each event "
        + "(source, payload.deviceId, meta.sessionId, a Kafka message's key). Lines become "
        + "{\"key\":…,\"state\":…}; --final prints one per key, in key order. An event without "
        + "the path has the key null (an error with --strict)."
    ),
    RaspOptionSpec(
      name: .jobs, short: "j", valueName: "n",
      help:
        "Run on <n> threads in all, at most one per core: 1 reads and applies on one thread; "
        + "2 reads the log on one and applies on the other; more apply a keyed replay's events "
        + "(--key-by) on <n>-1 threads, each a share of the keys. The output is the same for "
        + "every <n>. By default 2, and with --key-by and --final one per core."
    ),
    RaspOptionSpec(name: .final, help: "Print only the snapshot after the last event."),
    RaspOptionSpec(
      name: .since, valueName: "position",
      help:
        "Print from <position> on: a time (2026-11-22T09:30:00Z; in UTC without a zone or as "
        + "a date, 2026-11-22; or 1795335000s, ms, us, ns), "
        + "a line (events.jsonl:12, or line:12 of the only log) or an event's number (#5). "
        + "The events before it are applied, but print no line."
    ),
    RaspOptionSpec(
      name: .until, valueName: "position",
      help:
        "Stop reading after <position> (a time, file:line, line:N or #N), whose line is "
        + "printed; by time, at the first event after it."
    ),
    RaspOptionSpec(
      name: .at, valueName: "position",
      help:
        "Print only the snapshot in force at <position> (a time, file:line, line:N or #N): "
        + "after the last event at or before it; the initial one before the first."
    ),
    RaspOptionSpec(
      name: .withEvent,
      help:
        "Wrap each output line as {\"event\":…,\"file\":…,\"line\":…,\"seq\":…,\"state\":…} "
        + "(\"value\" instead of \"state\" with --select, \"diff\" with --emit diff)."
    ),
    RaspOptionSpec(
      name: .emit, valueName: "what", allowedValues: ["snapshot", "diff", "devtools"],
      help:
        "Print the whole 'snapshot' after each event (the default), or the 'diff' from the "
        + "one before: an RFC 6902 JSON Patch, [] when nothing changed; 'devtools' (replay "
        + "only) writes one Redux DevTools export of every event and snapshot, for its Import."
    ),
    RaspOptionSpec(
      name: .changesOnly, help: "With --emit diff, leave out the events that changed nothing."),
    RaspOptionSpec(name: .pretty, help: "Indent the output for people."),
    RaspOptionSpec(
      name: .strict,
      help:
        "Treat an event of unknown type, or a payload field its type does not define, as a bad "
        + "line instead of ignoring it."),
    RaspOptionSpec(
      name: .onError, valueName: "mode", allowedValues: ["fail", "skip"],
      help:
        "On a bad line, 'fail' (the default) stops after printing every snapshot before it; "
        + "'skip' reports the line and goes on."
    ),
    RaspOptionSpec(
      name: .stats,
      help:
        "End with a summary on standard error: lines read = applied + skipped + ignored + blank, "
        + "a batch line's events counted one by one."),
    RaspOptionSpec(
      name: .progress,
      help:
        "Show a progress line on standard error (lines, lines per second, bytes read of the "
        + "total, time left) even where it is not shown by default: standard error no "
        + "terminal, standard output a pipe ('| less'), under CI."),
    RaspOptionSpec(
      name: .noProgress,
      help:
        "Never show the progress line, which a terminal's standard error shows by default "
        + "(erased before anything else reaches the terminal)."),
  ]

  /// What `--log-format` says of the names people give its formats by: the tool or protocol
  /// whose logs a preset reads.
  static let logFormatHints: [String: String] = {
    let redux =
      "Redux's actions are 'fsa' (Flux Standard Actions), a Redux DevTools export 'devtools'"
    let kafka = "Kafka messages, as 'kcat -J' prints them, are 'kcat'"
    let otel = "OpenTelemetry's logs, as OTLP/JSON, are 'otel'"
    return [
      "redux": redux, "flux": redux, "actions": redux, "redux-devtools": redux,
      "kafka": kafka, "kafkacat": kafka,
      "opentelemetry": otel, "otlp": otel, "otlp-json": otel,
      "gpspipe": "gpsd's reports, as 'gpspipe -w' prints them, are 'gpsd'",
      "nmea": "gpsd's JSON reports, NMEA sentences among them, are 'gpsd'",
      "ot-recorder": "OwnTracks locations, from the Recorder or as JSON, are 'owntracks'",
      "recorder": "OwnTracks locations, from the Recorder or as JSON, are 'owntracks'",
      "cloudevent": "CloudEvents, structured or batched, are 'cloudevents'",
      "ce": "CloudEvents, structured or batched, are 'cloudevents'",
      "json": "rasp's own JSON lines are 'rasp', the default; 'rasp formats' lists the others",
      "jsonl": "rasp's own JSON lines are 'rasp', the default; 'rasp formats' lists the others",
      "ndjson": "rasp's own JSON lines are 'rasp', the default; 'rasp formats' lists the others",
    ]
  }()

  /// The most threads `--jobs` takes.
  static let maximumJobs = 256

  /// How a replay runs on the threads `--jobs <n>` gives it, `n` counting every thread,
  /// the one that reads the log among them, and at most one per processor: more threads than
  /// cores take turns, and a replay on three threads on two cores is slower than on one.
  ///
  /// One thread reads and applies (``ReplayConfiguration/Threading/single``); two read on one
  /// and apply on the other, the reading thread decoding a share of the events; more apply a
  /// keyed replay's events on `n - 1` kernels, each a share of the keys. Without `--jobs`, a
  /// replay runs on two threads, and a keyed `--final` replay on one per processor.
  ///
  /// ```swift
  /// ReplayOptions.threads(jobs: 3, processors: 8, isKeyed: true)  // (.automatic, kernels: 2)
  /// ```
  static func threads(jobs: Int?, processors: Int, isKeyed: Bool, isFinal: Bool) -> (
    threading: ReplayConfiguration.Threading, kernels: Int
  ) {
    let cores = min(max(1, processors), maximumJobs)
    let threads = min(jobs ?? (isKeyed && isFinal ? cores : 2), cores)
    if threads <= 1 { return (.single, 1) }
    return (.automatic, isKeyed ? threads - 1 : 1)
  }

  /// Reads the options from a parsed command line, and the spec files it names.
  ///
  /// Spec files are read and validated before any event: every mistake in them is reported.
  init(
    parsed: RaspParsedArguments, domains builtIn: [any RaspDomain], spec: RaspCommandSpec,
    environment: RaspEnvironment
  ) throws(RaspCommandError) {
    let fail = spec.usageError
    commandName = spec.name
    if !parsed.positionals.isEmpty { files = parsed.positionals }
    if files.filter({ $0 == "-" }).count > 1 {
      throw fail("Standard input ('-') can be read only once")
    }
    follows = parsed.flag(.follow)
    if follows, files.contains("-") {
      throw fail(
        "Option '--follow' needs files: standard input ('-') is read as it arrives without it")
    }
    configuration.format = try Self.format(parsed, environment: environment, fail: fail)
    if follows, configuration.format.document != nil {
      throw fail(
        "Option '--follow' reads a log as it grows; the format '\(configuration.format.name)' "
          + "reads each input as one document, whole")
    }
    specFiles = parsed.all(.spec)
    if specFiles.contains("-") {
      throw fail("A spec cannot be read from standard input ('-'): it is where event logs are read")
    }
    let specDomains = try SpecFiles.domains(
      of: SpecFiles.load(specFiles, after: builtIn, environment: environment))
    specDomainNames = specDomains.map(\.name)
    let available = builtIn + specDomains
    let names = available.map(\.name)
    let chosen = try parsed.domainNames(among: names, spec: spec)
    if chosen.isEmpty, !specDomains.isEmpty {
      // A spec's domains are the app's: rasp's six built-in ones would clutter every snapshot
      // (a program's own domains, given to RaspCLI, stay).
      let rasps = Set(RaspBuiltinDomains.all.map(\.name))
      configuration.domains = available.filter { !rasps.contains($0.name) }
      configuration.excludedDomains = available.filter { rasps.contains($0.name) }
    } else if chosen.isEmpty {
      configuration.domains = available
    } else {
      configuration.domains = available.filter { chosen.contains($0.name) }
      configuration.excludedDomains = available.filter { !chosen.contains($0.name) }
    }
    configuration.droppedTypes = try Self.typePatterns(
      .drop, parsed, domains: available, environment: environment, fail: fail)
    configuration.hiddenTypes = try Self.typePatterns(
      .hide, parsed, domains: available, environment: environment, fail: fail)
    if let text = parsed.value(.select) {
      configuration.selection = try Self.selection(
        text, domains: configuration.domains, environment: environment, fail: fail)
    }
    if let text = parsed.value(.keyBy) {
      // An empty path would key by the whole event, more likely an unset shell variable.
      guard !text.allSatisfy(\.isWhitespace) else {
        throw fail(
          "Invalid path '\(text)' for '--key-by <path>': expected a path such as 'source' or "
            + "'payload.deviceId' ('.' for the whole event)")
      }
      do {
        configuration.keyPath = try JSONPath(text)
      } catch {
        throw fail("Invalid path '\(text)' for '--key-by <path>': \(error)")
      }
    }
    configuration.isFinal = parsed.flag(.final)
    configuration.concatenatesInputs = parsed.flag(.concat)
    try readRange(parsed, fail: fail)
    if let text = parsed.value(.jobs) {
      guard let number = Int(text), (1...Self.maximumJobs).contains(number) else {
        throw fail(
          "Invalid value '\(text)' for '--jobs <n>': expected a whole number from 1 to "
            + "\(Self.maximumJobs)")
      }
      jobs = number
    }
    (configuration.threading, configuration.jobs) = Self.threads(
      jobs: jobs, processors: environment.processorCount,
      isKeyed: configuration.keyPath != nil, isFinal: configuration.isFinal)
    configuration.includesEvent = parsed.flag(.withEvent)
    configuration.isStrict = parsed.flag(.strict)
    configuration.errorMode =
      parsed.value(.onError).flatMap(ReplayConfiguration.ErrorMode.init(rawValue:)) ?? .fail
    configuration.emit =
      parsed.value(.emit).flatMap(ReplayConfiguration.Emit.init(rawValue:)) ?? .snapshot
    configuration.changesOnly = parsed.flag(.changesOnly)
    configuration.interruption = environment.interruption
    isPretty = parsed.flag(.pretty)
    isRaw = parsed.flag(.rawOutput)
    showsStats = parsed.flag(.stats)
    if parsed.flag(.progress), parsed.flag(.noProgress) {
      throw fail("Options '--progress' and '--no-progress' cannot be used together")
    }
    progress = parsed.flag(.progress) ? .always : parsed.flag(.noProgress) ? .never : .automatic
    if configuration.changesOnly, configuration.emit != .diff {
      throw fail("Option '--changes-only' needs '--emit diff'")
    }
    if parsed.value(.emit) == "devtools" {
      emitsDevTools = true
      // Each action is an event printed, and each computed state its snapshot.
      configuration.includesEvent = true
      // As rasp read it: its type, payload and time, whatever the log's format.
      configuration.includesEventAsRead = true
      let conflicting = [
        RaspOptionName.select, .final, .keyBy, .pretty, .rawOutput, .at, .since,
      ].first { parsed.isGiven($0) }
      if let conflicting {
        throw fail("Option '--emit devtools' cannot be used with '--\(conflicting.rawValue)'")
      }
    }
    if let path = configuration.selection, let text = parsed.value(.select) {
      try Self.checkSeveralValues(path, text: text, configuration, spec: spec, fail: fail)
    }
    try readCheckpoints(parsed, environment: environment, fail: fail)
  }

  /// Whether the file at `path` exists and is not a regular file: a pipe, a socket, a device.
  private static func isStream(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    let type = status.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
  }

  /// Reads `--save-state`, `--checkpoint-every` and `--resume`, and what the state depends on.
  private mutating func readCheckpoints(
    _ parsed: RaspParsedArguments, environment: RaspEnvironment,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    saveStateFile = parsed.value(.saveState)
    resumeFile = parsed.value(.resume)
    if let text = parsed.value(.checkpointEvery) {
      guard saveStateFile != nil else {
        throw fail("Option '--checkpoint-every <n>' needs '--save-state <file>': where to save")
      }
      guard let count = Int(text), count >= 1 else {
        throw fail(
          "Invalid value '\(text)' for '--checkpoint-every <n>': expected a whole number of "
            + "events from 1")
      }
      configuration.checkpointInterval = count
    }
    guard
      let option = saveStateFile != nil
        ? "--save-state <file>" : resumeFile.map({ _ in "--resume <file>" })
    else { return }
    configuration.checkpointsAtEnd = saveStateFile != nil
    for file in [saveStateFile, resumeFile].compactMap({ $0 }) where file == "-" {
      throw fail("Option '\(option)' needs a file: a checkpoint is not read from or written to '-'")
    }
    if files.contains("-") {
      throw fail(
        "Option '\(option)' needs files: standard input ('-') cannot be read again from a "
          + "checkpoint's offset")
    }
    // A pipe or a device (`/dev/stdin`, `<(…)`) neither: a file that cannot be opened is
    // reported when it is opened.
    if let stream = files.first(where: { Self.isStream(environment.resolve($0)) }) {
      throw fail(
        "Option '\(option)' needs files: '\(stream)' is a pipe or a device, which cannot be "
          + "read again from a checkpoint's offset")
    }
    let conflicting =
      (follows ? ["--follow"] : [])
      + (configuration.emit != .snapshot ? ["--emit \(configuration.emit.rawValue)"] : [])
      + (emitsDevTools ? ["--emit devtools"] : [])
      + (configuration.format.document != nil ? ["--log-format \(configuration.format.name)"] : [])
    if let other = conflicting.first {
      throw fail("Option '\(option)' cannot be used with '\(other)' yet")
    }
    func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
    func text(_ option: RaspOptionName) -> JSONValue {
      parsed.value(option).map { .string($0) } ?? .null
    }
    checkpointOptions = JSONObject(sortedMembers: [
      ("concat", .bool(configuration.concatenatesInputs)),
      ("domain", strings(configuration.domains.map(\.name).sorted())),
      ("drop", strings(configuration.droppedTypes)),
      ("hide", strings(configuration.hiddenTypes)),
      ("key-by", text(.keyBy)),
      ("log-format", .string(configuration.format.name)),
      ("select", text(.select)),
      ("spec", strings(specFiles)),
      ("strict", .bool(configuration.isStrict)),
    ])
  }

  /// Reads `--since`, `--until` and `--at`: a bad position is a usage error that says what was
  /// expected, and `--at` goes with none of `--since`, `--until` and `--final`.
  private mutating func readRange(
    _ parsed: RaspParsedArguments, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    func position(_ option: RaspOptionName) throws(RaspCommandError) -> ReplayPosition? {
      guard let text = parsed.value(option) else { return nil }
      do {
        let position = try ReplayPosition(text, inputNames: displayNames)
        if case .time = position, let utc = ReplayPosition.utcForm(of: text) {
          let option = "'--\(option.rawValue) \(text)'"
          notes.append(
            utc.utf8.count == text.utf8.count + 1
              ? "\(option) has no zone: read as \(utc), in UTC; add a zone (+01:00) for another"
              : "\(option) is a date: read as its start in UTC, \(utc); write a time with a zone "
                + "for another (\(text)T00:00:00+01:00)")
        }
        return position
      } catch {
        throw fail(
          "Invalid position '\(text)' for '--\(option.rawValue) <position>': \(error)")
      }
    }
    for option in [RaspOptionName.since, .until, .at] {
      positionTexts[option] = parsed.value(option)
    }
    configuration.since = try position(.since)
    configuration.until = try position(.until)
    configuration.at = try position(.at)
    if configuration.at != nil {
      let others =
        [RaspOptionName.since, .until].filter(parsed.isGiven).map { "'--\($0.rawValue)'" }
        + (configuration.isFinal ? ["'--final'"] : [])
      if let other = others.first {
        throw fail(
          "Options '--at <position>' and \(other) cannot be used together: --at prints the one "
            + "snapshot at its position")
      }
    }
    // Two positions of one kind can be compared before the replay: the range between them
    // is empty when --until comes first, most likely a mistake that would print nothing.
    let isEmpty: Bool
    switch (configuration.since, configuration.until) {
    case (.event(let since)?, .event(let until)?): isEmpty = until < since
    case (.time(let since)?, .time(let until)?): isEmpty = until < since
    case (.line(let input, let since)?, .line(let other, let until)?) where input == other:
      isEmpty = until < since
    default: isEmpty = false
    }
    if isEmpty, let since = parsed.value(.since), let until = parsed.value(.until) {
      throw fail(
        "Options '--since \(since)' and '--until \(until)' select nothing: --until stops "
          + "before --since starts")
    }
  }

  /// The patterns of `--drop <type>` or `--hide <type>`: a malformed one is a usage error; one
  /// that matches no type of any domain is warned about, with the nearest type or domain, and
  /// kept (it matches nothing).
  private static func typePatterns(
    _ name: RaspOptionName, _ parsed: RaspParsedArguments, domains: [any RaspDomain],
    environment: RaspEnvironment, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> [String] {
    let texts = parsed.all(name)
    let option = name.rawValue
    guard !texts.isEmpty else { return [] }
    let types = domains.flatMap { domain in domain.events.map { "\(domain.name).\($0.name)" } }
    for text in texts {
      if let problem = TypeGlob.problem(in: text) {
        throw fail("Invalid type '\(text)' for '--\(option) <type>': \(problem)")
      }
      let glob = TypeGlob(text)
      guard !types.contains(where: glob.matches) else { continue }
      var warning = "rasp: warning: --\(option) '\(text)' matches no event type of any domain"
      let candidates = types + domains.map { "\($0.name).*" }
      if let near = RaspSpelling.nearest(to: text, among: candidates) {
        warning += "; did you mean '\(near)'?"
      }
      RaspDiagnostics.warn(warning + "\n", to: environment)
    }
    return texts
  }

  /// Refuses a selection with `[]`, which prints several values per event, one per line, where
  /// each record must be one value: wrapped with the event or the key, diffed, or compared
  /// with a golden line.
  private static func checkSeveralValues(
    _ path: JSONPath, text: String, _ configuration: ReplayConfiguration,
    spec: RaspCommandSpec, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    guard let each = path.filters.firstIndex(of: .each) else { return }
    let which: String
    if spec.name == CheckCommand.spec.name {
      which = "'rasp check' cannot compare with one golden line"
    } else if configuration.includesEvent {
      which = "'--with-event' cannot wrap in one record"
    } else if configuration.keyPath != nil {
      which = "'--key-by' cannot wrap in one record"
    } else if configuration.emit == .diff {
      which = "'--emit diff' cannot diff as one value"
    } else {
      return
    }
    let whole = JSONPath(components: path.components, filters: Array(path.filters[..<each]))
    throw fail(
      "'[]' in '--select \(text)' prints several values, one per line, which \(which); "
        + "select the whole '\(whole)' instead")
  }

  /// The format of `--log-format <name>` or `--map <file>`; rasp's own without either.
  private static func format(
    _ parsed: RaspParsedArguments, environment: RaspEnvironment,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> LogFormat {
    switch (parsed.value(.logFormat), parsed.value(.map)) {
    case (nil, nil):
      return .rasp
    case (.some, .some):
      throw fail("Options '--log-format <name>' and '--map <file>' cannot be used together")
    case (let name?, nil):
      // The parser has checked the name against the presets.
      guard let format = LogFormat.preset(named: name) else {
        throw fail("Unknown format '\(name)' for '--log-format <name>'")
      }
      return format
    case (nil, let file?):
      if file == "-" {
        throw fail("A map file cannot be read from standard input ('-'): it is where logs are read")
      }
      do {
        return try mapFile(file, environment: environment)
      } catch {
        // A preset's name, where a map file was expected.
        if case .cannotOpen = error, LogFormat.preset(named: file) != nil {
          throw fail("No map file '\(file)': to read the preset, use '--log-format \(file)'")
        }
        throw error
      }
    }
  }

  /// The format a map file describes, named after the file unless it names itself.
  ///
  /// - Throws: Every mistake in the file, with its line and column.
  static func mapFile(_ file: String, environment: RaspEnvironment)
    throws(RaspCommandError) -> LogFormat
  {
    let bytes = try environment.readFile(file)
    let name = file.split(separator: "/").last.map { String($0) } ?? file
    do {
      return try LogFormat(mapFile: bytes, name: name)
    } catch {
      let errors = error.problems.map { problem in
        RaspCommandError.invalidFile(
          file, line: problem.line, column: problem.column, path: problem.path,
          reason: problem.reason)
      }
      throw errors.count == 1 ? errors[0] : .multiple(errors)
    }
  }

  /// The path of `--select <text>` (or of `option`, such as `rasp blame`, that takes a path as
  /// it does), which must start with one of `domains`.
  static func selection(
    _ text: String, option: String = "--select", domains: [any RaspDomain],
    environment: RaspEnvironment, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> JSONPath {
    // A log's name where the path belongs (`--select events.jsonl`) would otherwise be read
    // as a path, and the replay would wait on standard input.
    let fileHint =
      "'\(text)' is a file, not a path, for '\(option) <path>': put the path before it, as in "
      + "'\(option) geo.heading \(text)'"
    let path: JSONPath
    do {
      path = try JSONPath(text, allowsFilters: true)
    } catch {
      if environment.fileExists(text) { throw fail(fileHint) }
      throw fail("Invalid path '\(text)' for '\(option) <path>': \(error)")
    }
    if let first = path.firstKey, !domains.contains(where: { $0.name == first }),
      first != ReplayConfiguration.eventRoot
    {
      if environment.fileExists(text) { throw fail(fileHint) }
      let enabled = domains.map(\.name)
      var message = "Unknown domain '\(first)' in '\(option) \(text)'"
      if let near = RaspSpelling.nearest(
        to: first, among: enabled + [ReplayConfiguration.eventRoot])
      {
        message += ". Did you mean '\(near)'?"
      } else {
        message +=
          ": the snapshot holds \(enabled.map { "'\($0)'" }.joined(separator: ", ")), and "
          + "'event.' reads each event's line"
      }
      throw fail(message)
    } else if path.firstKey == nil, !path.components.isEmpty {
      throw fail("Invalid path '\(text)' for '\(option) <path>': it must start with a domain name")
    }
    do {
      try checkField(of: path, text: text, option: option, domains: domains, fail: fail)
    } catch {
      // `--select geo.jsonl`: a log named after a domain.
      if environment.fileExists(text) { throw fail(fileHint) }
      throw error
    }
    return path
  }

  /// Refuses an `--ignore` path of `rasp check` that no record of the replay can have — a
  /// domain the replay does not hold (`gep.heading`), a field a built-in domain's state never
  /// has (`geo.headng`), or, when each record wraps its snapshot (`--with-event`, `--key-by`),
  /// a member the record does not have (`lifecycle.changedAt` for `state.lifecycle.changedAt`)
  /// — with the nearest name, rather than ignoring nothing silently. A path is one of the
  /// record as printed, as the golden file holds it. Paths that start with a pattern
  /// (`*.changedAt`) are left alone, and so are those of a selected value or a diff, which
  /// may hold anything.
  static func checkIgnoredPaths(
    _ texts: [String], configuration: ReplayConfiguration, fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    let domains = configuration.domains
    let isKeyed = configuration.keyPath != nil
    let isWrapped = configuration.includesEvent || isKeyed
    let inner =
      configuration.selection != nil ? "value" : configuration.emit == .diff ? "diff" : "state"
    guard isWrapped || inner == "state" else { return }
    let members =
      ((configuration.includesEvent ? ["event", "file", "line", "seq"] : [])
      + (isKeyed ? ["key"] : [])
      + [inner]).sorted()
    for text in texts {
      guard var path = try? JSONPath(text, allowsPatterns: true), let first = path.firstKey
      else { continue }
      var prefix = ""
      if isWrapped {
        guard members.contains(first) else {
          let option = configuration.includesEvent ? "--with-event" : "--key-by"
          let listed = members.dropLast().map { "'\($0)'" }.joined(separator: ", ")
          var message =
            "Unknown member '\(first)' of a record in '--ignore \(text)': with \(option), each "
            + "record has \(listed) and '\(inner)'"
          if inner == "state", domains.contains(where: { $0.name == first }) {
            message += ". Did you mean 'state.\(text)'?"
          } else if let near = RaspSpelling.nearest(to: first, among: members) {
            message += ". Did you mean '\(near)'?"
          }
          throw fail(message)
        }
        guard first == "state", path.components.count > 1, case .key = path.components[1] else {
          continue
        }
        path = JSONPath(
          components: Array(path.components.dropFirst()), selectsLength: path.selectsLength)
        prefix = "state."
      }
      guard let domain = path.firstKey else { continue }
      if !domains.contains(where: { $0.name == domain }) {
        let names = domains.map(\.name)
        var message = "Unknown domain '\(domain)' in '--ignore \(text)'"
        if let near = RaspSpelling.nearest(to: domain, among: names) {
          message += ". Did you mean '\(prefix)\(near)'?"
        } else {
          message += ": the snapshots hold \(names.map { "'\($0)'" }.joined(separator: ", "))"
        }
        throw fail(message)
      }
      try checkField(
        of: path, text: text, option: "--ignore", domains: domains, prefix: prefix, fail: fail)
    }
  }

  /// Refuses a field that a built-in domain's state never has (`geo.headng`), which would
  /// select `null` for ever, with the nearest field it has. The fields are those of the
  /// domain's initial state, or those a spec domain's state and operations name; a domain
  /// whose state starts empty (`data`), your own, or a spec's that may gain any member, is
  /// not checked.
  private static func checkField(
    of path: JSONPath, text: String, option: String, domains: [any RaspDomain],
    prefix: String = "", fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) {
    guard path.components.count >= 2, case .key(let field) = path.components[1],
      let name = path.firstKey, let domain = domains.first(where: { $0.name == name }),
      let fields = fixedFields(of: domain), !fields.contains(field)
    else { return }
    var message = "Unknown field '\(field)' of domain '\(name)' in '\(option) \(text)'"
    if let near = RaspSpelling.nearest(to: field, among: fields) {
      message += ". Did you mean '\(prefix)\(name).\(near)'?"
    } else {
      message += ": its fields are \(fields.map { "'\($0)'" }.joined(separator: ", "))"
    }
    throw fail(message)
  }

  /// The fields a domain's state can have, sorted, for a path's second name to be checked
  /// against: those of a built-in domain's initial state, or those a spec domain's initial
  /// state and operations name; `nil` for a domain whose state starts empty (`data`), your
  /// own, or a spec's whose operations may add any member.
  static func fixedFields(of domain: any RaspDomain) -> [String]? {
    if let spec = domain as? RaspSpecDomain { return specFields(of: spec) }
    guard
      RaspBuiltinDomains.all.contains(where: {
        ObjectIdentifier(type(of: $0)) == ObjectIdentifier(type(of: domain))
      }),
      case .object(let initial)? = try? JSONParser.parse(
        SnapshotState(domains: [domain]).encodedState(ofDomainAt: 0)),
      !initial.isEmpty
    else { return nil }
    return initial.keys.sorted()
  }

  /// The fields a spec domain's state can ever have: those of its initial object, and the
  /// first member of each operation's path; `nil` when an operation may add any member (one
  /// on the whole state, such as a `merge` of the payload, or on `[]`, `[?…]`, `[payload.id]`)
  /// or the state is not an object.
  private static func specFields(of domain: RaspSpecDomain) -> [String]? {
    guard case .object(let initial) = domain.initial else { return nil }
    var fields = Set(initial.keys)
    for event in domain.eventDefinitions {
      for operation in event.operations {
        guard case .key(let first)? = operation.path.components.first else { return nil }
        fields.insert(first)
      }
    }
    return fields.sorted()
  }
}
