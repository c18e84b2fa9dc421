import Dispatch
import RaspJSON

/// The `--final` records of a keyed replay on one kernel, written a run of keys at a time, the
/// two halves of each run at once on two threads.
///
/// What is left at the end of a keyed `--final` replay is to write each key's snapshot — with
/// 100,000 keys, a third of the kernel's work — while the reading thread has nothing more to
/// read. No state changes any more, so each half of a run is encoded on its own thread into
/// its own writer, and the records are then handed out in key order: the same bytes as written
/// one after the other. Only plain snapshots are written this way; a selection, a diff or
/// `--with-event` is written by the kernel, one record at a time, and a replay on several
/// kernels (`-j`) writes its records on its kernels (``KernelPool``).
///
/// ```swift
/// var runs = FinalRuns()
/// runs.write(order, streams: streams, keys: keys)   // up to FinalRuns.runLength keys
/// while let record = runs.next(appendingTo: &writer) { yield(.record(record)) }
/// ```
struct FinalRuns {
  /// How many keys a run has at most.
  static let runLength = 8192

  /// A record written into its half's writer, and what its outcome tells of it.
  private struct Record {
    let range: Range<Int>
    let seq: Int
    let input: Int?
    let line: Int?
  }

  /// Half a run: its records and their bytes, changed by one thread at a time.
  private final class Half: @unchecked Sendable {
    var writer = JSONWriter()
    var records: [Record] = []
  }

  private let halves = [Half(), Half()]
  /// The half and record handed out next; past the last half when there is none.
  private var half = 2
  private var position = 0

  init() {}

  /// Writes the records of the keys numbered `run`, in that order, to be handed out by
  /// ``next(appendingTo:)``. Every key must have its stream.
  mutating func write(_ run: UnsafeBufferPointer<Int>, streams: ReplayStreams, keys: ReplayKeys) {
    // What each thread reads: the states no longer change, and each thread writes its half.
    struct Work: @unchecked Sendable {
      let halves: [Half]
      let run: UnsafeBufferPointer<Int>
      let streams: ReplayStreams
      let keys: ReplayKeys
    }
    let work = Work(halves: halves, run: run, streams: streams, keys: keys)
    let middle = run.count / 2
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let part = index == 0 ? work.run[..<middle] : work.run[middle...]
      Self.write(
        UnsafeBufferPointer(rebasing: part), into: work.halves[index], streams: work.streams,
        keys: work.keys)
    }
    half = 0
    position = 0
  }

  /// Appends the next record to `writer`; `nil` when every record written was handed out.
  mutating func next(appendingTo writer: inout JSONWriter) -> ReplayRecord? {
    while half < halves.count {
      let current = halves[half]
      guard position < current.records.count else {
        half += 1
        position = 0
        continue
      }
      let record = current.records[position]
      position += 1
      let start = writer.bytes.count
      writer.writeRaw(current.writer.bytes[record.range])
      return ReplayRecord(
        range: start..<writer.bytes.count, seq: record.seq, input: record.input,
        line: record.line)
    }
    return nil
  }

  /// Writes `{"key":…,"state":…}` for each key of `numbers` into `half`.
  private static func write(
    _ numbers: UnsafeBufferPointer<Int>, into half: Half, streams: ReplayStreams,
    keys: ReplayKeys
  ) {
    // Taken out of the half while written, so that each change is not checked for
    // exclusive access, and the storage stays uniquely referenced.
    var writer = JSONWriter()
    var records: [Record] = []
    swap(&writer, &half.writer)
    swap(&records, &half.records)
    writer.removeAll()
    records.removeAll(keepingCapacity: true)
    for position in numbers.indices {
      prefetch(after: position, in: numbers, streams: streams, keys: keys)
      let number = numbers[position]
      let stream = streams.pointer(to: number + 1)
      let start = writer.bytes.count
      writer.writeRaw("{\"key\":")
      writer.writeRaw(keys.key(number))
      writer.writeRaw(",\"state\":")
      stream.pointee.text.writeOnce(stream.pointee.pipeline.current, to: &writer)
      writer.writeRaw("}")
      records.append(
        Record(
          range: start..<writer.bytes.count, seq: stream.pointee.lastSeq.recordValue,
          input: stream.pointee.lastInput, line: stream.pointee.lastLine))
    }
    swap(&writer, &half.writer)
    swap(&records, &half.records)
  }

  /// Asks for what the records of the keys a few places after `position` in `order` will
  /// read — their streams and keys, their lists of domains, then every domain — as the
  /// kernel's look-ahead does for events: in key order, the keys' states are as scattered in
  /// memory as in the log.
  static func prefetch(
    after position: Int, in order: UnsafeBufferPointer<Int>, streams: ReplayStreams,
    keys: ReplayKeys
  ) {
    if position + 8 < order.count, order[position + 8] + 1 < streams.count {
      streams.prefetch(order[position + 8] + 1)
      keys.prefetchPlace(of: order[position + 8])
    }
    if position + 4 < order.count, order[position + 4] + 1 < streams.count {
      streams.prefetchDomainList(ofStream: order[position + 4] + 1)
      keys.prefetchBytes(of: order[position + 4])
    }
    if position + 2 < order.count, order[position + 2] + 1 < streams.count {
      let index = order[position + 2] + 1
      for domain in 0..<streams.pointer(to: index).pointee.domains.count {
        streams.prefetchDomain(at: domain, ofStream: index)
      }
    }
  }
}
