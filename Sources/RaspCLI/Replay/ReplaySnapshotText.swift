import RaspDomains
import RaspJSON

/// The canonical JSON of the current snapshot, kept up to date one domain at a time.
///
/// Printing a snapshot after every event is the common case, and most events change one domain
/// of several. The replay marks the domain an event changed; before the next snapshot is
/// written, only that domain's JSON is encoded again and spliced into the text, and writing the
/// snapshot is then a single copy of bytes.
struct ReplaySnapshotText {
  /// The snapshot's JSON: `{"data":…,"geo":…,…}`.
  private(set) var bytes: [UInt8] = []
  /// Where each domain's state is in ``bytes``.
  private var ranges: [Range<Int>] = []
  /// The domains changed since the text was last brought up to date.
  private var changed: [Int] = []
  private var isChanged: [Bool]

  /// Encodes every domain of `state`.
  init(_ state: RaspSnapshotState) {
    let names = state.domainNames
    isChanged = Array(repeating: false, count: names.count)
    var writer = JSONWriter()
    writer.writeRaw("{")
    for (index, name) in names.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeKey(name)
      let start = writer.bytes.count
      writer.writeRaw(state.encodedState(ofDomainAt: index))
      ranges.append(start..<writer.bytes.count)
    }
    writer.writeRaw("}")
    bytes = writer.bytes
  }

  /// Records that an event changed the domain at `index`.
  @inline(__always)
  mutating func markChanged(_ index: Int) {
    if !isChanged[index] {
      isChanged[index] = true
      changed.append(index)
    }
  }

  /// Brings the text up to date with `state` and appends it to `writer`.
  mutating func write(_ state: RaspSnapshotState, to writer: inout JSONWriter) {
    if !changed.isEmpty { refresh(state) }
    writer.writeRaw(bytes)
  }

  /// Encodes the changed domains again and splices them into the text.
  private mutating func refresh(_ state: RaspSnapshotState) {
    for index in changed {
      isChanged[index] = false
      let old = ranges[index]
      let text = state.encodedState(ofDomainAt: index)
      bytes.replaceSubrange(old, with: text)
      ranges[index] = old.lowerBound..<old.lowerBound + text.count
      let delta = text.count - old.count
      if delta != 0 {
        for later in (index + 1)..<ranges.count {
          ranges[later] = ranges[later].lowerBound + delta..<ranges[later].upperBound + delta
        }
      }
    }
    changed.removeAll(keepingCapacity: true)
  }
}
