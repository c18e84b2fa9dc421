import RaspDomains
import RaspJSON

/// The `--select` stage: what a record's value is read from, and which events can change it.
///
/// A path that starts with a domain's name (`geo.heading`) reads that domain's text only, and
/// only an event of that domain can change its value once there is one; a path that starts
/// with `event` (`event.meta.user`) reads each event's line as written; any other path reads
/// the whole snapshot (and names no domain: it selects `null`). The values themselves are
/// read by ``SelectedValue``.
///
/// ```swift
/// let selection = ReplaySelection(try JSONPath("geo.heading"), snapshot: state)
/// selection.domain                                        // 0
/// selection.mayChange(domain: 1, hasSelected: true)       // false: a nav event
/// let value = selection.value(in: &text, state, spare: &writer)  // Array("271.5".utf8)
/// ```
struct ReplaySelection {
  /// The path.
  let path: JSONPath
  /// The domain the path starts with, or `nil` for the whole snapshot or the event.
  let domain: Int?
  /// Whether the path is a field of each event's line (`event.meta.user`), not of the
  /// snapshot.
  let isOfEvent: Bool
  /// The member of ``domain``'s state the path goes on with, when the domain reads it from
  /// its typed state (``RaspDomains/RaspMemberReading``): then the domain is not encoded to
  /// select it (`nav.tab`, `geo.location.latitude`).
  let member: RaspStateMember?
  /// Whether the value is ``member`` itself, nothing after it (`nav.tab`, not
  /// `nav.stack[0]`): the kernel reads it with ``memberValue(of:)``, and writes its JSON in a
  /// buffer it keeps and compares it there with the last one when it is not the last value.
  let isMember: Bool

  /// The selection of `path` in the snapshots of `snapshot`'s domains; `nil` for no path.
  init?(_ path: JSONPath?, snapshot: SnapshotState) {
    guard let path else { return nil }
    self.path = path
    let domain = path.firstKey.flatMap { snapshot.domainIndex(named: $0) }
    self.domain = domain
    isOfEvent = domain == nil && path.firstKey == ReplayConfiguration.eventRoot
    if let domain, path.components.count >= 2, case .key(let name) = path.components[1] {
      member = snapshot.member(named: name, ofDomainAt: domain)
    } else {
      member = nil
    }
    isMember = member != nil && SelectedValue.isMemberItself(path)
  }

  /// The value of ``member`` in `state`, read from the domain's typed state; `nil` without
  /// one.
  func memberValue(of state: SnapshotState) -> JSONValue? {
    guard let domain, let member else { return nil }
    return state.value(of: member, ofDomainAt: domain)
  }

  /// Whether an event of the domain numbered `index` can change the value: when the path
  /// reads that domain, or more than one, or nothing was selected since the last record.
  @inline(__always)
  func mayChange(domain index: Int, hasSelected: Bool) -> Bool {
    domain == nil || index == domain || !hasSelected
  }

  /// The value for the record of an event, whose line is `event`, in the state `state`,
  /// whose text is `text`.
  func value(
    event: UnsafeBufferPointer<UInt8>, text: inout SnapshotText, _ state: SnapshotState,
    spare: inout JSONWriter
  ) -> [UInt8] {
    isOfEvent
      ? SelectedValue.ofEvent(path, in: event)
      : SelectedValue.inSnapshot(
        path, domain: domain, member: member, text: &text, state, spare: &spare)
  }

  /// The value before any event, for the first diff: `null` for a path into the event.
  func initialValue(
    text: inout SnapshotText, _ state: SnapshotState, spare: inout JSONWriter
  ) -> [UInt8] {
    isOfEvent
      ? Array("null".utf8)
      : SelectedValue.inSnapshot(
        path, domain: domain, member: member, text: &text, state, spare: &spare)
  }
}
