import Dispatch
import RaspDomains
import RaspJSON

/// Several kernels that split a keyed replay by key (`--jobs N`), each list of items handled
/// by all of them at once on as many threads, and their outcomes merged into exactly what one
/// kernel yields: the one place where kernels work side by side. (Besides the reading thread,
/// the only other work a replay does at once is a single kernel's `--final` records, written
/// on two threads by ``FinalRuns``.)
///
/// Each kernel is handed every item of a list and handles the events whose key is in its share
/// (``KernelPart``), so that each key's events are applied by one kernel, in order. When all
/// are done, the list is merged on the calling thread:
/// - the outcomes are put back in the order of their items;
/// - each applied event is numbered in the replay (`seq`), which no kernel knows alone, and the
///   number is written into the records that show it;
/// - under `--on-error fail`, the first item that ended a kernel ends the replay: outcomes
///   after it are dropped and every kernel's counts go back to what they were before it.
///
/// `--final` writes each kernel's keys in its own key order, on its own thread, and merges
/// them by key.
///
/// ```swift
/// let pool = KernelPool(kernels: kernels)
/// pool.handle(items, batches: batches)
/// while let outcome = pool.nextPending(writer: &writer) { … }
/// ```
final class KernelPool {
  /// One kernel and what it wrote for the list being handled.
  private struct Worker {
    var kernel: ReplayKernel
    /// The records' bytes.
    var writer = JSONWriter()
    /// What it yielded, with the position of its item.
    var outcomes: [(item: Int, outcome: ReplayOutcome, seqOffset: Int?)] = []
    /// The position of the item after which it ended, if it did.
    var endedAt: Int?
    /// The batch of the last item, and its decoded columns.
    var batch: Unmanaged<ReplayBatch>?
    var columns: [Unmanaged<AnyRaspDecodedEvents>] = []
    /// The `--final` order of its keys, and how many of them were written.
    var finalOrder: [Int] = []
    var finalPosition = 0
  }

  /// What the kernels' threads are handed: the workers, each changed only by its own thread,
  /// and what they all read.
  private struct Shared: @unchecked Sendable {
    let workers: UnsafeMutableBufferPointer<Worker>
    var items: [UnsafePointer<ReplayItem>] = []
    var batches: [Unmanaged<ReplayBatch>] = []
    var seqAfter: [Int] = []
    var ordinalBase = 0
    var counts: [Int] = []

    /// Runs `body` with each worker's position, on as many threads at once.
    func forEachWorker(_ body: @Sendable (Int) -> Void) {
      DispatchQueue.concurrentPerform(iterations: workers.count, execute: body)
    }
  }

  /// The kernels, each changed only by its own thread while a list is handled.
  private let workers: UnsafeMutableBufferPointer<Worker>
  /// The outcomes merged, waiting to be yielded, and the bytes of their records.
  private var pending: [ReplayOutcome] = []
  private var pendingPosition = 0
  private var pendingBytes: [UInt8] = []
  /// The number of events applied before the next list.
  private var seqBase = 0
  /// The position in the replay of the next list's first item.
  private var ordinalBase = 0
  /// For each item of the last list, how many events were applied up to it and with it.
  private var seqAfter: [Int] = []
  /// The `--final` order over all kernels: which kernel's next key comes next.
  private var finalOrder: [Int]?
  private var finalPosition = 0
  /// How the replay ends, once it must.
  private(set) var ending: ReplaySummary.Ending?

  /// A pool of kernels, each with its ``ReplayKernel/part``, share `i` at position `i`.
  init(kernels: [ReplayKernel]) {
    workers = .allocate(capacity: kernels.count)
    _ = workers.initialize(from: kernels.map { Worker(kernel: $0) })
  }

  deinit {
    workers.deinitialize()
    workers.deallocate()
  }

  /// The counts of all kernels.
  var statistics: ReplayStatistics {
    var total = ReplayStatistics()
    var first: (ordinal: Int, unknown: ReplayStatistics.UnknownType)?
    for worker in workers {
      let statistics = worker.kernel.statistics
      total.add(statistics)
      if let unknown = statistics.firstUnknown, let ordinal = worker.kernel.part?.firstUnknown,
        first.map({ ordinal < $0.ordinal }) ?? true
      {
        first = (ordinal, unknown)
      }
    }
    total.firstUnknown = first?.unknown
    // Each kernel notes the first event of each unknown field it saw: the replay's first is
    // the earliest of them.
    var fields: [(ordinal: Int, field: ReplayStatistics.UnknownField)] = []
    for worker in workers {
      let ordinals = worker.kernel.part?.unknownFieldOrdinals ?? []
      for (index, field) in worker.kernel.statistics.unknownFields.enumerated() {
        fields.append((index < ordinals.count ? ordinals[index] : Int.max, field))
      }
    }
    fields.sort { $0.ordinal < $1.ordinal }
    var seen = Set<String>()
    for (_, field) in fields where seen.insert(field.type + "\u{0}" + field.field).inserted {
      guard total.unknownFields.count < ReplayStatistics.unknownFieldLimit else { break }
      total.unknownFields.append(field)
    }
    return total
  }

  /// Handles a list of items on all kernels at once, and merges what they yield into the
  /// outcomes ``nextPending(writer:)`` gives.
  ///
  /// - Parameters:
  ///   - items: The items, in the replay's order.
  ///   - batches: The batch of each item, which the caller keeps alive.
  func handle(_ items: [UnsafePointer<ReplayItem>], batches: [Unmanaged<ReplayBatch>]) {
    let shared = Shared(
      workers: workers, items: items, batches: batches, seqAfter: seqAfter,
      ordinalBase: ordinalBase)
    shared.forEachWorker { index in
      Self.run(&shared.workers[index], list: shared)
    }
    self.ordinalBase += items.count
    merge(items)
  }

  /// What one kernel does with a list, on its own thread.
  private static func run(_ worker: inout Worker, list: Shared) {
    let (items, batches) = (list.items, list.batches)
    worker.kernel.numberEvents(after: list.seqAfter)
    worker.kernel.part?.startList(ordinalBase: list.ordinalBase)
    worker.writer.removeAll()
    worker.outcomes.removeAll(keepingCapacity: true)
    worker.endedAt = nil
    guard worker.kernel.ending == nil else { return }
    let interruption = worker.kernel.configuration.interruption
    let looksAhead = worker.kernel.looksAhead
    for (index, item) in items.enumerated() {
      if looksAhead { worker.kernel.lookAhead(from: index, in: items, batches: batches) }
      // As ``Replay`` does with one kernel: after a request to stop, only notices still come.
      if interruption?.isRequested == true, !item.pointee.isNotice { continue }
      let batch = batches[index]
      if worker.batch?.toOpaque() != batch.toOpaque() {
        worker.batch = batch
        worker.columns = batch._withUnsafeGuaranteedRef { $0.columns.map(Unmanaged.passUnretained) }
      }
      worker.kernel.part?.itemIndex = index
      worker.kernel.part?.seqOffset = nil
      // The pool's kernels are keyed: each replays a share of the keys.
      if let outcome = worker.kernel.handle(
        item, of: batch, columns: worker.columns, writer: &worker.writer,
        streams: KeyedStreams.self)
      {
        worker.outcomes.append((index, outcome, worker.kernel.part?.seqOffset))
      }
      if worker.kernel.ending != nil {
        worker.endedAt = index
        return
      }
    }
  }

  /// Merges the kernels' outcomes of a list into ``pending``, in the order of their items.
  private func merge(_ items: [UnsafePointer<ReplayItem>]) {
    pending.removeAll(keepingCapacity: true)
    pendingPosition = 0
    pendingBytes.removeAll(keepingCapacity: true)
    let cut = workers.compactMap(\.endedAt).min()
    let last = cut ?? (items.count - 1)
    // Each applied event's number: how many were applied up to it, by any kernel.
    var applied = [Bool](repeating: false, count: items.count)
    for worker in workers {
      for item in worker.kernel.part?.applied ?? [] where Int(item) <= last {
        applied[Int(item)] = true
      }
    }
    seqAfter = [Int](repeating: 0, count: items.count)
    for index in items.indices {
      if applied[index] { seqBase += 1 }
      seqAfter[index] = seqBase
    }
    // The outcomes, in item order: each item's, if any, is its kernel's next.
    var owner = [Int](repeating: -1, count: items.count)
    for (number, worker) in workers.enumerated() {
      for outcome in worker.outcomes where outcome.item <= last { owner[outcome.item] = number }
    }
    var positions = [Int](repeating: 0, count: workers.count)
    for index in items.indices where owner[index] >= 0 {
      let number = owner[index]
      let (_, outcome, seqOffset) = workers[number].outcomes[positions[number]]
      positions[number] += 1
      pending.append(
        rebased(
          outcome, from: workers[number].writer.bytes, seq: seqAfter[index],
          seqOffset: seqOffset))
    }
    if let cut {
      for index in workers.indices {
        if workers[index].endedAt == cut {
          ending = workers[index].kernel.ending
        } else {
          workers[index].kernel.cutStatistics(after: cut)
        }
      }
    }
  }

  /// An outcome whose record's bytes are copied from a kernel's output into ``pendingBytes``,
  /// with its number in the replay — also written into the bytes where the kernel left it.
  private func rebased(
    _ outcome: ReplayOutcome, from bytes: [UInt8], seq: Int?, seqOffset: Int?
  ) -> ReplayOutcome {
    guard case .record(let record) = outcome else { return outcome }
    let start = pendingBytes.count
    if let seqOffset, let seq {
      pendingBytes.append(contentsOf: bytes[record.range.lowerBound..<seqOffset])
      pendingBytes.append(contentsOf: String(seq).utf8)
      pendingBytes.append(contentsOf: bytes[seqOffset..<record.range.upperBound])
    } else {
      pendingBytes.append(contentsOf: bytes[record.range])
    }
    return .record(
      ReplayRecord(
        range: start..<pendingBytes.count, seq: seq ?? record.seq, input: record.input,
        line: record.line))
  }

  /// The next merged outcome, its record's bytes appended to `writer`; `nil` when there is
  /// none left.
  func nextPending(writer: inout JSONWriter) -> ReplayOutcome? {
    guard pendingPosition < pending.count else { return nil }
    let outcome = pending[pendingPosition]
    pendingPosition += 1
    guard case .record(let record) = outcome else { return outcome }
    let start = writer.bytes.count
    writer.writeRaw(pendingBytes[record.range])
    return .record(
      ReplayRecord(
        range: start..<writer.bytes.count, seq: record.seq, input: record.input,
        line: record.line))
  }

  /// Lets go of every kernel's keys (``ReplayKernel/releaseKeys()``).
  func releaseKeys() {
    for index in workers.indices { workers[index].kernel.releaseKeys() }
  }

  /// Ends the replay after its inputs, as ``ReplayKernel/end(interruption:)`` does.
  func end(interruption: ReplayInterruption?) {
    guard ending == nil else { return }
    ending = interruption?.signal.map { .interrupted(signal: $0) } ?? .completed
  }

  /// The next `--final` record, in key order over all kernels; `nil` when there is no more.
  ///
  /// The first call numbers the last events and sorts each kernel's keys, all at once; the
  /// records are then written a few thousand at a time, each kernel its own on its thread.
  func nextFinalRecord(writer: inout JSONWriter) -> ReplayOutcome? {
    if finalOrder == nil { finalOrder = makeFinalOrder() }
    while pendingPosition >= pending.count {
      guard let order = finalOrder, finalPosition < order.count else { return nil }
      writeFinalRecords(order[finalPosition..<min(finalPosition + 4096, order.count)])
      finalPosition = min(finalPosition + 4096, order.count)
    }
    return nextPending(writer: &writer)
  }

  /// Sorts each kernel's keys on its thread, and merges them by key: the kernel of each
  /// record in order.
  private func makeFinalOrder() -> [Int] {
    let shared = Shared(workers: workers, seqAfter: seqAfter)
    shared.forEachWorker { index in
      shared.workers[index].kernel.numberEvents(after: shared.seqAfter)
      shared.workers[index].finalOrder = shared.workers[index].kernel.finalKeyOrder()
    }
    let sortKeys = workers.map { worker in
      worker.finalOrder.map { $0 < 0 ? nil : KeyOrder.SortKey(worker.kernel.keyBytes($0)) }
    }
    var order: [Int] = []
    var heads = [Int](repeating: 0, count: workers.count)
    while true {
      var next: Int?
      for number in workers.indices where heads[number] < sortKeys[number].count {
        guard let best = next else {
          next = number
          continue
        }
        if let candidate = sortKeys[number][heads[number]],
          let current = sortKeys[best][heads[best]], KeyOrder.precedes(candidate, current)
        {
          next = number
        }
      }
      guard let number = next else { break }
      order.append(number)
      heads[number] += 1
    }
    return order
  }

  /// Writes a kernel's next `count` `--final` records, on its thread.
  private static func writeFinalRecords(_ worker: inout Worker, count: Int) {
    worker.writer.removeAll()
    worker.outcomes.removeAll(keepingCapacity: true)
    for _ in 0..<count {
      let position = worker.finalPosition
      worker.finalPosition += 1
      worker.kernel.prefetchFinalRecords(after: position, in: worker.finalOrder)
      let outcome = worker.kernel.writeFinalRecord(
        ofKey: worker.finalOrder[position], writer: &worker.writer)
      // `.waiting` stands for a key without a record (an empty diff with --changes-only).
      worker.outcomes.append((position, outcome ?? .waiting, nil))
    }
  }

  /// Writes the `--final` records of a run of the order, each kernel its own at once, and
  /// puts them into ``pending`` in that order.
  private func writeFinalRecords(_ run: ArraySlice<Int>) {
    var counts = [Int](repeating: 0, count: workers.count)
    for number in run { counts[number] += 1 }
    let shared = Shared(workers: workers, counts: counts)
    shared.forEachWorker { index in
      Self.writeFinalRecords(&shared.workers[index], count: shared.counts[index])
    }
    pending.removeAll(keepingCapacity: true)
    pendingPosition = 0
    pendingBytes.removeAll(keepingCapacity: true)
    var positions = [Int](repeating: 0, count: workers.count)
    for number in run {
      let (_, outcome, _) = workers[number].outcomes[positions[number]]
      positions[number] += 1
      if case .waiting = outcome { continue }
      pending.append(rebased(outcome, from: workers[number].writer.bytes, seq: nil, seqOffset: nil))
    }
  }
}
