import Rasp
import RaspDomains
import RaspJSON

/// The kernel's keys stage (`--key-by`): the stream of each event's key made the current one,
/// and the look ahead at the next items' keys (``KeyLookAhead``).
extension ReplayKernel {
  /// Whether the kernel looks ahead at the next items' keys: in a keyed replay.
  var looksAhead: Bool { isKeyed }

  /// The current key, in a keyed replay once an event was applied; `nil` otherwise.
  ///
  /// Not `keys.map`, which would copy the keys, arrays and all, for every record.
  var currentKeyName: ArraySlice<UInt8>? {
    currentKey == ReplayKeys.noNumber ? nil : keys?.key(currentKey)
  }

  /// Looks at the items ahead of the one at `index` of `items`, all of `batch`
  /// (``KeyLookAhead``).
  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: UnsafeBufferPointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>
  ) {
    ahead.look(
      from: index, in: items, of: batch, keys: &keys, streams: streams, router: router,
      share: part?.index)
  }

  /// Looks at the items ahead of the one at `index` of `items`, each of its batch in
  /// `batches` (``KeyLookAhead``).
  @inline(__always)
  mutating func lookAhead(
    from index: Int, in items: [UnsafePointer<ReplayItem>], batches: [Unmanaged<ReplayBatch>]
  ) {
    ahead.look(
      from: index, in: items, batches: batches, keys: &keys, streams: streams, router: router,
      share: part?.index)
  }

  /// Notes the event just applied to the current key's stream: its count when it had no key
  /// (its key `null`), the stream's domains for the look ahead, its place for the pool's merge
  /// (``noteApplied()``), its line for a checkpoint. With ``selectStream(for:item:writer:)``
  /// before it, the one key step of an applied event: the stages between do not know keys.
  @inline(never)
  mutating func noteAppliedToKey(_ item: UnsafePointer<ReplayItem>) {
    if isWithoutKey {
      isWithoutKey = false
      statistics.withoutKey += 1
    }
    if looksAhead { stream.domains = stream.pipeline.current.domainsInMemory }
    if isPart { noteApplied() }
    if keepsLastEvent { keepLastEvent(of: item) }
  }

  /// Notes an event passed over in the current key's stream (``DomainDemand``): its count
  /// when it had no key, its place for the pool's merge.
  @inline(never)
  mutating func notePassedOverForKey() {
    if isWithoutKey {
      isWithoutKey = false
      statistics.withoutKey += 1
    }
    if isPart { noteApplied() }
  }

  /// Asks for what the `--final` records of the keys a few places after `position` in `order`
  /// will read (``FinalRuns/prefetch(after:in:streams:keys:)``).
  func prefetchFinalRecords(after position: Int, in order: [Int]) {
    guard isKeyed, looksAhead, let keys else { return }
    order.withUnsafeBufferPointer {
      FinalRuns.prefetch(after: position, in: $0, streams: streams, keys: keys)
    }
  }

  /// Makes the stream of the key numbered `number` the current one, a new key's made from
  /// ``initialStream``.
  @inline(__always)
  mutating func switchToKey(_ number: Int) {
    guard number != currentKey else { return }
    while streams.count <= number + 1 { _ = streams.append(initialStream) }
    streamPointer = streams.pointer(to: number + 1)
    currentKey = number
  }

  /// What choosing an event's stream came to.
  enum StreamChoice {
    /// The stream of the event's key is the current one: apply the event.
    case selected
    /// The line was handled otherwise — a bad line, or read again — with this outcome.
    case handled(ReplayOutcome?)
  }

  /// Makes the stream of the key of `envelope`'s event the current one; a bad line under
  /// `--strict` when the event has no key.
  @inline(never)
  mutating func selectStream(
    for routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> StreamChoice {
    let envelope = routed.envelope
    // The keys are changed in place: taken out or copied, they would be copied whole (every
    // key's stream, when copied) for every event.
    if looksAhead, let known = ahead.numberFound(for: envelope) {
      switchToKey(known)
      return .selected
    }
    let typeName = keys?.root == .type ? router.typeName(of: envelope) : ""
    let number: Int?
    switch (keys?.number(of: envelope, typeName: typeName), envelope.isPayloadEndAssumed) {
    case (.number(let found)?, _):
      number = found
    case (.missing?, true), (.invalid?, true):
      // The envelope's members after a payload whose end was assumed were not read (a
      // `source` that is not a string, after the payload): the line read again carefully
      // has its key, or is a bad line for what is wrong with it.
      return .handled(handleAgain(item.pointee, writer: &writer, streams: KeyedStreams.self))
    case (.missing?, false):
      if configuration.isStrict, let path = keys?.path {
        // Pointed at the payload for a path into it, as a domain's missing field is.
        let offset = keys?.root == .payload ? envelope.payloadOffset : nil
        let error = RaspEventError(offset: offset, reason: .missingField(path.description))
        return .handled(reject(error, item: item.pointee))
      }
      isWithoutKey = true
      number = keys?.nullKeyNumber()
    case (.invalid(let error)?, false):
      return .handled(reject(error, item: item.pointee))
    case (nil, _):
      number = nil
    }
    if let number {
      switchToKey(number)
      statistics.keys = keys?.count ?? 0
    }
    return .selected
  }
}
