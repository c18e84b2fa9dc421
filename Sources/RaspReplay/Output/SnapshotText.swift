import RaspDomains
import RaspJSON

/// The canonical JSON of the current snapshot, kept up to date one domain at a time: the one
/// cache of snapshot bytes in a replay.
///
/// Printing a snapshot after every event is the common case, and most events change one domain
/// of several. The replay marks the domain an event changed; before the snapshot, or that
/// domain's part of it, is read again, only the changed domains are encoded again and spliced
/// into the text, and writing the whole snapshot is a single copy of bytes.
///
/// The text is made when it is first read: a replay that prints only its last snapshot encodes
/// each domain once, at the end.
///
/// ```swift
/// var text = SnapshotText()
/// try pipeline.send(routed)
/// text.markChanged(routed.domainIndex)
/// text.write(pipeline.current, to: &writer)   // {"geo":{…},"nav":{…}}
/// ```
///
/// A domain is encoded again at the end of a writer the caller lends, the one the record goes
/// to, and moved from there into the text: a keyed replay keeps a text per key, and room of
/// its own to encode in would be one more block of memory per key to wait for.
struct SnapshotText {
  /// The snapshot's JSON, `{"data":…,"geo":…,…}`, as of the last refresh.
  private(set) var bytes: [UInt8] = []
  /// Where each domain's state is in ``bytes``.
  private var ranges: [Range<Int>] = []
  /// Which domains changed since their part of the text was last encoded: a bit each for the
  /// first 64, kept in the text itself rather than in arrays of their own — a keyed replay
  /// keeps a text per key, and each array is one more place in memory to wait for.
  private var changedBits: UInt64 = 0
  /// The same for the domains after the first 64, and whether any of them changed.
  private var changedBeyond: [Bool] = []
  private var hasChangedBeyond = false
  /// Whether the text was made; until then, nothing is kept.
  private var isMade = false

  /// A text not made yet.
  init() {}

  /// The text of `state`, made now.
  init(_ state: SnapshotState) {
    self.init()
    make(state)
  }

  /// Encodes every domain of `state`.
  private mutating func make(_ state: SnapshotState) {
    isMade = true
    changedBits = 0
    changedBeyond = Array(repeating: false, count: max(0, state.domainCount - 64))
    hasChangedBeyond = false
    var noted: [Range<Int>]? = []
    var writer = JSONWriter()
    Self.encode(state, into: &writer, ranges: &noted)
    ranges = noted ?? []
    bytes = writer.bytes
  }

  /// Writes the canonical JSON of `state` and keeps nothing: for a snapshot written once, such
  /// as each key's with `--final`. Each domain changed since the text was made is encoded now,
  /// and the rest of the text copied; every domain is encoded when the text was not made.
  ///
  /// A keyed replay's keys start with the initial snapshot's text, made once and shared
  /// (``ReplayKernel``): the domains a key's events never changed are copied from it, together
  /// with the names and commas around them — one copy for each run of unchanged domains, since
  /// copying a few bytes costs nearly as much as copying a few hundred.
  func writeOnce(_ state: SnapshotState, to writer: inout JSONWriter) {
    guard isMade else {
      // No places noted: a list of them would be allocated, and grown, for each record.
      var none: [Range<Int>]? = nil
      return Self.encode(state, into: &writer, ranges: &none)
    }
    // Read through pointers: a slice of the text would retain it, and the two threads that
    // write `--final` records read the same shared text.
    bytes.withUnsafeBufferPointer { kept in
      ranges.withUnsafeBufferPointer { places in
        var copied = 0
        for index in places.indices where isChanged(index) {
          writer.writeRaw(UnsafeBufferPointer(rebasing: kept[copied..<places[index].lowerBound]))
          state.encodeState(ofDomainAt: index, into: &writer)
          copied = places[index].upperBound
        }
        writer.writeRaw(UnsafeBufferPointer(rebasing: kept[copied...]))
      }
    }
  }

  /// Writes `{"name":state,…}`, noting where each domain's state is in `ranges`, unless it is
  /// `nil`.
  private static func encode(
    _ state: SnapshotState, into writer: inout JSONWriter, ranges: inout [Range<Int>]?
  ) {
    let base = writer.bytes.count
    writer.writeRaw("{")
    for index in 0..<state.domainCount {
      if index > 0 { writer.writeRaw(",") }
      writer.writeKey(state.domainName(at: index))
      let start = writer.bytes.count
      state.encodeState(ofDomainAt: index, into: &writer)
      ranges?.append((start - base)..<(writer.bytes.count - base))
    }
    writer.writeRaw("}")
  }

  /// Where the text's bytes and its parts' places are in memory, for a keyed replay to ask
  /// for them before their turn (``ReplayStream/textInMemory``).
  var inMemory: (bytes: UnsafeRawPointer?, count: Int, ranges: UnsafeRawPointer?) {
    let (start, count) = bytes.withUnsafeBufferPointer {
      (UnsafeRawPointer($0.baseAddress), $0.count)
    }
    return (start, count, ranges.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
  }

  /// Records that an event changed the domain at `index`.
  @inline(__always)
  mutating func markChanged(_ index: Int) {
    guard isMade else { return }
    if index < 64 {
      changedBits |= 1 << UInt64(index)
    } else {
      changedBeyond[index - 64] = true
      hasChangedBeyond = true
    }
  }

  /// Whether the domain at `index` changed since its part was encoded.
  private func isChanged(_ index: Int) -> Bool {
    index < 64 ? changedBits & (1 << UInt64(index)) != 0 : changedBeyond[index - 64]
  }

  /// Brings the whole text up to date with `state` and appends it to `writer`.
  mutating func write(_ state: SnapshotState, to writer: inout JSONWriter) {
    if !isMade { make(state) }
    if changedBits != 0 || hasChangedBeyond { refreshAll(state, spare: &writer) }
    // From the buffer: the array itself, handed on, would be retained and released, two
    // atomic operations for every snapshot written.
    bytes.withUnsafeBufferPointer { writer.writeRaw($0) }
  }

  /// Brings the text up to date and appends it to `writer`, as ``write(_:to:)`` does, when the
  /// only domain changed since it was written is the one an event was just applied to
  /// (``SnapshotState/applied``): that domain is encoded through its slot, and no copy of the
  /// snapshot is needed. Returns `false`, writing nothing, in any other case.
  mutating func write(applied: SnapshotState.AppliedDomain, to writer: inout JSONWriter) -> Bool {
    let index = applied.index
    guard isMade, index < 64, changedBits == 1 << UInt64(index), !hasChangedBeyond else {
      return false
    }
    refresh(index, spare: &writer) { spare in
      applied.slot._withUnsafeGuaranteedRef { $0.encodeState(into: &spare) }
    }
    bytes.withUnsafeBufferPointer { writer.writeRaw($0) }
    return true
  }

  /// The JSON of the domain at `index`, brought up to date with `state` first.
  ///
  /// - Parameters:
  ///   - index: The domain's position in the snapshot.
  ///   - state: The state the text shows.
  ///   - spare: Where a changed domain is encoded before it is moved into the text;
  ///     left as it was.
  /// - Returns: The domain's JSON, without its name.
  mutating func domain(
    at index: Int, of state: SnapshotState, spare: inout JSONWriter
  ) -> ArraySlice<UInt8> {
    if !isMade { make(state) }
    if isChanged(index) { refresh(index, state, spare: &spare) }
    return bytes[ranges[index]]
  }

  /// Encodes every changed domain again.
  private mutating func refreshAll(_ state: SnapshotState, spare: inout JSONWriter) {
    while changedBits != 0 {
      refresh(changedBits.trailingZeroBitCount, state, spare: &spare)
    }
    if hasChangedBeyond {
      for index in changedBeyond.indices where changedBeyond[index] {
        refresh(index + 64, state, spare: &spare)
      }
      hasChangedBeyond = false
    }
  }

  /// Encodes the domain at `index` again, after the end of `spare`, and moves it into the
  /// text, leaving `spare` as it was.
  private mutating func refresh(_ index: Int, _ state: SnapshotState, spare: inout JSONWriter) {
    refresh(index, spare: &spare) { state.encodeState(ofDomainAt: index, into: &$0) }
  }

  /// ``refresh(_:_:spare:)`` with the domain's JSON written by `encode`.
  @inline(__always)
  private mutating func refresh(
    _ index: Int, spare: inout JSONWriter, encode: (inout JSONWriter) -> Void
  ) {
    if index < 64 {
      changedBits &= ~(1 << UInt64(index))
    } else {
      changedBeyond[index - 64] = false
    }
    let mark = spare.bytes.count
    encode(&spare)
    let count = spare.bytes.count - mark
    let old = ranges[index]
    spare.bytes.withUnsafeBufferPointer { encoded in
      let new = UnsafeBufferPointer(rebasing: encoded[mark...])
      if count == old.count {
        // As long as before, as a number of as many digits often is: copied over it in place.
        bytes.withUnsafeMutableBufferPointer {
          _ = UnsafeMutableBufferPointer(rebasing: $0[old]).update(fromContentsOf: new)
        }
      } else {
        bytes.replaceSubrange(old, with: new)
      }
    }
    spare.bytes.replaceSubrange(mark..<spare.bytes.count, with: EmptyCollection())
    ranges[index] = old.lowerBound..<old.lowerBound + count
    let delta = count - old.count
    guard delta != 0 else { return }
    for later in (index + 1)..<ranges.count {
      ranges[later] = ranges[later].lowerBound + delta..<ranges[later].upperBound + delta
    }
  }
}
