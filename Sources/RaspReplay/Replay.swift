import RaspDomains
import RaspJSON

/// A replay of event logs into state snapshots: the kernel every `rasp` command runs on.
///
/// A replay reads its inputs line by line, checks each line's envelope, routes the event to
/// its domain, decodes the payload into the domain's typed event, applies it with the domain's
/// reducer, and writes the record the configuration asks for — and yields, in order, what
/// happened: ``ReplayOutcome/record(_:)`` for each record written, ``ReplayOutcome/skipped(_:)``
/// for each bad line, and finally ``ReplayOutcome/end(_:)`` with the count of every line read.
/// Several inputs are merged by their events' `ts`, stably.
///
/// Records are written straight into the caller's buffer, so that a caller that prints them
/// copies nothing: call ``next(appendingTo:)`` with the same buffer, and write it out (or
/// empty it) whenever you like — before a diagnostic, at ``ReplayOutcome/waiting``, when it is
/// large.
///
/// ```swift
/// var configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
/// configuration.selection = try JSONPath("geo.heading")
/// let log = ReplayInput(name: "events.jsonl", source: .memory(JSONMemorySource(bytes)))
/// var replay = Replay(configuration: configuration, inputs: [log])
/// var output: [UInt8] = []
/// while let outcome = replay.next(appendingTo: &output) {
///   if case .record(let record) = outcome {
///     print(String(decoding: output[record.range], as: UTF8.self))   // 90, then 91, …
///   }
/// }
/// ```
///
/// A replay of one file reads it a batch of lines ahead, on a second thread, which also
/// decodes a share of the payloads; what it yields is the same byte for byte whatever the
/// threads do. A replay owns its threads: it is not copyable, and letting go of it stops its
/// reading thread and waits for it; a file is closed when the last ``ReplayInput`` holding it
/// is let go. An input is read by one replay: give each replay inputs of its own.
public struct Replay: ~Copyable {
  /// Where the items come from.
  private enum Feed {
    /// One input, read on this thread.
    case inline(LineBatcher)
    /// One input, read a batch ahead on a second thread.
    case readAhead(ReadAhead<ReplayBatch>)
    /// Several inputs, merged by time on this thread.
    case merge(InputMerge)
    /// Nothing more: the end was reached, and the inputs let go.
    case ended
  }

  private var kernel: ReplayKernel
  /// The kernels that apply a keyed replay's events on several threads (``ReplayConfiguration/
  /// jobs``), which then handle every item instead of ``kernel``.
  private let pool: KernelPool?
  private var feed: Feed
  /// Whether the one input is live: a replay of files never yields ``ReplayOutcome/waiting``.
  private let isLive: Bool
  /// The batch being handled, its items and decoded columns, and the next item's position.
  private var batch: ReplayBatch?
  /// The same batch, not retained (``batch`` keeps it): handing it to the kernel per item
  /// then costs no reference counting.
  private var unretainedBatch: Unmanaged<ReplayBatch>?
  private var items = UnsafeBufferPointer<ReplayItem>(start: nil, count: 0)
  private var columns: [Unmanaged<AnyRaspDecodedEvents>] = []
  private var index = 0
  /// Whether ``ReplayOutcome/waiting`` was yielded since the last item: the next fetch waits.
  private var hasYieldedWaiting = false
  /// The writer records are written with, which holds the caller's buffer during a call.
  private var writer = JSONWriter(capacity: 0)
  /// The request to stop, asked before each line: lines already read ahead are not handled
  /// after it.
  private let interruption: ReplayInterruption?
  /// The same request, not retained (``interruption`` keeps it): asked before every line, it
  /// then costs one load, not two atomic operations of reference counting.
  private let unretainedInterruption: Unmanaged<ReplayInterruption>?
  /// Where the replay is, when it yields checkpoints.
  private var positions: CheckpointPositions
  /// Whether it yields checkpoints: asked for every line.
  private let tracksPositions: Bool
  /// The last item of the current batch the kernel handled, in a replay of one input that
  /// yields checkpoints: its line and time are noted in ``positions`` only when they are
  /// needed — a checkpoint is due, or the batch is let go (``settlePosition()``) — not for
  /// every line.
  private var lastHandled: UnsafePointer<ReplayItem>?
  /// Whether the items come one at a time from a merge, which cannot tell whether an event of
  /// a batch line is its line's last.
  private let isMerged: Bool

  /// Starts a replay; nothing is read until ``next(appendingTo:)``.
  ///
  /// ```swift
  /// var replay = Replay(configuration: configuration, inputs: [log])
  /// ```
  ///
  /// - Parameters:
  ///   - configuration: The domains and what to yield.
  ///   - inputs: The logs, merged by time when there are several.
  public init(configuration: ReplayConfiguration, inputs: [ReplayInput]) {
    self.init(configuration: configuration, inputs: inputs, resumingFrom: nil)
  }

  /// Starts a replay from a checkpoint: with its state, its count of events and records, and
  /// inputs that start after the lines it handled; nothing is read until
  /// ``next(appendingTo:)``.
  ///
  /// Each input must start at its offset in ``ReplayCheckpoint/offsets``, the byte after the
  /// checkpoint's last line of it (the caller checks that the bytes before are those the
  /// checkpoint read): its lines are numbered, and their offsets counted, on from there. A
  /// replay resumed applies its events on one thread, whatever ``ReplayConfiguration/jobs``
  /// says.
  ///
  /// ```swift
  /// var replay = try Replay(configuration: configuration, inputs: [rest], resumingFrom: saved)
  /// ```
  ///
  /// - Parameters:
  ///   - configuration: The domains and what to yield: those of the replay that made the
  ///     checkpoint.
  ///   - inputs: The rest of each log.
  ///   - checkpoint: Where to go on from.
  /// - Throws: ``ReplayCheckpointError`` when the checkpoint's state is not one of these
  ///   domains, its inputs are not as many, or an offset is not known (-1).
  public init(
    configuration: ReplayConfiguration, inputs: [ReplayInput],
    resumingFrom checkpoint: ReplayCheckpoint
  ) throws(ReplayCheckpointError) {
    guard checkpoint.lines.count == inputs.count else {
      throw ReplayCheckpointError(
        path: "inputs",
        reason: "the checkpoint is of \(checkpoint.lines.count) logs, not \(inputs.count)")
    }
    guard checkpoint.offsets.count == inputs.count, checkpoint.offsets.allSatisfy({ $0 >= 0 })
    else {
      throw ReplayCheckpointError(
        path: "offsets",
        reason: "expected the offset of each log's next line, found \(checkpoint.offsets)")
    }
    // The state is read into a kernel of its own first, so that a bad one is refused before
    // the replay starts reading.
    let adjusted = Self.adjusted(configuration, resuming: true)
    // One table for the kernel and the readers: the types the readers number are the ones
    // the kernel's router names.
    let types = Self.types(of: adjusted)
    var kernel = ReplayKernel(
      configuration: adjusted, inputNames: inputs.map(\.name), types: types)
    try kernel.restore(
      from: checkpoint.state, events: checkpoint.events, records: checkpoint.records,
      isBeforeSince: Self.isBefore(adjusted.since, checkpoint))
    self.init(
      configuration: configuration, inputs: inputs, resumingFrom: (checkpoint, kernel, types))
  }

  /// The configuration as the replay applies it: `--at` is `--final` at a position; a range
  /// is applied on one thread, where the events' numbers and the place to stop are known as
  /// each event is applied, and so is a replay with checkpoints, which hold each stream's
  /// state as one thread has it.
  private static func adjusted(_ configuration: ReplayConfiguration, resuming: Bool)
    -> ReplayConfiguration
  {
    var configuration = configuration
    if configuration.at != nil { configuration.isFinal = true }
    let hasRange =
      configuration.since != nil || configuration.until != nil || configuration.at != nil
    let checkpoints = configuration.checkpointInterval != nil || configuration.checkpointsAtEnd
    if hasRange || checkpoints || resuming { configuration.jobs = 1 }
    return configuration
  }

  /// Whether `position` is after the events of `checkpoint`: the replay that made it had not
  /// reached it.
  private static func isBefore(_ position: ReplayPosition?, _ checkpoint: ReplayCheckpoint)
    -> Bool
  {
    switch position {
    case nil: return false
    case .event(let number)?: return checkpoint.events < number
    case .line(let input, let line)?:
      return input < checkpoint.lines.count && checkpoint.lines[input] < line
    case .time(let time)?: return !checkpoint.times.contains { $0.map { $0 >= time } ?? false }
    }
  }

  /// The table of the configuration's log format, or `nil` for rasp's own.
  private static func types(of configuration: ReplayConfiguration) -> TypeTable? {
    configuration.format.isRasp
      ? nil
      : TypeTable(
        format: configuration.format,
        listenedTypes: configuration.domains.flatMap { $0.events.flatMap(\.listensTo) })
  }

  private init(
    configuration: ReplayConfiguration, inputs: [ReplayInput],
    resumingFrom resumption: (
      checkpoint: ReplayCheckpoint, kernel: ReplayKernel, types: TypeTable?
    )?
  ) {
    let configuration = Self.adjusted(configuration, resuming: resumption != nil)
    let linesBefore = resumption?.checkpoint.lines
    let timesBefore = resumption?.checkpoint.times
    let offsetsBefore = resumption?.checkpoint.offsets
    let tracksPositions =
      configuration.checkpointInterval != nil || configuration.checkpointsAtEnd
    self.tracksPositions = tracksPositions
    // A replay that saves checkpoints hashes each input as it reads it from its first byte; a
    // replay resumed does not know the hash of the bytes before its offsets.
    let hashesBefore = inputs.indices.map { index -> SegmentedLogHash? in
      tracksPositions && (offsetsBefore?[index] ?? 0) == 0 ? SegmentedLogHash() : nil
    }
    positions = CheckpointPositions(
      lines: linesBefore ?? Array(repeating: 0, count: inputs.count),
      offsets: offsetsBefore ?? Array(repeating: 0, count: inputs.count),
      readHashes: hashesBefore,
      times: resumption?.checkpoint.times ?? Array(repeating: nil, count: inputs.count),
      interval: configuration.checkpointInterval, events: resumption?.checkpoint.events ?? 0)
    let isMerged = inputs.count > 1
    self.isMerged = isMerged
    // A checkpoint keeps each input's time, for a replay resumed with a range by time; that of
    // one input is read from its last line with a `ts` when a checkpoint is made, that of
    // several from the merge's items.
    let tracksTime =
      tracksPositions && isMerged
      || [configuration.since, configuration.until, configuration.at].contains {
        if case .time? = $0 { return true }
        return false
      }
    let types = resumption.map(\.types) ?? Self.types(of: configuration)
    let kernel =
      resumption?.kernel
      ?? ReplayKernel(configuration: configuration, inputNames: inputs.map(\.name), types: types)
    self.kernel = kernel
    if configuration.keyPath != nil, configuration.jobs > 1, configuration.stateObserver == nil {
      let count = configuration.jobs
      pool = KernelPool(
        kernels: (0..<count).map {
          ReplayKernel(
            configuration: configuration, inputNames: inputs.map(\.name), types: types,
            part: KernelPart(index: $0, count: count))
        })
    } else {
      pool = nil
    }
    // With a pool, the reading threads tell each event's kernel.
    let partition =
      pool == nil
      ? nil
      : configuration.keyPath.map {
        KeyPartition(keys: ReplayKeys(path: $0), router: kernel.router, count: configuration.jobs)
      }
    // The reading thread reads each event's key ahead of the kernels.
    let keyHints = configuration.keyPath.map {
      KeyHints(keys: ReplayKeys(path: $0), router: kernel.router)
    }
    self.isLive = inputs.contains { $0.isLive }
    let interruption = configuration.interruption
    let progress = configuration.progress
    self.interruption = interruption
    self.unretainedInterruption = interruption.map(Unmanaged.passUnretained)
    if inputs.count == 1, configuration.threading != .single {
      // Kernels on several threads decode their own events: the reading thread would take
      // on as much of their decoding as it could, and leave them one core to share.
      let decodesAhead = configuration.threading != .readAhead && pool == nil
      let decoding =
        decodesAhead
        ? (kernel.router, kernel.pipeline.current.makeDecoder(), kernel.demand) : nil
      let shares = configuration.threading == .automatic
      let input = inputs[0]
      feed = .readAhead(
        ReadAhead(capacity: 4) { producer in
          let unhashed = InputReading(input, progress: progress) {
            producer.isCancelled || interruption?.isRequested == true
          }
          let reading = hashesBefore[0].map { unhashed.hashing(from: $0) } ?? unhashed
          let batcher = LineBatcher(
            input: 0, reading: reading, tracksTime: tracksTime, types: types,
            decoding: decoding,
            sharesDecoding: shares, partition: partition, keyHints: keyHints,
            linesBefore: linesBefore?[0] ?? 0,
            timeBefore: timesBefore?[0] ?? nil, offsetBefore: offsetsBefore?[0] ?? 0)
          while case .batch(let batch) = batcher.nextBatch(mayWait: true) {
            guard producer.put(batch) else { return }
            batcher.adjustShare(
              pendingBatches: producer.pendingCount, replayWaited: producer.takeConsumerWaited())
          }
        })
    } else {
      let batchers = inputs.enumerated().map { index, input in
        let reading = InputReading(input, progress: progress) {
          interruption?.isRequested == true
        }
        return LineBatcher(
          input: index,
          reading: hashesBefore[index].map { reading.hashing(from: $0) } ?? reading,
          tracksTime: inputs.count > 1 && !configuration.concatenatesInputs || tracksTime,
          types: types,
          partition: partition, linesBefore: linesBefore?[index] ?? 0,
          timeBefore: timesBefore?[index] ?? nil, offsetBefore: offsetsBefore?[index] ?? 0)
      }
      feed =
        batchers.count == 1
        ? .inline(batchers[0])
        : .merge(
          InputMerge(batchers: batchers, concatenates: configuration.concatenatesInputs))
    }
  }

  /// Replays up to the next outcome, appending any record to `output`.
  ///
  /// A call returns as soon as it has something to yield: after each record, each bad line,
  /// each notice; before waiting for a live input (``ReplayOutcome/waiting``); and at the end.
  /// Between records, the caller may write out `output` and empty it.
  ///
  /// ```swift
  /// while let outcome = replay.next(appendingTo: &output) {
  ///   if case .record = outcome { output.append(0x0A) }
  /// }
  /// ```
  ///
  /// - Parameter output: Where records are appended; its earlier bytes are left alone.
  /// - Returns: The next outcome, or `nil` after ``ReplayOutcome/end(_:)``.
  public mutating func next(appendingTo output: inout [UInt8]) -> ReplayOutcome? {
    if case .ended = feed { return nil }
    swap(&output, &writer.bytes)
    defer { swap(&output, &writer.bytes) }
    // The key stage's kind, chosen once for the outcome (``StreamStage``).
    return kernel.isKeyed
      ? nextOutcome(streams: KeyedStreams.self) : nextOutcome(streams: SingleStream.self)
  }

  /// The checkpoint of where the replay is now.
  private mutating func makeCheckpoint() -> ReplayCheckpoint {
    kernel.settleLastEvent()
    settlePosition()
    var checkpoint = ReplayCheckpoint(
      lines: positions.lines, offsets: positions.offsets, times: positions.times,
      events: kernel.seq, records: kernel.records, state: kernel.checkpointState())
    checkpoint.readHashes = positions.readHashes
    return checkpoint
  }

  /// Notes an item the kernel handled, for checkpoints: in a merge, its line and time; of one
  /// input, only which it is, until a checkpoint is due.
  @inline(__always)
  private mutating func noteHandled(
    _ item: UnsafePointer<ReplayItem>, next: UnsafePointer<ReplayItem>?
  ) {
    guard !item.pointee.isNotice, !kernel.isItemLeftUnread else { return }
    lastHandled = item
    if isMerged || kernel.seq >= positions.nextDue { notePosition(of: item, next: next) }
  }

  /// Notes the line of an item the kernel handled, and whether a checkpoint is due after it.
  @inline(never)
  private mutating func notePosition(
    of item: UnsafePointer<ReplayItem>, next: UnsafePointer<ReplayItem>?
  ) {
    // A checkpoint comes between lines: not after an event of a batch line that has more, nor
    // after a line found too long, whose end is not known yet.
    let atLineEnd =
      (item.pointee.membership == .ownLine
        || (!isMerged && next.map { $0.pointee.membership != .laterInLine } ?? true))
      && item.pointee.lineEnd >= 0
    let time = isMerged ? item.pointee.time : time(upTo: item)
    positions.note(
      line: item.pointee.lineNumber, offset: item.pointee.lineEnd, time: time,
      of: item.pointee.input, events: kernel.seq, atLineEnd: atLineEnd)
  }

  /// Notes the line and time of the last item handled of one input's current batch, before the
  /// batch is let go or a checkpoint is made.
  private mutating func settlePosition() {
    guard let item = lastHandled else { return }
    lastHandled = nil
    guard !isMerged else { return }
    positions.lines[0] = item.pointee.lineNumber
    positions.offsets[0] = item.pointee.lineEnd
    positions.times[0] = time(upTo: item)
  }

  /// The time of one input up to `item` of the current batch, as a merge would order it: the
  /// `ts` of the last event with one, at or before `item`; else that noted before the batch.
  private func time(upTo item: UnsafePointer<ReplayItem>) -> RaspTimestamp? {
    guard let first = items.baseAddress else { return positions.times[0] }
    var current = item
    while true {
      if let time = current.pointee.ownTime { return time }
      guard current > first else { return positions.times[0] }
      current -= 1
    }
  }

  /// Replays up to the next outcome; ``next(appendingTo:)`` with the output in ``writer``.
  private mutating func nextOutcome<Streams: StreamStage>(
    streams: Streams.Type
  ) -> ReplayOutcome? {
    while true {
      if tracksPositions, positions.isDue {
        positions.isDue = false
        return .checkpoint(makeCheckpoint())
      }
      if let pool, let outcome = pool.nextPending(writer: &writer) { return outcome }
      guard ending == nil else { break }
      if let outcome = handleItems(streams: streams) { return outcome }
      if tracksPositions, positions.isDue { continue }
      guard ending == nil else { continue }
      switch fetch() {
      case .some(true):
        continue
      case .some(false):
        hasYieldedWaiting = true
        return .waiting
      case nil:
        if let pool {
          pool.end(interruption: kernel.configuration.interruption)
        } else {
          kernel.end(interruption: kernel.configuration.interruption)
        }
      }
    }
    return end()
  }

  /// How the replay ends, once it must.
  private var ending: ReplaySummary.Ending? { pool?.ending ?? kernel.ending }

  /// Handles the current batch's items until one yields an outcome, or the batch is done.
  @inline(__always)
  private mutating func handleItems<Streams: StreamStage>(streams: Streams.Type) -> ReplayOutcome? {
    guard let batch = unretainedBatch, let first = items.baseAddress else { return nil }
    if let pool {
      guard index < items.count else { return nil }
      handOn(items[index...].indices.map { first + $0 }, of: batch, to: pool)
      index = items.count
      // Yielded now, before the next fetch, which may wait for a live input: what a list
      // calls for is written out before the replay waits for more.
      return pool.nextPending(writer: &writer)
    }
    while index < items.count {
      let item = first + index
      if Streams.looksAhead { kernel.lookAhead(from: index, in: items, of: batch) }
      index += 1
      // After a request to stop, the lines already read are left; the inputs' notices (a line
      // cut off by the stop) still come, until the inputs end, which they do at their next read.
      if let interruption = unretainedInterruption,
        interruption._withUnsafeGuaranteedRef({ $0.isRequested }), !item.pointee.isNotice
      {
        continue
      }
      if let outcome = kernel.handle(
        item, of: batch, columns: columns, writer: &writer, streams: streams)
      {
        if tracksPositions { noteHandled(item, next: index < items.count ? first + index : nil) }
        return outcome
      }
      if tracksPositions {
        noteHandled(item, next: index < items.count ? first + index : nil)
        if positions.isDue { return nil }
      }
      if kernel.ending != nil { return nil }
    }
    return nil
  }

  /// Hands items to the pool of kernels, which yields what they call for from then on.
  @inline(never)
  private func handOn(
    _ list: [UnsafePointer<ReplayItem>], of batch: Unmanaged<ReplayBatch>, to pool: KernelPool
  ) {
    pool.handle(list, batches: Array(repeating: batch, count: list.count))
  }

  /// Takes the next batch, or the next merged item.
  ///
  /// - Returns: `true` when there is something to handle, `false` when a live input has
  ///   nothing ready (the next call waits for it), `nil` at the end of the inputs.
  @inline(never)
  private mutating func fetch() -> Bool? {
    let mayWait = hasYieldedWaiting || !isLive
    switch feed {
    case .inline(let batcher):
      switch batcher.nextBatch(mayWait: mayWait) {
      case .batch(let next): take(next, from: 0, count: next.count)
      case .wouldWait: return false
      case .end: return nil
      }
    case .readAhead(let readAhead):
      var taken = readAhead.takeIfReady()
      if case .notReady = taken {
        guard mayWait else { return false }
        taken = readAhead.take().map { .element($0) } ?? .end
      }
      switch taken {
      case .element(let next): take(next, from: 0, count: next.count)
      case .notReady: return false
      case .end: return nil
      }
    case .merge(let merge):
      if let pool { return fetchMerged(from: merge, into: pool, mayWait: mayWait) }
      switch merge.next(mayWait: mayWait) {
      case .item(let batch, let position): take(batch, from: position, count: 1)
      case .wouldWait: return false
      case .end: return nil
      }
    case .ended:
      return nil
    }
    hasYieldedWaiting = false
    return true
  }

  /// Takes up to a batch's worth of merged items and hands them to the pool of kernels, which
  /// yields what they call for: handed on one by one, each item would wait for every thread.
  ///
  /// - Returns: As ``fetch()``.
  @inline(never)
  private mutating func fetchMerged(from merge: InputMerge, into pool: KernelPool, mayWait: Bool)
    -> Bool?
  {
    var list: [UnsafePointer<ReplayItem>] = []
    var batches: [Unmanaged<ReplayBatch>] = []
    // The batches of the items, kept until the pool is done with them.
    var kept: [ReplayBatch] = []
    gathering: while list.count < LineBatcher.batchLines {
      switch merge.next(mayWait: list.isEmpty && mayWait) {
      case .item(let batch, let position):
        guard let first = batch.items.baseAddress, position < batch.items.count else { continue }
        if kept.last !== batch { kept.append(batch) }
        list.append(first + position)
        batches.append(Unmanaged.passUnretained(batch))
      case .wouldWait:
        if list.isEmpty { return false }
        break gathering
      case .end:
        if list.isEmpty { return nil }
        break gathering
      }
    }
    withExtendedLifetime(kept) { pool.handle(list, batches: batches) }
    hasYieldedWaiting = false
    return true
  }

  /// Makes `count` items of `next`, from `position` on, the ones to handle.
  private mutating func take(_ next: ReplayBatch, from position: Int, count: Int) {
    if batch !== next {
      // The last event's line, and the last item handled, are in the batch let go.
      if tracksPositions {
        kernel.settleLastEvent()
        settlePosition()
        if let hash = next.readHash { positions.readHashes[next.items[position].input] = hash }
      }
      batch = next
      unretainedBatch = Unmanaged.passUnretained(next)
      columns = next.columns.map(Unmanaged.passUnretained)
    }
    items = UnsafeBufferPointer(rebasing: next.items[position..<(position + count)])
    index = 0
  }

  /// The `--final` record, the first time, then the end; the inputs are let go.
  @inline(never)
  private mutating func end() -> ReplayOutcome {
    let ending = self.ending ?? .completed
    if kernel.configuration.checkpointsAtEnd, !positions.isEndDone {
      positions.isEndDone = true
      switch ending {
      case .completed, .interrupted: return .checkpoint(makeCheckpoint())
      case .stoppedAtBadLine, .readFailure: break
      }
    }
    if kernel.configuration.isFinal {
      switch ending {
      case .completed, .interrupted:
        if let pool {
          if let record = pool.nextFinalRecord(writer: &writer) { return record }
        } else if let record = kernel.nextFinalRecord(writer: &writer) {
          return record
        }
      case .stoppedAtBadLine, .readFailure:
        break
      }
    }
    pool?.releaseKeys()
    kernel.releaseKeys()
    feed = .ended
    unretainedBatch = nil
    batch = nil
    items = UnsafeBufferPointer(start: nil, count: 0)
    columns = []
    return .end(ReplaySummary(statistics: pool?.statistics ?? kernel.statistics, ending: ending))
  }
}
