import RaspDomains
import RaspJSON

/// The value a `--select` path picks, as canonical JSON: from the snapshot, or from the event's
/// line (`--select event.meta.user`).
///
/// A path that leads nowhere selects `null`; a path that ends in `|length` selects a count;
/// a path with filters (`nav.stack[]`) selects its values, one per line. The snapshot's value
/// is read from the domain's typed state when the path goes on with a member the domain reads
/// there (``RaspDomains/RaspMemberReading``: `nav.tab`), and otherwise from its text
/// (``SnapshotText``), of one domain when the path starts with one (only that domain is
/// encoded, when it changed), of the whole snapshot otherwise.
///
/// ```swift
/// let heading = SelectedValue.inSnapshot(
///   path, domain: 0, member: heading, text: &text, snapshot, spare: &writer)  // "271.5"
/// let user = SelectedValue.ofEvent(path, in: line)            // Array("\"ada\"".utf8)
/// ```
enum SelectedValue {
  /// The canonical JSON of the value at `path` — after its first key, `event` — in an event's
  /// line as written; `null` when the line has none there.
  static func ofEvent(_ path: JSONPath, in event: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    guard path.isLocatable else {
      return (try? path.selectedLines(in: event, droppingFirst: 1)) ?? Array("null".utf8)
    }
    switch try? path.locate(in: event, droppingFirst: 1) {
    case .value(let range)?:
      guard let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: event[range])) else {
        return Array(event[range])
      }
      var writer = JSONWriter()
      writer.write(value)
      return writer.bytes
    case .length(let count)?: return Array(String(count).utf8)
    case .missing?, nil: return Array("null".utf8)
    }
  }

  /// Whether `path` selects the member it goes on with itself, as its domain's JSON holds it
  /// (`nav.tab`), and nothing after it or from it (`nav.stack[0]`, `nav.stack|length`).
  static func isMemberItself(_ path: JSONPath) -> Bool {
    path.components.count == 2 && path.filters.isEmpty
  }

  /// Writes the canonical JSON of `member` of the domain at `index` in `state` at the end of
  /// `writer`, read from the domain's typed state.
  static func writeMember(
    _ member: RaspStateMember, ofDomainAt index: Int, in state: SnapshotState,
    into writer: inout JSONWriter
  ) {
    writer.write(state.value(of: member, ofDomainAt: index))
  }

  /// The canonical JSON of what `path` selects in the snapshot `state`, whose text is `text`:
  /// after its first key when `domain` is the domain it starts with, from the top otherwise;
  /// after its second when `member` is the member of the domain it goes on with, read from the
  /// domain's typed state without encoding the rest of it.
  ///
  /// `spare` lends the room a changed domain is encoded in, and is left as it was.
  static func inSnapshot(
    _ path: JSONPath, domain: Int?, member: RaspStateMember?, text: inout SnapshotText,
    _ state: SnapshotState, spare: inout JSONWriter
  ) -> [UInt8] {
    let part: ArraySlice<UInt8>
    let dropped: Int
    if let domain, let member {
      var writer = JSONWriter(capacity: 64)
      writeMember(member, ofDomainAt: domain, in: state, into: &writer)
      if isMemberItself(path) { return writer.bytes }
      part = writer.bytes[...]
      dropped = 2
    } else if let domain {
      part = text.domain(at: domain, of: state, spare: &spare)
      dropped = 1
    } else {
      var writer = JSONWriter()
      text.write(state, to: &writer)
      part = writer.bytes[...]
      dropped = 0
    }
    guard path.isLocatable else {
      return part.withUnsafeBufferPointer { buffer in
        (try? path.selectedLines(in: buffer, droppingFirst: dropped)) ?? Array("null".utf8)
      }
    }
    let location = part.withUnsafeBufferPointer { buffer in
      try? path.locate(in: buffer, droppingFirst: dropped)
    }
    switch location {
    case .value(let range)?:
      return Array(
        part[(part.startIndex + range.lowerBound)..<(part.startIndex + range.upperBound)])
    case .length(let count)?: return Array(String(count).utf8)
    case .missing?, nil: return Array("null".utf8)
    }
  }
}
