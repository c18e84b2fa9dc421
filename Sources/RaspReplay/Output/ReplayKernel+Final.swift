import Rasp
import RaspDomains
import RaspJSON

/// The kernel's end: the records of a `--final` replay, of each key in key order in a keyed
/// replay, written once every event is applied.
extension ReplayKernel {
  /// Writes the next record for the end of a `--final` replay: the last snapshot or selected
  /// value, of each key in key order in a keyed replay; `nil` when there is no more (or none:
  /// a diff with ``ReplayConfiguration/changesOnly`` that is empty).
  mutating func nextFinalRecord(writer: inout JSONWriter) -> ReplayOutcome? {
    if finalEnd.order == nil {
      finalEnd.order = finalKeyOrder()
      // Plain snapshots of a keyed replay on one kernel (a pool's kernels write their own),
      // of domains that two threads may encode at once.
      finalEnd.writesRuns =
        isKeyed && part == nil && configuration.selection == nil
        && !configuration.includesEvent && configuration.emit == .snapshot
        && initialStream.pipeline.current.encodesConcurrently
      if finalEnd.writesRuns {
        // Every key gets its stream; the block may move, and the current stream with it.
        while streams.count <= (keys?.count ?? 0) { _ = streams.append(initialStream) }
        streamPointer = streams.pointer(to: currentKey + 1)
      }
    }
    if finalEnd.writesRuns { return nextFinalRunRecord(writer: &writer) }
    while let order = finalEnd.order, finalEnd.position < order.count {
      prefetchFinalRecords(after: finalEnd.position, in: order)
      let number = order[finalEnd.position]
      finalEnd.position += 1
      if let record = writeFinalRecord(ofKey: number, writer: &writer) { return record }
    }
    return nil
  }

  /// The next plain `--final` record of a keyed replay on one kernel, from the run written
  /// last; the next run is written when it is all handed out (``FinalRuns``).
  mutating func nextFinalRunRecord(writer: inout JSONWriter) -> ReplayOutcome? {
    while true {
      if let record = finalEnd.runs.next(appendingTo: &writer) {
        records += 1
        return .record(record)
      }
      guard let order = finalEnd.order, finalEnd.position < order.count, let keys else {
        return nil
      }
      let start = finalEnd.position
      let end = min(start + FinalRuns.runLength, order.count)
      order.withUnsafeBufferPointer { order in
        finalEnd.runs.write(
          UnsafeBufferPointer(rebasing: order[start..<end]), streams: streams, keys: keys)
      }
      finalEnd.position = end
    }
  }

  /// Lets go of every key's stream, freed on another thread
  /// (``ReplayStreams/releaseAllButFirst()``): the replay has written its last record.
  mutating func releaseKeys() {
    guard isKeyed else { return }
    streams.releaseAllButFirst()
    streamPointer = streams.pointer(to: 0)
    currentKey = ReplayKeys.noNumber
    finalEnd.runs = FinalRuns()
  }

  /// The keys' numbers in the order `--final` prints them; ``ReplayKeys/noNumber`` alone, the
  /// one stream, in a replay without keys.
  func finalKeyOrder() -> [Int] {
    keys?.numbersInKeyOrder() ?? [ReplayKeys.noNumber]
  }

  /// The canonical JSON of the key numbered `number`.
  func keyBytes(_ number: Int) -> [UInt8] {
    guard let key = keys?.key(number) else { return [] }
    return Array(key)
  }

  /// Writes the `--final` record of the key numbered `number` (-1 without keys).
  ///
  /// A key's snapshot is encoded for its record and not kept: kept for each of 100,000 keys,
  /// the text would double the memory of their states.
  mutating func writeFinalRecord(ofKey number: Int, writer: inout JSONWriter) -> ReplayOutcome? {
    if number >= 0 { switchToKey(number) }
    isWritingKeyFinal = isKeyed && stream.differ == nil
    defer { isWritingKeyFinal = false }
    var value: [UInt8]?
    if let selection {
      if selection.isOfEvent {
        value = stream.lastEventBytes.withUnsafeBufferPointer {
          SelectedValue.ofEvent(selection.path, in: $0)
        }
      } else if isWritingKeyFinal {
        var once = SnapshotText()
        value = SelectedValue.inSnapshot(
          selection.path, domain: selection.domain, member: selection.member, text: &once,
          stream.pipeline.current, spare: &writer)
      } else {
        value = SelectedValue.inSnapshot(
          selection.path, domain: selection.domain, member: selection.member,
          text: &stream.text, stream.pipeline.current, spare: &writer)
      }
    }
    // No value at all (`[]` of an empty array): no record.
    if value?.isEmpty == true { return nil }
    let event = stream.lastEventBytes
    return event.withUnsafeBufferPointer { bytes in
      let event = stream.lastInput == nil ? nil : bytes
      // At the end, outside the path of each event: the key stage's kind asked here.
      return isKeyed
        ? writeRecord(value: value, event: event, writer: &writer, streams: KeyedStreams.self)
        : writeRecord(value: value, event: event, writer: &writer, streams: SingleStream.self)
    }
  }
}
