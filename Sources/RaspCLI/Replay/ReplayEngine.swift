import Rasp
import RaspDomains
import RaspJSON

/// Where the records of a replay go: standard output for `replay`, a comparison for `check`.
///
/// The engine appends each record — one snapshot, or one selected value, as compact JSON — to a
/// writer, then calls ``endRecord(_:start:meta:)``; the sink takes the bytes from `start` on.
protocol ReplaySink {
  /// Takes the record the engine just appended to `writer` at `start...`.
  mutating func endRecord(_ writer: inout JSONWriter, start: Int, meta: ReplayRecordMeta) throws(ReplayStop)
  /// Writes out what it holds, before a message about a bad line goes to standard error.
  mutating func flush(_ writer: inout JSONWriter) throws(ReplayStop)
  /// Takes whatever is left when the replay ends, normally or at a bad line.
  mutating func finish(_ writer: inout JSONWriter) throws(ReplayStop)
}

/// Where a record came from: its snapshot's number and the event's file and line.
struct ReplayRecordMeta {
  /// The snapshot's number: how many events had been applied (0 for the initial state).
  let seq: Int
  /// The position of the event's file in the command line, or `nil` for the initial state.
  let fileIndex: Int?
  /// The event's line, or `nil` for the initial state.
  let line: Int?
}

/// Why a replay stopped before the end of its input.
enum ReplayStop: Error {
  /// The reader of the output went away: stop quietly.
  case brokenPipe
  /// The output could not be written.
  case outputFailed(String)
  /// The sink has seen enough (a comparison that already failed with a limit).
  case sinkFinished
}

/// How a replay ended.
struct ReplayOutcome {
  /// The counts of lines.
  var stats = ReplayStats()
  /// The error that stopped the replay, if one did.
  var failure: RaspCommandError?
  /// Whether the reader of the output went away.
  var brokenPipe = false
}

/// Reads logs, merges them by time, applies each event to a ``RaspSnapshotState`` through the
/// core's ``Rasp/RaspPipeline``, and hands each snapshot (or selected value) to a sink.
///
/// This is the hot path of `rasp`: per event it reads a line from a large buffer, validates it
/// in one pass, decodes the payload straight into a typed event, applies it in place, and writes
/// the snapshot by copying the cached JSON of every domain that did not change.
struct ReplayEngine {
  let options: ReplayOptions
  let environment: RaspEnvironment
  /// The names of the files for messages and `--with-event`: `<stdin>` for `-`.
  let displayNames: [String]

  init(options: ReplayOptions, environment: RaspEnvironment) {
    self.options = options
    self.environment = environment
    self.displayNames = options.files.map { $0 == "-" ? "<stdin>" : $0 }
  }

  /// Replays every log into `sink`, reporting bad lines on standard error.
  func run<Sink: ReplaySink>(into sink: inout Sink) -> ReplayOutcome {
    var outcome = ReplayOutcome()
    var sources: [ReplayFileLines] = []
    for (index, file) in options.files.enumerated() {
      do {
        let source = file == "-" ? environment.standardInput : try environment.openForReading(file)
        sources.append(ReplayFileLines(fileIndex: index, source: source, tracksTime: options.files.count > 1))
      } catch {
        outcome.failure = error
        return outcome
      }
    }
    var state = LoopState(options: options)
    var writer = JSONWriter(capacity: 1 << 17)
    do throws(ReplayStop) {
      if sources.count == 1, options.threading != .single {
        // One log: no merge to do. Read it on a second thread, a batch ahead. That thread also
        // decodes payloads whenever this one, which applies events and prints, is behind.
        let decodesAhead = options.threading != .readAhead
        let lines = ReplayReadAhead(
          fileIndex: 0, source: sources[0].source,
          decoding: decodesAhead ? (state.router, state.pipeline.current.makeDecoder()) : nil,
          sharesDecoding: options.threading == .automatic)
        reading: while let batch = lines.nextBatch() {
          // The batch keeps its columns alive while its items are handled.
          let columns = batch.columns.map(Unmanaged.passUnretained)
          let problems = batch.problems
          let goesOn = try batch.items.withUnsafeBufferPointer { (items) throws(ReplayStop) -> Bool in
            for index in items.indices {
              guard
                try handle(
                  items[index], columns: columns, problems: problems, state: &state, writer: &writer,
                  sink: &sink, outcome: &outcome)
              else { return false }
            }
            return true
          }
          if !goesOn { break reading }
        }
      } else {
        var merged = mergeSorted(sources, sortedBy: ReplayLine.precedes).makeIterator()
        while let line = merged.next() {
          guard
            try handle(
              line.item, columns: [], problems: line.problem.map { [$0] } ?? [], state: &state, writer: &writer,
              sink: &sink, outcome: &outcome)
          else { break }
        }
      }
      if outcome.failure == nil, options.isFinal {
        let start = writer.bytes.count
        let meta = try writeRecord(state: &state, writer: &writer, fileIndex: state.lastFile, line: state.lastLine)
        try sink.endRecord(&writer, start: start, meta: meta)
      }
      try sink.finish(&writer)
    } catch .brokenPipe {
      outcome.brokenPipe = true
    } catch .outputFailed(let message) {
      outcome.failure = .output(message)
    } catch {
      // The sink stopped the replay on purpose.
    }
    return outcome
  }

  /// Everything the loop updates per event.
  struct LoopState {
    var pipeline: RaspPipeline<RaspSnapshotState>
    let router: RaspSnapshotState.Router
    let excludedRouter: RaspSnapshotState.Router
    var selector: RaspSelector<RaspSnapshotState, [UInt8]>?
    let selectedDomain: Int?
    var seq = 0
    var lastFile: Int?
    var lastLine: Int?
    var lastEvent: JSONValue = .null
    /// The current snapshot's JSON, kept once a snapshot has been written.
    var text: ReplaySnapshotText?

    /// Appends the current snapshot's JSON to `writer`.
    mutating func writeSnapshot(to writer: inout JSONWriter) {
      let current = pipeline.current
      if text == nil { text = ReplaySnapshotText(current) }
      text?.write(current, to: &writer)
    }

    init(options: ReplayOptions) {
      let snapshot = RaspSnapshotState(domains: options.domains)
      pipeline = RaspPipeline(initial: snapshot)
      router = snapshot.router
      excludedRouter = RaspSnapshotState(domains: options.excludedDomains).router
      if let path = options.select {
        let domain = path.firstKey.flatMap { snapshot.domainIndex(named: $0) }
        selectedDomain = domain
        selector = RaspSelector { state in ReplayEngine.selectedBytes(path, domain: domain, in: state) }
      } else {
        selectedDomain = nil
      }
    }
  }

  /// Handles one line; returns `false` when the replay must stop.
  @inline(__always)
  private func handle<Sink: ReplaySink>(
    _ item: ReplayItem, columns: [Unmanaged<AnyRaspDecodedEvents>], problems: [ReplayProblem], state: inout LoopState,
    writer: inout JSONWriter, sink: inout Sink, outcome: inout ReplayOutcome
  ) throws(ReplayStop) -> Bool {
    outcome.stats.read += 1
    return try handleRead(
      item, columns: columns, problems: problems, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
  }

  /// Handles a line whose event's assumed payload end was not confirmed, read again without
  /// assuming: the event, or the line's error, is then exactly what reading it carefully gives.
  @inline(never)
  private func handleWithoutAssuming<Sink: ReplaySink>(
    _ item: ReplayItem, state: inout LoopState, writer: inout JSONWriter, sink: inout Sink,
    outcome: inout ReplayOutcome
  ) throws(ReplayStop) -> Bool {
    var problems: [ReplayProblem] = []
    let again = item.readWithoutAssuming(problems: &problems)
    return try handleRead(
      again, columns: [], problems: problems, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
  }

  /// Handles a line already counted as read.
  @inline(__always)
  private func handleRead<Sink: ReplaySink>(
    _ item: ReplayItem, columns: [Unmanaged<AnyRaspDecodedEvents>], problems: [ReplayProblem], state: inout LoopState,
    writer: inout JSONWriter, sink: inout Sink, outcome: inout ReplayOutcome
  ) throws(ReplayStop) -> Bool {
    switch item.kind {
    case .blank:
      outcome.stats.blank += 1
      return true
    case .problem(let index):
      switch problems[index] {
      case .readFailure(let message):
        outcome.stats.read -= 1
        try sink.flush(&writer)
        outcome.failure = .failure("cannot read '\(options.files[item.fileIndex])': \(message)")
        return false
      case .invalid(let error):
        return try reject(error, item: item, writer: &writer, sink: &sink, outcome: &outcome)
      }
    case .decoded(let log, let domainIndex, let eventIndex, let row):
      let routed = RaspSnapshotState.Event(
        log: log, domainIndex: domainIndex, eventIndex: eventIndex, column: columns[domainIndex], row: row)
      return try apply(routed, item: item, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
    case .event(let log):
      guard let routed = state.router.route(log) else {
        do {
          try log.checkPayload()
        } catch {
          if log.isPayloadEndAssumed {
            return try handleWithoutAssuming(item, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
          }
          return try reject(error, item: item, writer: &writer, sink: &sink, outcome: &outcome)
        }
        if state.excludedRouter.route(log) != nil {
          outcome.stats.otherDomain += 1
        } else if options.isStrict {
          let error = RaspEventError(offset: log.typeOffset, reason: .unknownType(log.type))
          return try reject(error, item: item, writer: &writer, sink: &sink, outcome: &outcome)
        } else {
          outcome.stats.unknownType += 1
          if outcome.stats.firstUnknown == nil {
            outcome.stats.firstUnknown = (log.type, displayNames[item.fileIndex], item.lineNumber)
          }
        }
        return true
      }
      // An event whose payload's end was assumed is confirmed by its payload reader, which
      // throws before the state changes when it is wrong: `apply` then reads the line again.
      return try apply(routed, item: item, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
    }
  }

  /// Applies a routed event and writes what it calls for; returns whether to go on.
  @inline(__always)
  private func apply<Sink: ReplaySink>(
    _ routed: RaspSnapshotState.Event, item: ReplayItem, state: inout LoopState,
    writer: inout JSONWriter, sink: inout Sink, outcome: inout ReplayOutcome
  ) throws(ReplayStop) -> Bool {
    do {
      try state.pipeline.send(routed)
      state.text?.markChanged(routed.domainIndex)
    } catch {
      // The snapshot is unchanged. Whatever went wrong, a line read with its payload's end
      // assumed is read again without: the event, or the error, is then the careful reading's.
      if routed.log.isPayloadEndAssumed {
        return try handleWithoutAssuming(item, state: &state, writer: &writer, sink: &sink, outcome: &outcome)
      }
      let eventError = error as? RaspEventError ?? RaspEventError(offset: nil, reason: .rejected("\(error)"))
      return try reject(eventError, item: item, writer: &writer, sink: &sink, outcome: &outcome)
    }
    outcome.stats.applied += 1
    state.seq += 1
    state.lastFile = item.fileIndex
    state.lastLine = item.lineNumber
    if options.withEvent, options.isFinal || options.select != nil {
      state.lastEvent = (try? JSONParser.parse(item.bytes)) ?? .null
    }
    if options.isFinal { return true }
    if state.selector != nil {
      guard state.selector?.last == nil || routed.domainIndex == state.selectedDomain
        || state.selectedDomain == nil,
        let value = state.selector?.select(from: state.pipeline.current)
      else { return true }
      let start = writer.bytes.count
      try writeWrapped(value: value, state: &state, writer: &writer, item: item, event: state.lastEvent)
      try sink.endRecord(&writer, start: start, meta: ReplayRecordMeta(seq: state.seq, fileIndex: item.fileIndex, line: item.lineNumber))
      return true
    }
    let start = writer.bytes.count
    if options.withEvent {
      let event = (try? JSONParser.parse(item.bytes)) ?? .null
      writeWrapperPrefix(event: event, fileIndex: item.fileIndex, line: item.lineNumber, seq: state.seq, key: "state", writer: &writer)
      state.writeSnapshot(to: &writer)
      writer.writeRaw("}")
    } else {
      state.writeSnapshot(to: &writer)
    }
    try sink.endRecord(&writer, start: start, meta: ReplayRecordMeta(seq: state.seq, fileIndex: item.fileIndex, line: item.lineNumber))
    return true
  }

  /// Reports a bad line; returns whether to go on.
  private func reject<Sink: ReplaySink>(
    _ error: RaspEventError, item: ReplayItem, writer: inout JSONWriter, sink: inout Sink,
    outcome: inout ReplayOutcome
  ) throws(ReplayStop) -> Bool {
    let message = RaspCommandError.input(
      file: displayNames[item.fileIndex], line: item.lineNumber,
      column: ReplayEngine.column(of: error.offset ?? 0, in: item.bytes), reason: error.description)
    // The bad line is not applied in either mode: it counts as skipped, so that the summary
    // still adds up when `--on-error fail` stops the replay there.
    outcome.stats.skipped += 1
    guard options.errorMode == .skip else {
      outcome.failure = message
      return false
    }
    try sink.flush(&writer)
    RaspDiagnostics.report(message, to: environment)
    return true
  }

  /// Writes the record for `--final`: the last snapshot or selected value.
  private func writeRecord(
    state: inout LoopState, writer: inout JSONWriter, fileIndex: Int?, line: Int?
  ) throws(ReplayStop) -> ReplayRecordMeta {
    let meta = ReplayRecordMeta(seq: state.seq, fileIndex: fileIndex, line: line)
    if let path = options.select {
      let value = ReplayEngine.selectedBytes(path, domain: state.selectedDomain, in: state.pipeline.current)
      try writeWrapped(value: value, state: &state, writer: &writer, fileIndex: fileIndex, line: line, event: state.lastEvent)
    } else if options.withEvent {
      writeWrapperPrefix(event: state.lastEvent, fileIndex: fileIndex, line: line, seq: state.seq, key: "state", writer: &writer)
      state.writeSnapshot(to: &writer)
      writer.writeRaw("}")
    } else {
      state.writeSnapshot(to: &writer)
    }
    return meta
  }

  private func writeWrapped(
    value: [UInt8], state: inout LoopState, writer: inout JSONWriter, item: ReplayItem, event: JSONValue
  ) throws(ReplayStop) {
    try writeWrapped(value: value, state: &state, writer: &writer, fileIndex: item.fileIndex, line: item.lineNumber, event: event)
  }

  private func writeWrapped(
    value: [UInt8], state: inout LoopState, writer: inout JSONWriter, fileIndex: Int?, line: Int?,
    event: JSONValue
  ) throws(ReplayStop) {
    guard options.withEvent else {
      writer.writeRaw(value)
      return
    }
    writeWrapperPrefix(event: event, fileIndex: fileIndex, line: line, seq: state.seq, key: "value", writer: &writer)
    writer.writeRaw(value)
    writer.writeRaw("}")
  }

  /// Writes `{"event":…,"file":…,"line":…,"seq":…,"<key>":` — keys in canonical order.
  private func writeWrapperPrefix(
    event: JSONValue, fileIndex: Int?, line: Int?, seq: Int, key: StaticString, writer: inout JSONWriter
  ) {
    writer.writeRaw("{\"event\":")
    writer.write(event)
    writer.writeRaw(",\"file\":")
    if let fileIndex { writer.writeString(displayNames[fileIndex]) } else { writer.writeNull() }
    writer.writeRaw(",\"line\":")
    if let line { writer.writeInteger(Int64(line)) } else { writer.writeNull() }
    writer.writeRaw(",\"seq\":")
    writer.writeInteger(Int64(seq))
    writer.writeRaw(",\"")
    writer.writeRaw(key)
    writer.writeRaw("\":")
  }

  /// The canonical JSON of what `path` selects in the snapshot: a value, a length, or `null`.
  static func selectedBytes(_ path: JSONPath, domain: Int?, in state: RaspSnapshotState) -> [UInt8] {
    let text = domain.map { state.encodedState(ofDomainAt: $0) } ?? state.json()
    let location = text.withUnsafeBufferPointer { buffer in
      try? path.locate(in: buffer, droppingFirst: domain == nil ? 0 : 1)
    }
    switch location {
    case .value(let range)?: return Array(text[range])
    case .length(let count)?: return Array(String(count).utf8)
    case .missing?, nil: return Array("null".utf8)
    }
  }

  /// The 1-based column of a byte offset in a line, counting Unicode scalars.
  static func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    var column = 1
    for index in 0..<min(offset, line.count) where line[index] & 0xC0 != 0x80 { column += 1 }
    return column
  }
}
