import Foundation
import RaspDomains
import RaspJSON

/// The recorder's queue of applied events and the thread that writes them: the one place where
/// the recorder's threads meet.
///
/// A sender, under ``lock()``, is admitted (``admit(_:)``): the channel reads the clock there,
/// so that times follow the order of the lines, notes which recorded aggregator the event
/// belongs to, and the aggregator's attachment copies the event into its pending list. Nothing
/// is encoded and nothing allocated on the sending thread. The writer thread takes every
/// pending event in one swap, encodes the lines (and golden snapshots) with the lock released,
/// and writes them. It wakes when a quarter of the buffer is used, when asked to flush or
/// finish, and otherwise after the configured latency.
///
/// After a write error the writer stops: events sent from then on are dropped and counted,
/// and senders never wait again.
@usableFromInline
final class RecorderChannel: @unchecked Sendable {
  /// Guards ``shared`` and every attachment's pending events; wakes the writer and waiting
  /// senders.
  @usableFromInline let condition = RecorderLock()
  /// Everything the threads share; touched only under ``condition``'s lock. Kept behind a
  /// pointer because the lock already makes every access exclusive: as a class's stored
  /// property, each access would also be checked at run time, several times per event.
  private let sharedStorage: UnsafeMutablePointer<Shared>
  private var shared: Shared {
    unsafeAddress { UnsafePointer(sharedStorage) }
    unsafeMutableAddress { sharedStorage }
  }

  private let capacity: Int
  /// How many pending events wake the writer: a quarter of the buffer, at least one.
  private let wakeThreshold: Int
  private let policy: RaspRecorderConfiguration.FullBufferPolicy
  private let latency: TimeInterval
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
  private struct Shared {
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
    var isWriterWaiting = false
    /// Whether the writer sleeps with nothing to write, without a deadline.
    var isWriterIdle = false
    /// The flushes waiting: the writer then writes at once.
    var flushRequests = 0
    var isFinishing = false
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
    self.latency = Double(min(max(1, configuration.maxLatencyMilliseconds), 86_400_000)) / 1000
    self.onFailure = onFailure
    goldenKeys = golden.map { domain in
      var key = JSONWriter(capacity: domain.name.utf8.count + 4)
      key.writeString(domain.name)
      key.writeRaw(":")
      return key.bytes
    }
    goldenStates = golden.map(\.state)
    sharedStorage = .allocate(capacity: 1)
    sharedStorage.initialize(to: Shared())
    sharedStorage.pointee.order.reserveCapacity(capacity)
  }

  deinit {
    sharedStorage.deinitialize(count: 1)
    sharedStorage.deallocate()
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

  /// Takes the lock that guards the pending events.
  @inlinable
  func lock() {
    condition.lock()
  }

  /// Releases the lock, waking the writer when a quarter of the buffer is used, or when the
  /// first event arrives while it sleeps with nothing to write.
  @usableFromInline
  func unlock() {
    if shared.isWriterWaiting,
      shared.order.count >= wakeThreshold || (shared.isWriterIdle && shared.order.count == 1)
    {
      condition.broadcast()
    }
    condition.unlock()
  }

  /// Admits one event of source `index`, under the lock: returns its time, after waiting for
  /// room when the buffer is full and the policy says to wait; or `nil` when the event is
  /// dropped (the policy, a write error, or the recorder finished), counted.
  @usableFromInline
  func admit(_ index: Int) -> RaspTimestamp? {
    guard !shared.isClosed else {
      shared.droppedEvents += 1
      return nil
    }
    while shared.order.count >= capacity {
      guard policy == .wait else {
        shared.droppedEvents += 1
        return nil
      }
      if shared.isWriterWaiting { condition.broadcast() }
      condition.wait()
      guard !shared.isClosed else {
        shared.droppedEvents += 1
        return nil
      }
    }
    shared.order.append(index)
    shared.admitted += 1
    shared.recordedEvents += 1
    return usesSystemClock ? RaspSystemClock.now() : clock.now()
  }

  /// Runs `body` on the shared state under the lock.
  private func withShared<Result>(_ body: (inout Shared) -> Result) -> Result {
    condition.lock()
    defer { condition.unlock() }
    return body(&shared)
  }

  /// The events recorded and dropped, the parts begun, and the failure, read at one moment.
  var progress: (recorded: Int, dropped: Int, partCount: Int, failure: RaspRecorderError?) {
    withShared { ($0.recordedEvents, $0.droppedEvents, $0.partCount, $0.failure) }
  }

  /// Waits until every event admitted before the call is written to the files (handed to the
  /// operating system), or the recording has failed.
  func flush() {
    condition.lock()
    defer { condition.unlock() }
    let target = shared.admitted
    shared.flushRequests += 1
    defer { shared.flushRequests -= 1 }
    condition.broadcast()
    while shared.written < target, shared.failure == nil, !shared.isWriterDone {
      condition.wait()
    }
  }

  /// Writes what is left, the count of dropped events if any, closes the files, and waits for
  /// the writer thread to end. Events sent afterwards are dropped.
  func finish() {
    condition.lock()
    defer { condition.unlock() }
    shared.isFinishing = true
    condition.broadcast()
    while !shared.isWriterDone { condition.wait() }
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
      condition.lock()
      // Waits for a quarter of the buffer, a flush, the end, or the latency: large batches,
      // so that the lock and the buffers change hands between the threads seldom. With
      // nothing to write it sleeps without a deadline, until the first event wakes it.
      var hasWaited = false
      while !shared.isFinishing, shared.order.count < wakeThreshold,
        shared.order.isEmpty || (shared.flushRequests == 0 && !hasWaited)
      {
        shared.isWriterWaiting = true
        if shared.order.isEmpty {
          shared.isWriterIdle = true
          condition.wait()
          shared.isWriterIdle = false
        } else {
          condition.wait(seconds: latency)
          hasWaited = true
        }
        shared.isWriterWaiting = false
      }
      if shared.order.isEmpty, shared.isFinishing {
        condition.unlock()
        break
      }
      let sources = shared.sources
      let slots = shared.slots
      for source in sources { source.takePending() }
      swap(&shared.order, &order)
      condition.broadcast()
      condition.unlock()

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
      condition.broadcast()
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
    condition.broadcast()
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
