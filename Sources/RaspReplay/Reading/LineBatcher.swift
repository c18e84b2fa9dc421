import RaspDomains
import RaspJSON

/// Reads one input into batches of classified lines: the reading and envelope stages, and,
/// on the reading thread of a read-ahead, a share of the decoding.
///
/// A file is read in blocks of 256 KiB that the batches keep: no line is copied, and a batch
/// holds up to 4,096 lines. A live input hands over what it has as soon as nothing more is
/// ready, so that each line is replayed as it arrives; a partial last line is held until its
/// line end, or the end of the input. A followed file that is rotated or truncated ends its
/// old file here, with a notice, and the reader goes on from the new start.
///
/// ```swift
/// let batcher = LineBatcher(input: 0, reading: reading, tracksTime: false)
/// while case .batch(let batch) = batcher.nextBatch(mayWait: true) { handle(batch) }
/// ```
final class LineBatcher: @unchecked Sendable {
  /// What ``nextBatch(mayWait:)`` found.
  enum Next {
    /// Lines, at least one item.
    case batch(ReplayBatch)
    /// Nothing is ready, and the caller asked not to wait.
    case wouldWait
    /// The input ended, or reading it stopped; nothing follows.
    case end
  }

  /// A batch ends after this many bytes of lines, or this many lines, whichever comes first.
  static let batchBytes = 1 << 18
  static let batchLines = 4096
  /// The reader's chunk: a batch's lines are in one or two blocks of about this size.
  static let chunkBytes = 1 << 18

  let input: Int
  /// Whether the input is read as its lines arrive.
  private let isLive: Bool
  // A batcher is used by one thread at a time, so its state goes without runtime exclusivity
  // checks, which cost a thread-local lookup per access.
  private let reader: JSONLinesReader<InputReading>
  @exclusivity(unchecked) private var classifier: LineClassifier
  /// The router and decoder to decode a share of the lines with, ahead of the replay, and the
  /// domains whose events to decode (the others are passed over, ``DomainDemand``).
  private let decoding: (router: Router, decoder: EventDecoder, demand: DomainDemand)?
  /// Which lines to decode ahead.
  @exclusivity(unchecked) private var share: DecodeShare
  /// How to tell which kernel of a pool handles each event (``KernelPart``), in a keyed replay
  /// on several threads: each kernel then only compares a number.
  @exclusivity(unchecked) private var partition: KeyPartition?
  /// Whether there is a ``partition``: asked for every line, `partition != nil` would copy it.
  private let partitions: Bool
  /// How to read each event's key ahead of the kernels, in a keyed replay.
  @exclusivity(unchecked) private var keyHints: KeyHints?
  private let hintsKeys: Bool
  /// The last batch's columns, to size the next batch's like them.
  @exclusivity(unchecked) private var lastColumns: [AnyRaspDecodedEvents] = []
  @exclusivity(unchecked) private var isFinished = false
  /// Where the lines read are counted, for a progress display.
  private let progress: ReplayProgress?
  /// How many bytes of the input come before what the reader reads.
  private let offsetBefore: Int

  /// A batcher of one input.
  ///
  /// - Parameters:
  ///   - input: The input's position, for its items.
  ///   - reading: The input's bytes.
  ///   - tracksTime: Whether to keep each event's time, for a merge.
  ///   - types: How a map names each line's type, for a log read through a map.
  ///   - assumesPayloadEnd: Whether payloads that end their lines may be taken to end there.
  ///   - decoding: What to decode ahead with, on a read-ahead's thread.
  ///   - sharesDecoding: Whether to decode only a share of the lines, adjusted to the queue
  ///     (``adjustShare(pendingBatches:replayWaited:)``); otherwise all of them.
  ///   - partition: How to tell the kernel of each event, in a replay split by key.
  ///   - keyHints: How to read each event's key for the kernels, in a keyed replay
  ///     (``ReplayBatch/keyHints``); with a `partition`, each event's kernel is then told from
  ///     the key read for its hint.
  ///   - linesBefore: How many lines of the input come before what `reading` reads: the
  ///     first line read is numbered one more.
  ///   - timeBefore: The time of the last line before, for the lines without `ts` after it.
  ///   - offsetBefore: How many bytes of the input come before what `reading` reads, for the
  ///     items' ``ReplayItem/lineEnd``.
  init(
    input: Int, reading: InputReading, tracksTime: Bool, types: TypeTable? = nil,
    assumesPayloadEnd: Bool = true,
    decoding: (router: Router, decoder: EventDecoder, demand: DomainDemand)? = nil,
    sharesDecoding: Bool = false, partition: KeyPartition? = nil, keyHints: KeyHints? = nil,
    linesBefore: Int = 0,
    timeBefore: RaspTimestamp? = nil, offsetBefore: Int = 0
  ) {
    self.input = input
    self.offsetBefore = offsetBefore
    self.isLive = reading.isLive
    self.progress = reading.progress
    self.reader = LineBatcher.makeReader(reading)
    if linesBefore > 0 { self.reader.resumeLineNumbers(after: linesBefore) }
    self.classifier = LineClassifier(
      input: input, tracksTime: tracksTime, assumesPayloadEnd: assumesPayloadEnd)
    self.classifier.mapped = types.map { MappedEnvelopeReader(table: $0) }
    if tracksTime { self.classifier.lastTime = timeBefore }
    self.decoding = decoding
    self.share = DecodeShare(decodes: decoding != nil, adapts: sharesDecoding)
    self.partition = partition
    self.partitions = partition != nil
    self.keyHints = keyHints
    self.hintsKeys = keyHints != nil
  }

  private static func makeReader(_ reading: InputReading) -> JSONLinesReader<InputReading> {
    // The lines stay in the blocks the reader reads them into, which the batches keep.
    JSONLinesReader(source: reading, chunkSize: chunkBytes, keepsLines: true)
  }

  /// Adjusts the share of lines decoded ahead after a batch was handed over (see
  /// ``DecodeShare``).
  func adjustShare(pendingBatches: Int, replayWaited: Bool) {
    share.adjust(pendingBatches: pendingBatches, replayWaited: replayWaited)
  }

  /// Reads the next batch.
  ///
  /// - Parameter mayWait: Whether to wait for a live input's next line when nothing is ready;
  ///   otherwise ``Next/wouldWait`` is returned instead.
  /// - Returns: A batch, the end, or that a live input has nothing ready.
  func nextBatch(mayWait: Bool) -> Next {
    guard !isFinished else { return .end }
    let columns = decoding?.decoder.makeColumns(sizedLike: lastColumns) ?? []
    let batch = ReplayBatch(capacity: Self.batchLines, columns: columns)
    // The columns, not retained (the batch keeps them).
    let unretainedColumns = columns.map(Unmanaged.passUnretained)
    // What changes per line is kept in locals while the batch is read, and put back after.
    var classifier = self.classifier
    var share = self.share
    var problems: [ReplayProblem] = []
    var notices: [String] = []
    defer {
      progress?.add(lines: batch.count)
      batch.origins = classifier.origins
      classifier.origins.removeAll()
      self.classifier = classifier
      self.share = share
      batch.problems = problems
      batch.notices = notices
      batch.readHash = reader.source.hash
    }
    var blockNumber = -1
    var used = 0
    reading: while used < Self.batchBytes, !batch.isFull {
      let line: JSONLine
      do {
        switch try nextLine(holding: batch.count > 0, mayWait: mayWait) {
        case .line(let next):
          line = next
        case .notice(let message):
          notices.append(message)
          batch.append(classifier.item(noBytes, 0, .notice(notices.count - 1)))
          continue reading
        case .none:
          if batch.count == 0, !isFinished { return .wouldWait }
          break reading
        }
      } catch is InputReading.Stopped {
        isFinished = true
        if let notice = unfinishedLineNotice() {
          notices.append(notice)
          batch.append(classifier.item(noBytes, 0, .notice(notices.count - 1)))
        }
        break reading
      } catch {
        isFinished = true
        problems.append(.readFailure("\(error)"))
        let number = reader.lineNumber + 1
        batch.append(classifier.item(noBytes, number, .problem(problems.count - 1)))
        break reading
      }
      if blockNumber != reader.blockNumber {
        batch.blocks.append(reader.currentBlock)
        blockNumber = reader.blockNumber
      }
      used += line.bytes.count
      let lineEnd = line.isTooLong ? -1 : offsetBefore + reader.offsetOfNextLine
      if classifier.readsSpecially, classifier.readsSpecially(line.bytes) {
        // Batches, events in strings, payload fields moved: maybe several items a line.
        classifier.classifySpecially(
          line.bytes, number: line.number, isTooLong: line.isTooLong, problems: &problems,
          arena: &batch.arena
        ) { item in
          var item = share.decodesNextLine() ? decodeAhead(item, into: unretainedColumns) : item
          item.lineEnd = lineEnd
          batch.append(item)
        }
      } else {
        let item = classifier.classify(
          line.bytes, number: line.number, isTooLong: line.isTooLong, problems: &problems)
        var prepared = share.decodesNextLine() ? decodeAhead(item, into: unretainedColumns) : item
        prepared.lineEnd = lineEnd
        batch.append(prepared)
      }
      // The rest of a line too long is skipped as it is read, and may never end (`/dev/zero`):
      // what is wrong with it is handed on now, and `--on-error fail` stops at it.
      if line.isTooLong { break reading }
    }
    guard batch.count > 0 else { return .end }
    lastColumns = columns
    if hintsKeys { batch.keyHints = keyHints?.read(batch.items) ?? [] }
    if partitions { noteKernels(of: batch) }
    return .batch(batch)
  }

  /// Notes each event's kernel in a pool (``ReplayItem/share``): from the key read for its
  /// hint when there is one, which is the same key's hash, otherwise by reading the key.
  private func noteKernels(of batch: ReplayBatch) {
    let items = batch.items
    for index in items.indices {
      switch items[index].kind {
      case .event(let envelope), .decoded(let envelope, _, _, _), .passedOver(let envelope, _, _):
        let share: UInt8
        if hintsKeys, index < batch.keyHints.count, let hint = batch.keyHints[index],
          let count = partition?.count
        {
          share = UInt8(truncatingIfNeeded: ReplayKeys.share(ofHash: hint.hash, among: count))
        } else {
          share = partition?.share(of: envelope) ?? 0
        }
        batch.setShare(share, at: index)
      default:
        continue
      }
    }
  }

  /// No bytes, for items that are not lines.
  private var noBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

  /// What ``nextLine(holding:mayWait:)`` found.
  private enum Line {
    /// A line, valid while the reader's current block is kept.
    case line(JSONLine)
    /// A followed file went on in a new file.
    case notice(String)
    /// Nothing: the end of the input (``isFinished``), or a live input has nothing ready and
    /// the caller should not wait for it.
    case none
  }

  /// The next line of the input.
  ///
  /// A live input is not waited for when the caller holds lines to hand over (`holding`), or
  /// asked not to wait (`mayWait`).
  private func nextLine(holding: Bool, mayWait: Bool) throws -> Line {
    guard isLive else {
      if let line = try reader.next() { return .line(line) }
      isFinished = true
      return .none
    }
    while true {
      switch reader.takeBufferedLine() {
      case .line(let line):
        if reader.endedWithoutLineEnd, let notice = cutOffLineNotice(line) {
          return .notice(notice)
        }
        return .line(line)
      case .end:
        if let message = try switchFollowedFile() { return .notice(message) }
        isFinished = true
        return .none
      case .needsInput:
        if holding || !mayWait, !reader.source.hasBytesReady() { return .none }
        try reader.readMore()
      }
    }
  }

  /// After a followed file's reader came to the end of its file because the file was rotated
  /// or truncated: goes on from the new start, and returns what happened;
  /// `nil` for an input that simply ended.
  private func switchFollowedFile() throws -> String? {
    guard let followed = reader.source.followed else { return nil }
    while followed.pendingChange != nil {
      if let message = followed.switchFile() {
        reader.restart()
        return message
      }
      // The new file cannot be opened yet: wait for it as for any input.
      try reader.source.pause()
    }
    return nil
  }

  /// A notice for the unfinished end of a followed file that was rotated or truncated: the
  /// writer was cut off in the middle of a line, which is not replayed; `nil` for the last line
  /// of any other input, which is.
  private func cutOffLineNotice(_ line: JSONLine) -> String? {
    guard let change = reader.source.followed?.pendingChange else { return nil }
    let bytes = line.bytes.count == 1 ? "1 byte" : "\(line.bytes.count) bytes"
    let how = change == .replaced ? "replaced" : "truncated"
    return "the last line of '\(reader.source.name)' before it was \(how) was unfinished "
      + "(\(bytes)): not replayed"
  }

  /// A notice for a live input's partial last line when a request to stop ended the input.
  private func unfinishedLineNotice() -> String? {
    let unfinished = reader.unfinishedByteCount
    guard isLive, unfinished > 0 else { return nil }
    let bytes = unfinished == 1 ? "1 byte" : "\(unfinished) bytes"
    return "the last line of '\(reader.source.name)' was unfinished when the replay stopped "
      + "(\(bytes)): not replayed"
  }

  /// Decodes an event item ahead, when its type is known; any other item, and an event whose
  /// payload does not decode, is left for the replay, which also explains the failures.
  @inline(__always)
  private func decodeAhead(
    _ item: ReplayItem, into columns: [Unmanaged<AnyRaspDecodedEvents>]
  ) -> ReplayItem {
    // Through optional chaining, not `guard let`, which would copy — and retain — the router
    // and the decoder for every line.
    guard case .event(let envelope) = item.kind,
      let routed = decoding?.router.route(envelope)
    else { return item }
    let kind: ReplayItem.Kind
    if decoding?.demand.needs(routed.domainIndex) == false {
      guard (try? envelope.checkPayload()) != nil else { return item }
      kind = .passedOver(
        envelope, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex)
    } else {
      guard let row = try? decoding?.decoder.decode(routed, into: columns[routed.domainIndex])
      else { return item }
      kind = .decoded(
        envelope, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex, row: row)
    }
    var decoded = ReplayItem(
      input: item.input, lineNumber: item.lineNumber, bytes: item.bytes, kind: kind,
      time: item.time)
    decoded.originIndex = item.originIndex
    decoded.membership = item.membership
    return decoded
  }
}
