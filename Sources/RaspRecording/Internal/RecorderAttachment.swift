import Rasp
import RaspDomains
import RaspJSON

/// One recorded aggregator: the events it applied, waiting for the writer, and how to write
/// them as log lines.
///
/// The sending thread only copies the event — with its source and the clock's time — into
/// ``pending``, under the channel's lock; the writer thread takes the pending events in one
/// swap and encodes them with the domain, off the sending thread. The arrays keep their
/// capacity, so neither side allocates per event once they are large enough. The sending side
/// is inlinable, so that it is specialized for the app's domain where
/// ``RaspRecorder/record(_:as:)`` is called.
@usableFromInline
final class RecorderAttachment<Domain: RaspRecordableDomain>: @unchecked Sendable
where Domain.State: Sendable, Domain.State.Event: Sendable {
  /// One applied event, as the sender left it.
  @usableFromInline
  struct Entry {
    @usableFromInline var event: Domain.State.Event
    @usableFromInline var source: String?
    @usableFromInline var time: RaspTimestamp

    @inlinable
    init(event: Domain.State.Event, source: String?, time: RaspTimestamp) {
      self.event = event
      self.source = source
      self.time = time
    }
  }

  @usableFromInline let domain: Domain
  @usableFromInline let channel: RecorderChannel
  /// This attachment's position in the channel's list of sources.
  @usableFromInline let index: Int
  /// Whether the states are kept, for a golden file.
  @usableFromInline let keepsStates: Bool

  /// The events waiting for the writer, and their states: guarded by the channel's lock,
  /// which makes every access exclusive, so they are kept behind a pointer rather than checked
  /// for exclusivity at run time on every event.
  @usableFromInline let pendingStorage: UnsafeMutablePointer<Pending>

  @usableFromInline
  struct Pending {
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var states: [Domain.State] = []

    @inlinable
    init() {}
  }

  @inlinable
  var pending: Pending {
    unsafeAddress { UnsafePointer(pendingStorage) }
    unsafeMutableAddress { pendingStorage }
  }

  // The writer thread's.
  @usableFromInline var taken: [Entry] = []
  @usableFromInline var takenStates: [Domain.State] = []
  @usableFromInline var cursor = 0
  @usableFromInline var record = RaspEventRecord()
  /// `{"type":"<domain>.` with the domain's name escaped.
  @usableFromInline let typePrefix: [UInt8]
  /// The last event name found to need no escaping.
  @usableFromInline var plainName = ""

  @usableFromInline
  init(domain: Domain, channel: RecorderChannel, index: Int, keepsStates: Bool, capacity: Int) {
    self.domain = domain
    self.channel = channel
    self.index = index
    self.keepsStates = keepsStates
    var prefix = JSONWriter(capacity: 32)
    prefix.writeRaw(#"{"type":"#)
    prefix.writeString(domain.name + ".")
    prefix.bytes.removeLast()  // the closing quote: the event's name follows
    typePrefix = prefix.bytes
    pendingStorage = .allocate(capacity: 1)
    pendingStorage.initialize(to: Pending())
    pendingStorage.pointee.entries.reserveCapacity(capacity)
    taken.reserveCapacity(capacity)
    if keepsStates {
      pendingStorage.pointee.states.reserveCapacity(capacity)
      takenStates.reserveCapacity(capacity)
    }
  }

  deinit {
    pendingStorage.deinitialize(count: 1)
    pendingStorage.deallocate()
  }

  /// Records one applied event: called by the aggregator's tap, under the aggregator's lock.
  @inlinable
  func record(_ event: Domain.State.Event, state after: Domain.State, source: String?) {
    channel.admit(index) { time in
      pending.entries.append(Entry(event: event, source: source, time: time))
      if keepsStates { pending.states.append(after) }
    }
  }

  // MARK: - The writer thread's side, through a RecorderSource

  @inlinable
  func takePending() {
    swap(&pending.entries, &taken)
    swap(&pending.states, &takenStates)
    cursor = 0
  }

  @inlinable
  func discardPending() {
    pending.entries.removeAll(keepingCapacity: true)
    pending.states.removeAll(keepingCapacity: true)
  }

  @inlinable
  func writeNext(
    into line: inout JSONWriter, timestamp: inout RecorderTimestamp, state: inout JSONWriter?
  ) {
    guard cursor < taken.count else { return }
    let entry = taken[cursor]
    record.reset()
    domain.encodeEvent(entry.event, into: &record)
    line.writeRaw(typePrefix)
    writeName(into: &line)
    switch record.time {
    case .clock:
      line.writeRaw(#","ts":"#)
      timestamp.write(entry.time, into: &line.bytes)
    case .given(let time):
      line.writeRaw(#","ts":"#)
      line.write(time)
    case .absent:
      break
    }
    if let source = entry.source {
      line.writeRaw(#","source":"#)
      line.writeString(source)
    }
    if !record.payload.bytes.isEmpty {
      line.writeRaw(#","payload":"#)
      line.writeRaw(record.payload.bytes)
    }
    line.writeRaw("}\n")
    if state != nil, cursor < takenStates.count {
      state?.removeAll()
      domain.encode(takenStates[cursor], into: &state!)
    }
    cursor += 1
  }

  @inlinable
  func clearTaken() {
    taken.removeAll(keepingCapacity: true)
    takenStates.removeAll(keepingCapacity: true)
    cursor = 0
  }

  /// Writes the event's name and the closing quote of the type, escaped as in a JSON string.
  @inlinable
  func writeName(into line: inout JSONWriter) {
    let name = record.name
    if name == plainName
      || name.utf8.allSatisfy({
        $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
      })
    {
      plainName = name
      line.writeRaw(name.utf8)
      line.writeRaw("\"")
    } else {
      var quoted = JSONWriter(capacity: name.utf8.count + 8)
      quoted.writeString(name)
      line.writeRaw(quoted.bytes.dropFirst())
    }
  }
}

/// What the channel's writer thread needs of a recorded aggregator, whatever its domain.
///
/// Closures rather than a protocol, so that they are made where ``RaspRecorder/record(_:as:)``
/// is inlined and are specialized for the app's domain: the writer encodes without generic
/// dispatch.
@usableFromInline
final class RecorderSource: @unchecked Sendable {
  /// Moves the pending events to the writer's side. Called under the channel's lock.
  @usableFromInline let takePending: () -> Void
  /// Forgets the pending events, after a write error. Called under the channel's lock.
  @usableFromInline let discardPending: () -> Void
  /// Writes the next taken event's line, and the domain's state after it when `state` is not
  /// `nil`. Called by the writer thread, once per event it took, in order.
  @usableFromInline let writeNext:
    (inout JSONWriter, inout RecorderTimestamp, inout JSONWriter?) -> Void
  /// Empties the taken events, keeping the capacity. Called by the writer thread.
  @usableFromInline let clearTaken: () -> Void

  @inlinable
  init<Domain>(_ attachment: RecorderAttachment<Domain>) {
    takePending = { attachment.takePending() }
    discardPending = { attachment.discardPending() }
    writeNext = { line, timestamp, state in
      attachment.writeNext(into: &line, timestamp: &timestamp, state: &state)
    }
    clearTaken = { attachment.clearTaken() }
  }
}
