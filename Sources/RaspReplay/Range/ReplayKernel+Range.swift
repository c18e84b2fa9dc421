import Rasp
import RaspDomains
import RaspJSON

/// The kernel's range stage: `--since`, `--until` and `--at` (``ReplayRange``).
extension ReplayKernel {
  /// Handles one item of a replay with `--since` or `--until`: stops before an item past
  /// `--until`, uncounted, and after the event or line at it; marks the events before
  /// `--since`, whose records are not written.
  @inline(never)
  mutating func handleInRange<Streams: StreamStage>(
    _ item: UnsafePointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    columns: [Unmanaged<AnyRaspDecodedEvents>], writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    let pointee = item.pointee
    if pointee.isNotice {
      return handleItem(
        item, of: batch, columns: columns, writer: &writer, streams: streams)
    }
    let place = ReplayRange.Place(
      time: pointee.time, input: pointee.input, line: pointee.lineNumber,
      isMember: pointee.isMember)
    if let time = pointee.time { statistics.noteTime(time) }
    guard case .handle(let beforeSince)? = range?.enter(place, applied: seq) else {
      isItemLeftUnread = true
      return stopAtUntil()
    }
    isItemLeftUnread = false
    isBeforeSince = beforeSince
    let outcome = handleItem(
      item, of: batch, columns: columns, writer: &writer, streams: streams)
    isBeforeSince = false
    // Stopped at once after the event or line at `--until`, not at the next line, which a
    // followed file may not have yet.
    if ending == nil, range?.endsAfter(place, applied: seq) == true { _ = stopAtUntil() }
    return outcome
  }

  /// Ends the replay at `--until` (or `--at`): nothing more is read.
  mutating func stopAtUntil() -> ReplayOutcome? {
    if ending == nil {
      ending = .completed
      statistics.stoppingOption = configuration.at == nil ? "--until" : "--at"
    }
    return nil
  }
}
