import RaspPrefetch

/// The keyed replay's look at the items ahead of the one being handled: each a step further as
/// it nears its turn — its key, then its key's number and stream, then its domains — so that
/// what its event needs has arrived from memory when it is applied. Waiting for a key's state
/// to arrive from memory takes longer than applying its event.
///
/// The steps, by how far ahead the item is:
///
/// | ahead | step                                                                        |
/// |-------|-----------------------------------------------------------------------------|
/// | 12    | read the key (or take the reading thread's, ``KeyHints``); ask for its slot |
/// | 8     | find the key's number; ask for its stream and its place                      |
/// | 4     | ask for the stream's list of domains, the key's bytes, the snapshot's text   |
/// | 2     | ask for the state of the event's domain                                      |
///
/// What was found is kept by position modulo 16 with the line it is of, so that the kernel
/// takes a number found ahead only for the item it was found for
/// (``numberFound(for:)``).
///
/// ```swift
/// var ahead = KeyLookAhead()
/// for index in items.indices {
///   ahead.look(from: index, in: items, of: batch, keys: &keys, streams: streams, router: router)
///   let number = ahead.numberFound(for: envelope) ?? keys.number(of: envelope, …)
/// }
/// ```
struct KeyLookAhead {
  /// The keys of the next items, sought ahead, and their numbers once found
  /// (``ReplayKeys/noNumber`` for none), by position modulo 16, with the line each is of.
  private var sought = [ReplayKeys.Sought?](repeating: nil, count: 16)
  private var numbers = [Int](repeating: ReplayKeys.noNumber, count: 16)
  private var lines = [UnsafePointer<UInt8>?](repeating: nil, count: 16)
  /// The position of the item being handled, for the number found ahead.
  private(set) var position = 0

  /// The distance ahead of each step.
  static let seekDistance = 12, findDistance = 8, domainsDistance = 4, domainDistance = 2

  /// Looks at the items ahead of the one at `index` of `items`, all of one batch.
  ///
  /// `share` is the share of the keys of the kernel that looks, when it is one of several: an
  /// item of another share is left alone.
  @inline(__always)
  mutating func look(
    from index: Int, in items: UnsafeBufferPointer<ReplayItem>, of batch: Unmanaged<ReplayBatch>,
    keys: inout ReplayKeys?, streams: ReplayStreams, router: Router, share: Int? = nil
  ) {
    guard let first = items.baseAddress else { return }
    if index + Self.seekDistance < items.count {
      let item = first + index + Self.seekDistance
      seek(
        item, position: index + Self.seekDistance, hint: Self.keyHint(of: item, in: batch),
        keys: &keys, router: router, share: share)
    }
    look(
      from: index, count: items.count,
      twoAhead: first + min(index + Self.domainDistance, items.count - 1), keys: &keys,
      streams: streams)
  }

  /// Looks at the items ahead of the one at `index` of `items`, each of its batch in
  /// `batches`.
  @inline(__always)
  mutating func look(
    from index: Int, in items: [UnsafePointer<ReplayItem>], batches: [Unmanaged<ReplayBatch>],
    keys: inout ReplayKeys?, streams: ReplayStreams, router: Router, share: Int? = nil
  ) {
    if index + Self.seekDistance < items.count {
      let item = items[index + Self.seekDistance]
      seek(
        item, position: index + Self.seekDistance,
        hint: Self.keyHint(of: item, in: batches[index + Self.seekDistance]), keys: &keys,
        router: router, share: share)
    }
    look(
      from: index, count: items.count,
      twoAhead: items[min(index + Self.domainDistance, items.count - 1)], keys: &keys,
      streams: streams)
  }

  /// The number of the key of the item being handled, whose envelope is `envelope`, when it
  /// was found ahead.
  @inline(__always)
  func numberFound(for envelope: Envelope) -> Int? {
    let number = numbers[position & 15]
    guard number != ReplayKeys.noNumber, lines[position & 15] == envelope.line.baseAddress else {
      return nil
    }
    return number
  }

  /// The key the reading thread read for `item` of `batch`: `.some(nil)` for an item whose
  /// key is found in its turn, and `nil` when the reading thread read no keys.
  @inline(__always)
  private static func keyHint(
    of item: UnsafePointer<ReplayItem>, in batch: Unmanaged<ReplayBatch>
  ) -> ReplayKeys.Sought?? {
    batch._withUnsafeGuaranteedRef { batch in
      guard !batch.keyHints.isEmpty, let base = batch.items.baseAddress else { return nil }
      let index = item - base
      guard index >= 0, index < batch.keyHints.count else { return nil }
      return .some(batch.keyHints[index])
    }
  }

  /// The steps after the first.
  @inline(__always)
  private mutating func look(
    from index: Int, count: Int, twoAhead: UnsafePointer<ReplayItem>, keys: inout ReplayKeys?,
    streams: ReplayStreams
  ) {
    if index + Self.findDistance < count {
      find(position: index + Self.findDistance, keys: &keys, streams: streams)
    }
    if index + Self.domainsDistance < count {
      prefetchDomains(position: index + Self.domainsDistance, keys: keys, streams: streams)
    }
    if index + Self.domainDistance < count {
      prefetchDomain(of: twoAhead, position: index + Self.domainDistance, streams: streams)
    }
    position = index
  }

  /// The first look at an item several ahead: reads its key, unless the reading thread did
  /// (`hint`), and asks for its place in the table of keys early.
  @inline(never)
  private mutating func seek(
    _ item: UnsafePointer<ReplayItem>, position: Int, hint: ReplayKeys.Sought??,
    keys: inout ReplayKeys?, router: Router, share: Int?
  ) {
    var found: ReplayKeys.Sought?
    var line: UnsafePointer<UInt8>?
    switch item.pointee.kind {
    case .decoded(let envelope, _, _, _), .event(let envelope), .passedOver(let envelope, _, _):
      // Another kernel's event, in a pool, is left alone.
      if let share, share != Int(item.pointee.share) { break }
      if let hint {
        found = hint
      } else {
        let typeName = keys?.root == .type ? router.typeName(of: envelope) : ""
        found = keys?.sought(of: envelope, typeName: typeName)
      }
      if let found { keys?.prefetchSlot(of: found) }
      line = envelope.line.baseAddress
    default:
      break
    }
    sought[position & 15] = found
    lines[position & 15] = line
    numbers[position & 15] = ReplayKeys.noNumber
  }

  /// The second look: the key's place in the table has arrived; finds its number, if the key
  /// was seen before, and asks for its stream early.
  @inline(never)
  private mutating func find(position: Int, keys: inout ReplayKeys?, streams: ReplayStreams) {
    guard let found = sought[position & 15],
      let number = keys?.number(of: found), number + 1 < streams.count
    else { return }
    numbers[position & 15] = number
    streams.prefetch(number + 1)
    keys?.prefetchPlace(of: number)
  }

  /// The third look: the item's stream has arrived; asks for its list of domains.
  @inline(never)
  private func prefetchDomains(position: Int, keys: ReplayKeys?, streams: ReplayStreams) {
    let number = numbers[position & 15]
    guard number != ReplayKeys.noNumber, number + 1 < streams.count else { return }
    streams.prefetchDomainList(ofStream: number + 1)
    keys?.prefetchBytes(of: number)
    // The snapshot's text, when each event prints it: its places, then its bytes, a line at
    // a time, each array's header first: the text is changed in place, which reads it first.
    let text = streams.pointer(to: number + 1).pointee.textInMemory
    guard let bytes = text.bytes else { return }
    if let ranges = text.ranges {
      rasp_prefetch(ranges - ReplayStreams.arrayHeaderSize)
      rasp_prefetch(ranges)
    }
    rasp_prefetch(bytes - ReplayStreams.arrayHeaderSize)
    for offset in stride(from: 0, to: min(text.count, 1_024), by: 64) {
      rasp_prefetch(bytes + offset)
    }
  }

  /// The last look, just before the item: asks for the state of its event's domain.
  @inline(never)
  private func prefetchDomain(
    of item: UnsafePointer<ReplayItem>, position: Int, streams: ReplayStreams
  ) {
    let number = numbers[position & 15]
    guard number != ReplayKeys.noNumber, number + 1 < streams.count,
      case .decoded(_, let index, _, _) = item.pointee.kind
    else { return }
    streams.prefetchDomain(at: index, ofStream: number + 1)
  }
}
