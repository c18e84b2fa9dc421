import Rasp
import RaspDomains
import RaspJSON

/// The kernel's bad lines and warnings: an event read again when its payload's end was
/// assumed, a bad line counted and reported (``BadLineReport``), an unknown payload field
/// noted.
extension ReplayKernel {
  /// Whether the decoder of an event just applied skipped a field of its payload itself: its
  /// column says, for an event decoded ahead, and its domain's slot otherwise.
  @inline(__always)
  func hasSkippedField(_ routed: SnapshotState.Event) -> Bool {
    if let column = routed.column {
      return column._withUnsafeGuaranteedRef { $0.hasSkippedField(at: routed.row) }
    }
    return stream.pipeline.current.hasSkippedField(domain: routed.domainIndex)
  }

  /// Notes a payload field that the event's type does not define, outside `--strict`: the
  /// event is counted (``ReplayStatistics/withUnknownField``), and the first event of each
  /// type and field is kept for its warning.
  @inline(never)
  mutating func noteUnknownField(
    _ error: RaspEventError, of routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>
  ) {
    statistics.withUnknownField += 1
    guard case .unknownField(let field, let nearest) = error.reason else { return }
    let type = router.typeName(of: routed.envelope)
    guard statistics.unknownFields.count < ReplayStatistics.unknownFieldLimit,
      unknownFieldsNoted.insert(type + "\u{0}" + field).inserted
    else { return }
    let item = item.pointee
    let offset = origin(of: item).lineOffset(of: error.offset ?? 0, in: item.bytes)
    statistics.unknownFields.append(
      ReplayStatistics.UnknownField(
        type: type, field: field, inputName: inputNames[item.input], line: item.lineNumber,
        column: JSONTextPosition(offset: offset, in: item.bytes).column, nearest: nearest))
    if let base = part?.ordinalBase, let index = part?.itemIndex {
      part?.unknownFieldOrdinals.append(base + index)
    }
  }

  /// Handles an item whose envelope assumed its payload's end, after something about it
  /// failed: the line read again carefully gives the event, or the error, to go on with.
  @inline(never)
  mutating func handleAgain<Streams: StreamStage>(
    _ item: ReplayItem, writer: inout JSONWriter, streams: Streams.Type
  ) -> ReplayOutcome? {
    var problems: [ReplayProblem] = []
    let again = item.readAgainWithoutAssuming(problems: &problems)
    switch again.kind {
    case .event(let envelope):
      return withUnsafePointer(to: again) {
        handle(envelope, item: $0, writer: &writer, streams: streams)
      }
    case .problem(let index):
      guard case .invalid(let error) = problems[index] else { return nil }
      return reject(error, item: again)
    default: return nil
    }
  }

  /// Handles an event that its domain did not apply (the snapshot is unchanged): read again if
  /// its payload's end was assumed, a bad line otherwise.
  @inline(never)
  mutating func handleFailure<Streams: StreamStage>(
    _ error: any Error, of routed: SnapshotState.Event, item: ReplayItem,
    writer: inout JSONWriter, streams: Streams.Type
  ) -> ReplayOutcome? {
    if routed.envelope.isPayloadEndAssumed {
      return handleAgain(item, writer: &writer, streams: streams)
    }
    let eventError =
      error as? RaspEventError ?? RaspEventError(offset: nil, reason: .rejected("\(error)"))
    // In a keyed replay, the state that refused the event is its key's: the message says which.
    return reject(
      router.namingPayload(in: eventError, of: routed.envelope), item: item,
      key: Streams.currentKey(in: self).name)
  }

  /// Counts and reports a bad line; with `fail`, the replay ends after it.
  @inline(never)
  mutating func reject(
    _ error: RaspEventError, item: ReplayItem, key: ArraySlice<UInt8>? = nil
  ) -> ReplayOutcome {
    // The bad line is not applied in either mode: it counts as skipped, so that the summary
    // still adds up when it stops the replay.
    statistics.skipped += 1
    if configuration.errorMode == .fail { ending = .stoppedAtBadLine }
    return .skipped(badLines.diagnostic(error, item: item, origin: origin(of: item), key: key))
  }

  /// Where the event of `item` is in its line, when it is not simply the line (a member of a
  /// batch line, an event a map emits).
  func origin(of item: ReplayItem) -> EventOrigin {
    guard item.originIndex >= 0, let batch = currentBatch?.takeUnretainedValue(),
      Int(item.originIndex) < batch.origins.count
    else { return EventOrigin() }
    return batch.origins[Int(item.originIndex)]
  }
}
