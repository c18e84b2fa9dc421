import Dispatch
import RaspDomains
import RaspJSON
import Synchronization

/// Reads a log on a second thread, a batch of lines ahead of the replay.
///
/// Reading a line and checking its envelope need no state, so they can run beside the replay,
/// which applies events and writes snapshots in order: on two cores, the work of a replay is
/// split in two. The reading thread reads the log into blocks that it leaves in place, parses
/// each line's envelope there, and hands over whole batches of lines, with the blocks they are
/// in, through a queue of a few batches, so memory stays flat. The replay sees exactly the
/// items, in exactly the order, that reading the log on its own thread would give.
///
/// An item, and the event in it, stays valid as long as its batch is kept.
final class ReplayReadAhead {
  private let queue: ReplayBatchQueue

  /// Starts reading `source` on another thread; with a router and a decoder, the events of
  /// known types are also decoded there, ahead of being applied.
  init(
    fileIndex: Int, source: RaspInputSource, maximumLineLength: Int = JSONLimits.maximumLineLength,
    decoding: (router: RaspSnapshotState.Router, decoder: RaspSnapshotState.Decoder)? = nil,
    sharesDecoding: Bool = false
  ) {
    queue = ReplayBatchQueue(capacity: 4)
    if case .descriptor = source { mayBlockInRead = true } else { mayBlockInRead = false }
    let producer = ReplayBatchProducer(
      fileIndex: fileIndex, source: source, maximumLineLength: maximumLineLength, queue: queue,
      decoding: decoding, sharesDecoding: sharesDecoding)
    let queue = queue
    DispatchQueue.global(qos: .userInitiated).async {
      producer.run()
      queue.producerExited()
    }
  }

  /// Whether the reading thread may sit in `read(2)` indefinitely: standard input from a pipe
  /// or a terminal. A file's reads always return.
  private let mayBlockInRead: Bool

  deinit {
    // Stop the reading thread and wait until it has let go of the log, so that no thread
    // runs on while the command exits (tearing a process down under a running thread can
    // crash it) and the log's descriptor is closed when the replay returns. A thread waiting
    // for standard input may wait for ever; it runs no code meanwhile, so after a short grace
    // it is left to the exit.
    queue.cancel()
    queue.waitForProducer(boundedBy: mayBlockInRead ? .now() + .milliseconds(200) : .distantFuture)
  }

  /// The next batch of lines, or `nil` at the end of the log. Its items stay valid as long as
  /// the batch is kept.
  func nextBatch() -> ReplayBatch? {
    queue.take()
  }
}

/// Lines of a log, with their items.
final class ReplayBatch: @unchecked Sendable {
  /// The blocks the reader read the lines into, which keep their bytes valid.
  var blocks: [JSONLinesBlock] = []
  /// The lines, read and classified, referring to `blocks`; set once, when the batch is full.
  var items: [ReplayItem] = []
  /// The events decoded ahead, one column per domain, when the batch was decoded.
  var columns: [AnyRaspDecodedEvents] = []
  /// What is wrong with the batch's bad lines, which refer to it by index.
  var problems: [ReplayProblem] = []
}

/// Reads a log into batches, on its own thread.
private final class ReplayBatchProducer: @unchecked Sendable {
  let fileIndex: Int
  /// The log, until ``run()`` takes it: the file is closed when `run()` returns.
  private var source: RaspInputSource?
  let maximumLineLength: Int
  let queue: ReplayBatchQueue
  let decoding: (router: RaspSnapshotState.Router, decoder: RaspSnapshotState.Decoder)?
  /// Whether to decode only a share of the lines, adjusted so that the two threads share the
  /// work whichever side is heavier; otherwise every line is decoded.
  let sharesDecoding: Bool
  /// A batch ends after this many bytes of lines, or this many lines, whichever comes first.
  static let batchBytes = 1 << 18
  static let batchLines = 4096
  /// The reader's chunk: a batch's lines are in one or two blocks of about this size.
  static let chunkBytes = 1 << 18

  init(
    fileIndex: Int, source: RaspInputSource, maximumLineLength: Int, queue: ReplayBatchQueue,
    decoding: (router: RaspSnapshotState.Router, decoder: RaspSnapshotState.Decoder)?,
    sharesDecoding: Bool
  ) {
    self.fileIndex = fileIndex
    self.source = source
    self.maximumLineLength = maximumLineLength
    self.queue = queue
    self.decoding = decoding
    self.sharesDecoding = sharesDecoding
  }

  /// Decodes an event item ahead, when this producer decodes and knows the event's type.
  @inline(__always)
  func decodeAhead(
    _ item: ReplayItem, into columns: [Unmanaged<AnyRaspDecodedEvents>], problems: inout [ReplayProblem]
  ) -> ReplayItem {
    guard let decoding, case .event(let log) = item.kind, let routed = decoding.router.route(log) else {
      return item
    }
    let kind: ReplayItem.Kind
    do {
      let row = try decoding.decoder.decode(routed, into: columns[routed.domainIndex])
      kind = .decoded(log, domainIndex: routed.domainIndex, eventIndex: routed.eventIndex, row: row)
    } catch {
      if log.isPayloadEndAssumed { return decodeAheadWithoutAssuming(item, into: columns, problems: &problems) }
      problems.append(.invalid(error))
      kind = .problem(problems.count - 1)
    }
    return ReplayItem(
      fileIndex: item.fileIndex, lineNumber: item.lineNumber, bytes: item.bytes, kind: kind, time: item.time)
  }

  /// Decodes an item whose payload's end was assumed and not confirmed, read again without
  /// assuming; rare, so kept out of line.
  @inline(never)
  func decodeAheadWithoutAssuming(
    _ item: ReplayItem, into columns: [Unmanaged<AnyRaspDecodedEvents>], problems: inout [ReplayProblem]
  ) -> ReplayItem {
    decodeAhead(item.readWithoutAssuming(problems: &problems), into: columns, problems: &problems)
  }

  /// Reads the log to its end, or until the queue is cancelled; the log is released when this
  /// returns.
  func run() {
    guard let source = source.take() else { return }
    // The lines stay in the blocks the reader reads them into, which the batches keep: no line
    // is copied, and the bytes were written by `read(2)` well before they are parsed.
    let reader = JSONLinesReader(
      source: source, chunkSize: Self.chunkBytes, maximumLineLength: maximumLineLength, keepsLines: true)
    var batch = ReplayBatch()
    var blockNumber = -1
    var used = 0
    var items: [ReplayItem] = []
    items.reserveCapacity(Self.batchLines)
    var columns = decoding?.decoder.makeColumns() ?? []
    // The batch's columns, not retained (`columns`, then the batch, keeps them).
    var unretainedColumns = columns.map(Unmanaged.passUnretained)
    var problems: [ReplayProblem] = []
    var share = ReplayDecodeShare(decodes: decoding != nil, adapts: sharesDecoding)
    var lastTime: RaspTimestamp?
    var memo = RaspTimestamp.Memo()
    while !queue.isCancelled {
      let line: JSONLine
      do {
        guard let next = try reader.next() else { break }
        line = next
      } catch {
        problems.append(.readFailure("\(error)"))
        items.append(
          ReplayItem(
            fileIndex: fileIndex, lineNumber: reader.lineNumber + 1,
            bytes: UnsafeBufferPointer(start: nil, count: 0), kind: .problem(problems.count - 1), time: nil))
        break
      }
      let count = line.bytes.count
      if !items.isEmpty, used + count > Self.batchBytes || items.count >= Self.batchLines {
        batch.items = items
        batch.columns = columns
        batch.problems = problems
        guard queue.put(batch) else { return }
        columns = decoding?.decoder.makeColumns(sizedLike: columns) ?? []
        unretainedColumns = columns.map(Unmanaged.passUnretained)
        problems = []
        share.adjust(pendingBatches: queue.pendingCount, replayWaited: queue.takeReplayWaited())
        batch = ReplayBatch()
        blockNumber = -1
        used = 0
        items = []
        items.reserveCapacity(Self.batchLines)
      }
      if blockNumber != reader.blockNumber {
        batch.blocks.append(reader.currentBlock)
        blockNumber = reader.blockNumber
      }
      used += count
      // Every line may have its payload's end assumed: whichever thread decodes the payload
      // confirms it, and reads the line again without assuming when it is wrong.
      let item = ReplayFileLines.classify(
        line.bytes, number: line.number, isTooLong: line.isTooLong,
        fileIndex: fileIndex, maximumLineLength: maximumLineLength, tracksTime: false,
        lastTime: &lastTime, memo: &memo, assumingPayloadEnd: true, problems: &problems)
      items.append(share.decodesNextLine() ? decodeAhead(item, into: unretainedColumns, problems: &problems) : item)
    }
    if !items.isEmpty {
      batch.items = items
      batch.columns = columns
      batch.problems = problems
      _ = queue.put(batch)
    }
    queue.finish()
  }
}

/// Which lines the reading thread decodes, when it shares the decoding with the replay.
///
/// Decoding a line on either thread gives the same result, so the reading thread decodes a
/// share of the lines, in runs, and adjusts it after every batch it hands over: down
/// when the replay had to wait for a batch since the last one, up when it has older batches
/// still waiting (it is behind). The two threads then stay about equally busy, whatever the
/// mix of events and whatever the replay prints. (Deciding per batch instead — decode all of
/// it or none — left one thread or the other idle for a tenth of the time.)
struct ReplayDecodeShare {
  /// The share of lines decoded, in sixteenths.
  private(set) var sixteenths: Int
  /// Whether the share follows the queue; otherwise it stays as it started.
  let adapts: Bool
  /// The next line's place in its run of 256 lines, of which the first `sixteenths` × 16 are
  /// decoded: each thread then handles runs of lines of one kind, and keeps its caches warm.
  private var place = 0

  /// No line when `decodes` is false; every line when it does not adapt; otherwise a quarter
  /// to start with.
  init(decodes: Bool, adapts: Bool) {
    sixteenths = !decodes ? 0 : adapts ? 4 : 16
    self.adapts = decodes && adapts
  }

  /// Whether to decode the next line.
  mutating func decodesNextLine() -> Bool {
    let decodes = place < sixteenths &* 16
    place = (place &+ 1) & 255
    return decodes
  }

  /// Adjusts the share after handing over a batch, from how many batches then wait and
  /// whether the replay waited for one since the last batch.
  mutating func adjust(pendingBatches: Int, replayWaited: Bool) {
    guard adapts else { return }
    if replayWaited {
      sixteenths = max(0, sixteenths - 1)
    } else if pendingBatches > 1 {
      sixteenths = min(16, sixteenths + 1)
    }
  }
}

/// A bounded queue of batches between the reading thread and the replay.
final class ReplayBatchQueue: @unchecked Sendable {
  private struct State {
    var batches: [ReplayBatch] = []
    var isFinished = false
  }

  private let state = Mutex(State())
  /// Read at the start of every critical section and written at its end: an explicit
  /// happens-before edge between them for ThreadSanitizer, which cannot follow `Mutex`'s
  /// hand-over inside the kernel on Linux (see `RaspMutex` in the core).
  private let handoff = Atomic<Int>(0)
  /// Whether the reader of the queue went away. Set under the lock, but kept outside the
  /// lock's state: the reading thread asks before every line, and taking the lock for it wrote
  /// a cache line the other thread uses, per line — a third of the reading thread's time in
  /// `--final`.
  private let cancelled = Atomic<Bool>(false)
  /// Whether the replay found no batch waiting, and had to wait, since the last time the
  /// reading thread asked (``takeReplayWaited()``).
  private let replayWaited = Atomic<Bool>(false)
  private let available = DispatchSemaphore(value: 0)
  private let space: DispatchSemaphore
  private let exited = DispatchSemaphore(value: 0)

  init(capacity: Int) {
    // Created at 0 and raised to `capacity`: libdispatch traps when a semaphore is freed with
    // a value below the one it was created with, as this one is when a replay stops with
    // batches still queued.
    space = DispatchSemaphore(value: 0)
    for _ in 0..<capacity { space.signal() }
  }

  /// Whether the reader of the queue went away; cheap enough to ask before every line.
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// How many batches wait to be taken.
  var pendingCount: Int { locked { $0.batches.count } }

  /// Adds a batch, waiting for room; `false` when the queue was cancelled.
  func put(_ batch: ReplayBatch) -> Bool {
    space.wait()
    let accepted = locked { state -> Bool in
      guard !cancelled.load(ordering: .relaxed) else { return false }
      state.batches.append(batch)
      return true
    }
    if accepted { available.signal() }
    return accepted
  }

  /// Whether the replay had to wait for a batch since the last call; clears it.
  func takeReplayWaited() -> Bool {
    replayWaited.exchange(false, ordering: .relaxed)
  }

  /// Marks the end of the batches.
  func finish() {
    locked { $0.isFinished = true }
    available.signal()
  }

  /// Takes the next batch, waiting for one; `nil` after the last.
  func take() -> ReplayBatch? {
    while true {
      if available.wait(timeout: .now()) == .timedOut {
        replayWaited.store(true, ordering: .relaxed)
        available.wait()
      }
      let (batch, finished) = locked { state -> (ReplayBatch?, Bool) in
        if !state.batches.isEmpty { return (state.batches.removeFirst(), false) }
        return (nil, state.isFinished)
      }
      if let batch {
        space.signal()
        return batch
      }
      if finished {
        available.signal()
        return nil
      }
    }
  }

  /// Runs `body` under the lock.
  private func locked<Result>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return body(&state)
    }
  }

  /// Stops the reading thread: it finishes its current line and exits.
  func cancel() {
    locked { _ in cancelled.store(true, ordering: .releasing) }
    space.signal()
  }

  /// Called by the reading thread as its very last step.
  func producerExited() {
    exited.signal()
  }

  /// Waits until the reading thread has exited, or until `deadline`.
  func waitForProducer(boundedBy deadline: DispatchTime) {
    _ = exited.wait(timeout: deadline)
  }
}
