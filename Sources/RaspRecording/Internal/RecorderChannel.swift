import Foundation
import Rasp
import RaspDomains
import RaspJSON

/// The recorder's queue of applied events and the thread that writes them: the one place where
/// the recorder's threads meet.
///
/// A sender, under the lock, is admitted (``admit(_:_:)``): the channel reads the clock there,
/// so that times follow the order of the lines, notes which recorded aggregator the event
/// belongs to, and the aggregator's attachment copies the event into its pending list. Nothing
/// is encoded and nothing allocated on the sending thread. The writer thread takes every
/// pending event in one swap, encodes the lines (and golden snapshots) with the lock released,
/// and writes them. It wakes when a quarter of the buffer is used, when asked to flush or
/// finish, and otherwise after the configured latency.
///
/// All of it is one ``Rasp/RaspMutex``: every wait — the writer's for events, a sender's for
/// room, a flush's for its events to be written, the end's for the writer — is a condition on
/// the shared state, checked as each critical section ends, so no thread signals another by
/// hand.
///
/// After a write error the writer stops: events sent from then on are dropped and counted,
/// and senders never wait again.
@usableFromInline
final class RecorderChannel: @unchecked Sendable {
  /// Everything the threads share, and the lock that also guards every attachment's pending
  /// events.
  @usableFromInline let shared: RaspMutex<Shared>

  private let capacity: Int
  /// How many pending events wake the writer: a quarter of the buffer, at least one.
  private let wakeThreshold: Int
  private let policy: RaspRecorderConfiguration.FullBufferPolicy
  private let latency: Duration
  private let clock: any RaspRecorderClock
  /// Whether the clock is the system's, read directly rather than through the protocol.
  private let usesSystemClock: Bool
  /// Called by the writer thread, with no lock held, after a write error.
  private let onFailure: @Sendable (RaspRecorderError) -> Void
  /// The files; touched only by the writer thread once it runs.
  private let file: RecorderFile
  private let goldenFile: RecorderFile?
  /// Each golden domain's `"name":`, in name order.
  private let goldenKeys: [[UInt8]]
  /// The golden domains' states as last written: the writer thread's.
  private var goldenStates: [[UInt8]]

  /// What the sending threads and the writer share.
  @usableFromInline
  struct Shared {
    /// The recorded aggregators, in the order they were attached.
    var sources: [RecorderSource] = []
    /// Each source's golden slot, or -1.
    var slots: [Int] = []
    /// The source of each pending event, in the order they were applied.
    var order: [Int] = []
    /// Events admitted so far; a flush waits for ``written`` to reach it.
    var admitted: UInt64 = 0
    /// Events written so far, or given up after a write error.
    var written: UInt64 = 0
    /// The flushes waiting: the writer then writes at once.
    var flushRequests = 0
    var isFinishing = false
    /// Whether the writer waits for a first event, with nothing to write (what tests observe
    /// before sending to a writer that sleeps).
    var isWriterIdle = false
    var isWriterDone = false
    /// The write error that stopped the recording.
    var failure: RaspRecorderError?
    /// The parts of the log begun so far.
    var partCount = 1
    var recordedEvents = 0
    var droppedEvents = 0

    /// Whether no more events are taken.
    var isClosed: Bool { failure != nil || isFinishing }

    /// Stops the recording after a write error: the events of the failed write (`lost`) and
    /// those still pending will never be written, and count as dropped.
    mutating func fail(_ error: RaspRecorderError, lost: Int) {
      let unwritten = lost + order.count
      failure = error
      droppedEvents += unwritten
      recordedEvents -= unwritten
      written += UInt64(order.count)
      order.removeAll()
      for source in sources { source.discardPending() }
    }
  }

  init(
    file: RecorderFile, goldenFile: RecorderFile?, golden: [(name: String, state: [UInt8])],
    configuration: RaspRecorderConfiguration,
    onFailure: @escaping @Sendable (RaspRecorderError) -> Void
  ) {
    self.file = file
    self.goldenFile = goldenFile
    self.clock = configuration.clock
    self.usesSystemClock = configuration.clock is RaspSystemClock
    self.capacity = max(1, configuration.maxPendingEvents)
    self.wakeThreshold = max(1, capacity / 4)
    self.policy = configuration.whenFull
    // A day at most: longer is as good as never, and keeps the deadline's arithmetic in range.
    self.latency = .milliseconds(min(max(1, configuration.maxLatencyMilliseconds), 86_400_000))
    self.onFailure = onFailure
    goldenKeys = golden.map { domain in
      var key = JSONWriter(capacity: domain.name.utf8.count + 4)
      key.writeString(domain.name)
      key.writeRaw(":")
      return key.bytes
    }
    goldenStates = golden.map(\.state)
    var shared = Shared()
    shared.order.reserveCapacity(capacity)
    self.shared = RaspMutex(shared)
  }

  /// The most events waiting to be written.
  @usableFromInline
  var pendingCapacity: Int { capacity }

  /// Starts the writer thread.
  func start() {
    let thread = Thread { [self] in runWriter() }
    thread.name = "rasp-recorder"
    thread.start()
  }

  /// Adds a recorded aggregator, made for its index (for ``admit(_:)``).
  @usableFromInline
  func add(slot: Int, _ makeSource: (Int) -> RecorderSource) -> Bool {
    withShared { shared in
      guard !shared.isFinishing, !shared.isWriterDone else { return false }
      shared.sources.append(makeSource(shared.sources.count))
      shared.slots.append(slot)
      return true
    }
  }

  /// Admits one event of source `index` and, unless it is dropped, runs `record` with its
  /// time, under the lock: after waiting for room when the buffer is full and the policy says
  /// to wait. An event is dropped, and counted, by the policy, after a write error, or once
  /// the recorder finished.
  @usableFromInline
  func admit(_ index: Int, _ record: (RaspTimestamp) -> Void) {
    let capacity = capacity
    let waits = policy == .wait
    shared.withLock(when: { !waits || $0.isClosed || $0.order.count < capacity }) { shared, _ in
      if let time = admitted(index, in: &shared) { record(time) }
    }
  }

  /// The time of an event of source `index`, added to the pending order; or `nil` when it is
  /// dropped, counted.
  private func admitted(_ index: Int, in shared: inout Shared) -> RaspTimestamp? {
    guard !shared.isClosed, shared.order.count < capacity else {
      shared.droppedEvents += 1
      return nil
    }
    shared.order.append(index)
    shared.admitted += 1
    shared.recordedEvents += 1
    return usesSystemClock ? RaspSystemClock.now() : clock.now()
  }

  /// Runs `body` on the shared state under the lock.
  private func withShared<Result>(
    _ body: (inout sending Shared) -> sending Result
  ) -> sending Result {
    shared.withLock(body)
  }

  /// The events recorded and dropped, the parts begun, and the failure, read at one moment.
  var progress: (recorded: Int, dropped: Int, partCount: Int, failure: RaspRecorderError?) {
    withShared { ($0.recordedEvents, $0.droppedEvents, $0.partCount, $0.failure) }
  }

  /// Waits until every event admitted before the call is written to the files (handed to the
  /// operating system), or the recording has failed.
  func flush() {
    let target = withShared { shared in
      shared.flushRequests += 1
      return shared.admitted
    }
    shared.withLock(when: {
      $0.written >= target || $0.failure != nil || $0.isWriterDone
    }) { shared, _ in
      shared.flushRequests -= 1
    }
  }

  /// Writes what is left, the count of dropped events if any, closes the files, and waits for
  /// the writer thread to end. Events sent afterwards are dropped.
  func finish() {
    withShared { $0.isFinishing = true }
    shared.withLock(when: { $0.isWriterDone }) { _, _ in }
  }

  // MARK: - The writer thread

  private func runWriter() {
    var order: [Int] = []
    order.reserveCapacity(capacity)
    var line = JSONWriter(capacity: 1 << 16)
    var golden = JSONWriter(capacity: goldenFile == nil ? 0 : 1 << 16)
    var state: JSONWriter? = goldenFile == nil ? nil : JSONWriter(capacity: 1024)
    var timestamp = RecorderTimestamp()
    var error: RaspRecorderError?
    while error == nil {
      // Waits for a first event (without a deadline: nothing to write), then for a quarter of
      // the buffer, a flush, the end, or the latency: large batches, so that the lock and the
      // buffers change hands between the threads seldom.
      withShared { $0.isWriterIdle = true }
      shared.withLock(when: { !$0.order.isEmpty || $0.isFinishing }) { shared, _ in
        shared.isWriterIdle = false
      }
      let wakeThreshold = wakeThreshold
      let batch = shared.withLock(
        when: { $0.isFinishing || $0.order.count >= wakeThreshold || $0.flushRequests > 0 },
        timeout: latency
      ) { shared, _ -> (sources: [RecorderSource], slots: [Int])? in
        if shared.order.isEmpty, shared.isFinishing { return nil }
        for source in shared.sources { source.takePending() }
        swap(&shared.order, &order)
        return (shared.sources, shared.slots)
      }
      guard let (sources, slots) = batch else { break }

      for index in order {
        sources[index].writeNext(&line, &timestamp, &state)
        if let state, goldenStates.indices.contains(slots[index]) {
          goldenStates[slots[index]].removeAll(keepingCapacity: true)
          goldenStates[slots[index]].append(contentsOf: state.bytes)
          writeGoldenLine(into: &golden)
        }
      }
      for source in sources { source.clearTaken() }
      do throws(RaspRecorderError) {
        try file.write(line.bytes)
        try goldenFile?.write(golden.bytes)
      } catch let writeError {
        error = writeError
      }
      let count = order.count
      order.removeAll(keepingCapacity: true)
      line.removeAll()
      golden.removeAll()
      let parts = file.partIndex + 1
      withShared { shared in
        shared.written += UInt64(count)
        shared.partCount = parts
        if let error { shared.fail(error, lost: count) }
      }
    }
    if error == nil, let endError = end() {
      error = endError
      withShared { $0.fail(endError, lost: 0) }
    }
    if error != nil {
      try? file.close()
      try? goldenFile?.close()
    }
    withShared { shared in
      shared.isWriterDone = true
      shared.partCount = file.partIndex + 1
      // The sources hold the channel: letting them go ends the cycle, once nothing is left.
      shared.sources = []
      shared.slots = []
    }
    if let error { onFailure(error) }
  }

  /// Writes one golden snapshot: every golden domain's latest state, in name order.
  private func writeGoldenLine(into golden: inout JSONWriter) {
    golden.writeRaw("{")
    for index in goldenStates.indices {
      if index > 0 { golden.writeRaw(",") }
      golden.writeRaw(goldenKeys[index])
      golden.writeRaw(goldenStates[index])
    }
    golden.writeRaw("}\n")
  }

  /// Writes the count of dropped events, if any, and closes the files.
  private func end() -> RaspRecorderError? {
    let dropped = withShared { $0.droppedEvents }
    do throws(RaspRecorderError) {
      if dropped > 0 {
        let line = #"{"type":"rasp.dropped","payload":{"events":\#(dropped)}}"# + "\n"
        try file.write(Array(line.utf8))
      }
      defer { try? goldenFile?.close() }
      try file.close()
      try goldenFile?.close()
      return nil
    } catch {
      return error
    }
  }
}
