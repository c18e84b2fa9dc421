import RaspDomains
import RaspReplay

/// How a replay that a command ran ended: what its exit status and summary are made of.
struct ReplayResult {
  /// The count of every line read.
  var statistics = ReplayStatistics()
  /// How the replay ended.
  var ending = ReplaySummary.Ending.completed
  /// What stopped the run besides a bad line: an input that could not be opened or read, or
  /// output that could not be written.
  var failure: RaspCommandError?
  /// Whether the reader of the output went away.
  var brokenPipe = false
  /// The place of the first event of unknown type, when it is an action of an export.
  var unknownTypePlace: String?
  /// For each of the statistics' unknown payload fields, the place of its event in the export
  /// it came from, when it came from one.
  var unknownFieldPlaces: [String?] = []

  /// Whether a request to stop (Ctrl-C) ended the replay.
  var interruptingSignal: Int32? {
    if case .interrupted(let signal) = ending { return signal }
    return nil
  }
}

/// Runs a replay for a command: opens its inputs, hands each record to a sink, and reports bad
/// lines and notices on standard error as they come, after the sink has delivered what it
/// holds, so that the two streams interleave in order on a terminal.
///
/// ```swift
/// var sink = StandardOutputSink(stream: environment.standardOutput, isPretty: options.isPretty)
/// let result = ReplayRun.run(options, environment: environment, into: &sink)
/// return ReplayRun.finish(result, options: options, environment: environment)
/// ```
enum ReplayRun {
  /// Replays the options' logs into `sink`.
  ///
  /// - Parameters:
  ///   - options: What to replay, and how.
  ///   - environment: The streams, variables and working directory to run in.
  ///   - opened: Documents already read, by the position of their file, which are
  ///     not read again (standard input can be read only once).
  ///   - sink: Where the records and diagnostics go.
  /// - Returns: What the replay did: its counts, problems and how it ended.
  static func run<Sink: ReplaySink>(
    _ options: ReplayOptions, environment: RaspEnvironment,
    opened: [Int: ImportedDocument] = [:], into sink: inout Sink
  ) -> ReplayResult {
    var result = ReplayResult()
    for note in options.notes {
      RaspDiagnostics.write("rasp: note: \(note)\n", to: environment)
    }
    var inputs: [ReplayInput]
    var documents = opened
    var checkpointing: Checkpointing?
    do throws(RaspCommandError) {
      if options.saveStateFile != nil || options.resumeFile != nil {
        checkpointing = try Checkpointing(options, environment: environment)
      }
      inputs = try openInputs(options, environment: environment, documents: &documents)
      if let offsets = checkpointing?.startOffsets {
        for index in inputs.indices {
          do {
            inputs[index] = try inputs[index].startingAt(byte: offsets[index])
          } catch {
            throw RaspCommandError.cannotOpen(options.files[index], reason: error.message)
          }
        }
      }
    } catch {
      result.failure = error
      return result
    }
    var options = options
    if documents.count == 1, let document = documents.values.first {
      options.configuration.domains = document.startingDomains(options.configuration.domains)
    }
    let display = showProgress(of: inputs, options: &options, environment: environment)
    defer { display?.stop() }
    guard let interruption = options.configuration.interruption else {
      return run(
        inputs, documents, options, checkpointing: &checkpointing, environment: environment,
        into: &sink)
    }
    return interruption.watching {
      run(
        inputs, documents, options, checkpointing: &checkpointing, environment: environment,
        into: &sink)
    }
  }

  /// Replays inputs already opened — a log in memory, as `rasp shrink` tries its candidates —
  /// into `sink`: without the options' notes, a progress line or checkpoint files.
  ///
  /// The checkpoints that the options' configuration asks for go to the sink
  /// (``ReplaySink/keep(_:)``). Resumed from `checkpoint`, each input must hold the rest of its
  /// log, from the checkpoint's offset in it on.
  ///
  /// - Parameters:
  ///   - options: How to replay; its files are not opened.
  ///   - inputs: What to replay, one input per file of the options.
  ///   - checkpoint: The state to start from; `nil` starts from the first line.
  ///   - environment: Where bad lines and notices are reported.
  ///   - sink: Where the records go.
  /// - Returns: What the replay did: its counts, problems and how it ended.
  static func run<Sink: ReplaySink>(
    _ options: ReplayOptions, inputs: [ReplayInput],
    resumingFrom checkpoint: ReplayCheckpoint? = nil,
    environment: RaspEnvironment, into sink: inout Sink
  ) -> ReplayResult {
    var checkpointing: Checkpointing?
    return run(
      inputs, [:], options, checkpointing: &checkpointing, resumingFrom: checkpoint,
      environment: environment, into: &sink)
  }

  /// Starts a progress display when the options and the environment want one: the replay
  /// then counts what it reads, and the environment's streams erase the line before they
  /// write to its terminal.
  private static func showProgress(
    of inputs: [ReplayInput], options: inout ReplayOptions, environment: RaspEnvironment
  ) -> ProgressDisplay? {
    let total = inputs.reduce(Int?.some(0)) { sum, input in
      guard let sum, let count = input.byteCount else { return nil }
      return sum + count
    }
    let progress = ReplayProgress(totalBytes: total)
    guard
      let display = ProgressDisplay.start(
        counting: progress, choice: options.progress,
        readsTerminal: inputs.contains(where: \.isTerminal), in: environment)
    else { return nil }
    options.configuration.progress = progress
    return display
  }

  /// Replays opened inputs into `sink`.
  private static func run<Sink: ReplaySink>(
    _ inputs: [ReplayInput], _ documents: [Int: ImportedDocument], _ options: ReplayOptions,
    checkpointing: inout Checkpointing?, resumingFrom checkpoint: ReplayCheckpoint? = nil,
    environment: RaspEnvironment, into sink: inout Sink
  ) -> ReplayResult {
    var result = ReplayResult()
    var replay: Replay
    if let resumed = checkpointing?.resumed, let file = options.resumeFile {
      do {
        replay = try Replay(
          configuration: options.configuration, inputs: inputs, resumingFrom: resumed.checkpoint)
      } catch {
        result.failure = .invalidFile(
          file, line: nil, column: nil,
          path: "state" + (error.path.hasPrefix("[") || error.path.isEmpty ? "" : ".") + error.path,
          reason: error.reason)
        return result
      }
    } else if let checkpoint {
      do {
        replay = try Replay(
          configuration: options.configuration, inputs: inputs, resumingFrom: checkpoint)
      } catch {
        result.failure = .failure("cannot resume from a saved state: \(error)")
        return result
      }
    } else {
      replay = Replay(configuration: options.configuration, inputs: inputs)
    }
    var output: [UInt8] = []
    output.reserveCapacity(1 << 17)
    // A resumed replay goes on while its logs are checked against the checkpoint; it prints
    // nothing before they are found unchanged.
    var isChecked = checkpointing == nil
    // Whether a log's first line was found to be no JSON Lines at all, and said so.
    var isHinted = false
    do throws(ReplayStop) {
      while let outcome = replay.next(appendingTo: &output) {
        if !isChecked {
          isChecked = true
          do {
            try checkpointing?.finishChecking()
          } catch {
            result.failure = error
            return result
          }
        }
        switch outcome {
        case .record(let record):
          try sink.take(record, in: &output)
        case .skipped(let diagnostic):
          try sink.flush(&output)
          sink.skip(diagnostic)
          let error =
            documents[diagnostic.input]?.error(for: diagnostic)
            ?? .input(
              file: diagnostic.inputName, line: diagnostic.line, column: diagnostic.column,
              reason: diagnostic.reason)
          RaspDiagnostics.report(error, to: environment)
          if !isHinted, documents[diagnostic.input] == nil,
            let hint = OneEventPerLineHint.hint(
              for: diagnostic, file: options.files[diagnostic.input], command: options.commandName)
          {
            isHinted = true
            RaspDiagnostics.write(hint, to: environment)
          }
        case .ignored(let diagnostic):
          sink.ignore(diagnostic)
        case .notice(let notice):
          try sink.flush(&output)
          RaspDiagnostics.write("rasp: note: \(notice.message)\n", to: environment)
        case .waiting:
          try sink.flush(&output)
        case .checkpoint(let checkpoint):
          // What was printed before the checkpoint is delivered before it is saved: a replay
          // resumed from it prints what comes after.
          try sink.flush(&output)
          sink.keep(checkpoint)
          do {
            try checkpointing?.save(
              checkpoint, linesWritten: sink.linesWritten, environment: environment)
          } catch {
            result.failure = error
            try sink.finish(&output)
            return result
          }
        case .end(let summary):
          result.statistics = summary.statistics
          // A replay of one export that stopped early passed only the skipped actions before
          // its last line read.
          let stopped = summary.ending != .completed || summary.statistics.stoppingOption != nil
          let linesRead = summary.statistics.read
          if let first = summary.statistics.firstUnknown,
            let document = documents.values.first(where: { $0.name == first.inputName })
          {
            result.unknownTypePlace = document.place(ofLine: first.line)
          }
          result.unknownFieldPlaces = summary.statistics.unknownFields.map { field in
            documents.values.first { $0.name == field.inputName }?.place(ofLine: field.line)
          }
          for document in documents.values {
            let export = document.export
            result.statistics.addSkippedInExport(
              stopped && inputs.count == 1
                ? export.skippedCount(withinLines: linesRead) : export.skippedCount)
          }
          result.ending = summary.ending
          if case .readFailure(let input, let message) = summary.ending {
            try sink.flush(&output)
            result.failure = .failure("cannot read '\(options.files[input])': \(message)")
          }
        }
      }
      try sink.finish(&output)
      // A signal after the last line but before the run is over stops it all the same: what
      // was asked to stop must not, say, commit a golden file.
      if let signal = options.configuration.interruption?.signal, result.ending == .completed {
        result.ending = .interrupted(signal: signal)
      }
    } catch .brokenPipe {
      result.brokenPipe = true
    } catch .outputFailed(let message) {
      result.failure = .output(message)
    } catch {
      // The sink stopped the replay on purpose.
    }
    return result
  }

  /// The inputs of the options' files, opened, without the documents' places.
  static func openInputs(
    _ options: ReplayOptions, environment: RaspEnvironment
  ) throws(RaspCommandError) -> [ReplayInput] {
    var documents: [Int: ImportedDocument] = [:]
    return try openInputs(options, environment: environment, documents: &documents)
  }

  /// The inputs of the options' files, opened: all of them, before any is read, so that a
  /// missing second file is reported before anything is printed.
  ///
  /// An input of a format that reads a whole document (`--log-format devtools`) is read whole
  /// here and replaced by the lines it makes, in memory; `documents` keeps, by the input's
  /// index, where each line came from, for the messages about it.
  static func openInputs(
    _ options: ReplayOptions, environment: RaspEnvironment,
    documents: inout [Int: ImportedDocument]
  ) throws(RaspCommandError) -> [ReplayInput] {
    var inputs: [ReplayInput] = []
    let concatenates = options.configuration.concatenatesInputs
    for (index, (file, name)) in zip(options.files, options.displayNames).enumerated() {
      if options.configuration.format.document == .devtools {
        let document: ImportedDocument
        if let opened = documents[index] {
          document = opened
        } else {
          document = try ImportedDocument.open(file, name: name, environment: environment)
        }
        documents[index] = document
        inputs.append(document.input)
        continue
      }
      // The parts of one log before the last have ended: only the last can grow.
      let follows = options.follows && (!concatenates || index == options.files.count - 1)
      if file == "-" {
        inputs.append(ReplayInput(name: name, source: environment.standardInput))
      } else if follows {
        do {
          inputs.append(try ReplayInput.following(environment.resolve(file), name: name))
        } catch {
          throw .cannotOpen(file, reason: error.message)
        }
      } else {
        inputs.append(ReplayInput(name: name, source: try environment.openForReading(file)))
      }
    }
    return inputs
  }

  /// Reports how a replay ended — the error that stopped it, ignored types, the summary — and
  /// chooses the exit status.
  ///
  /// A replay that a signal stopped has the status of a command killed by it (130 for
  /// `SIGINT`), after its summary: the way `--follow` ends, and any replay cut short.
  static func finish(
    _ result: ReplayResult, options: ReplayOptions, environment: RaspEnvironment
  ) -> RaspExitCode {
    if result.brokenPipe { return .success }
    if let failure = result.failure { RaspDiagnostics.report(failure, to: environment) }
    let statistics = result.statistics
    // A format whose types are an app's own (Redux's, Segment's) needs the spec that defines
    // its domains: without one, every event is of unknown type.
    let needsSpec =
      options.specFiles.isEmpty && ["fsa", "segment"].contains(options.configuration.format.name)
    let hint =
      needsSpec
      ? "--spec FILE defines the domains these events belong to" : "use --strict to reject them"
    let warning = statistics.firstUnknown.flatMap { first in
      statistics.unknownTypeWarning(
        at: result.unknownTypePlace ?? "\(first.inputName):\(first.line)", hint: hint)
    }
    if let warning {
      RaspDiagnostics.warn(warning, to: environment)
    }
    for (index, field) in statistics.unknownFields.enumerated() {
      let documentPlace =
        index < result.unknownFieldPlaces.count
        ? result.unknownFieldPlaces[index] : nil
      let place = documentPlace ?? "\(field.inputName):\(field.line):\(field.column)"
      RaspDiagnostics.warn(statistics.unknownFieldWarning(field, at: place), to: environment)
    }
    if let warning = statistics.moreUnknownFieldsWarning {
      RaspDiagnostics.warn(warning, to: environment)
    }
    if let warning = missingKeyWarning(result.statistics, options: options) {
      RaspDiagnostics.warn(warning, to: environment)
    }
    if let warning = emptyRangeWarning(result.statistics, options: options) {
      RaspDiagnostics.warn(warning, to: environment)
    }
    if options.showsStats || options.errorMode == .skip {
      RaspDiagnostics.write(result.statistics.summary, to: environment)
    }
    // A signal decides the status over errors: the process dies of it, as a shell expects.
    if let signal = result.interruptingSignal { return .signal(signal) }
    if result.failure != nil || result.statistics.skipped > 0 { return .failure }
    return .success
  }

  /// The warning of a keyed replay in which no applied event had a value at the key's path
  /// (`--key-by sourc`): every event is under the key `null`, most likely a mistyped path. The
  /// nearest of the envelope's fields and the domains' payload fields is suggested.
  static func missingKeyWarning(
    _ statistics: ReplayStatistics, options: ReplayOptions
  ) -> String? {
    guard let path = options.configuration.keyPath, statistics.applied > 0,
      statistics.withoutKey == statistics.applied
    else { return nil }
    let text = path.description
    var warning =
      "rasp: warning: no event has a value at '--key-by \(text)': every event is under the "
      + "key 'null'"
    var candidates = ["source", "ts", "type", "payload"]
    for domain in options.configuration.domains {
      for event in domain.events {
        candidates += event.fields.map { "payload.\($0.name)" }
      }
    }
    var seen = Set<String>()
    candidates = candidates.filter { seen.insert($0).inserted && $0 != text }
    if let near = RaspSpelling.nearest(to: text, among: candidates) {
      warning += "; did you mean '\(near)'?"
    }
    return warning + "\n"
  }

  /// The warning of a range of times that selects nothing the log has: a `--since` after every
  /// event's time, which prints nothing, or an `--until` or `--at` before the first, which
  /// applies nothing; a `--since` and an `--until` with no event between them; or any time
  /// at all for a log whose events have none (each is before every time, so `--since` prints
  /// nothing, and `--until` and `--at` stop at no event). It says where the log's times start
  /// and end, as far as the replay read them, or that it has none.
  static func emptyRangeWarning(
    _ statistics: ReplayStatistics, options: ReplayOptions
  ) -> String? {
    let configuration = options.configuration
    let since = configuration.since.flatMap { position -> String? in
      guard case .time = position else { return nil }
      let text = options.text(of: .since)
      return text.isEmpty ? nil : text
    }
    guard let earliest = statistics.earliestTime, let latest = statistics.latestTime else {
      return untimedLogWarning(statistics, options: options, since: since)
    }
    if let since, statistics.applied > 0, statistics.beforeSince == statistics.applied {
      // Stopped by --until before any event at or after --since: there are later events,
      // past --until, and every event read before them is before --since.
      if statistics.stoppingOption == "--until", case let until = options.text(of: .until),
        !until.isEmpty
      {
        if case .time = configuration.until {
          return "rasp: warning: no event between '--since \(since)' and '--until \(until)'; "
            + "the log's times start at \(earliest), and the first after '--until' is at "
            + "\(latest)\n"
        }
        return "rasp: warning: no event at or after '--since \(since)' up to '--until "
          + "\(until)'; the log's times up to there run from \(earliest) to \(latest)\n"
      }
      return "rasp: warning: no event at or after '--since \(since)'; the log's times run from "
        + "\(earliest) to \(latest)\n"
    }
    for option in [RaspOptionName.until, .at] {
      let position = option == .at ? configuration.at : configuration.until
      guard case .time = position, statistics.applied == 0,
        case let text = options.text(of: option), !text.isEmpty
      else { continue }
      return "rasp: warning: no event at or before '--\(option.rawValue) \(text)'; the log's "
        + "times start at \(earliest)\n"
    }
    return nil
  }

  /// The warning of a time given to `--since`, `--until` or `--at` for a log none of whose
  /// events has a time: what the option did instead, and the positions that need no time.
  private static func untimedLogWarning(
    _ statistics: ReplayStatistics, options: ReplayOptions, since: String?
  ) -> String? {
    guard statistics.applied > 0 else { return nil }
    let configuration = options.configuration
    let instead = "; give it a position by line instead (file:line, line:N or #N)\n"
    if let since {
      return "rasp: warning: no event has a time, so each is before '--since \(since)' and "
        + "none at or after it" + instead
    }
    for option in [RaspOptionName.until, .at] {
      let position = option == .at ? configuration.at : configuration.until
      guard case .time = position, case let text = options.text(of: option), !text.isEmpty
      else { continue }
      let result =
        option == .at ? "the state is the one after the last event" : "the whole log was replayed"
      return "rasp: warning: no event has a time, so none is after '--\(option.rawValue) "
        + "\(text)' and \(result)" + instead
    }
    return nil
  }
}
