/// What the kernel writes for each event it applies, decided once from the configuration.
///
/// ``ReplayKernel/apply(_:item:writer:streams:listened:)`` writes the plain record inline and
/// returns at once when there is none to write; every other shape is
/// ``ReplayKernel/record(_:item:writer:)``'s.
///
/// ```swift
/// EventRecord(configuration, hidesTypes: false, hasRange: false, selection: nil)
/// // .snapshot for `rasp replay log.jsonl`, .none for `rasp replay --final log.jsonl`
/// ```
enum EventRecord: Equatable {
  /// The whole snapshot, alone: the common case.
  case snapshot
  /// None, and nothing to note for a later record: `--final` without a range, `--hide`, or
  /// the event's line kept for `--with-event` or a selection of it.
  case none
  /// The record ``ReplayKernel/record(_:item:writer:)`` writes, if any: a selection, a diff,
  /// a key's, or none for an event hidden or before `--since`.
  case written

  /// What `configuration` asks to write for each event: `hidesTypes` when `--hide` matches
  /// some type, `hasRange` with `--since`, `--until` or `--at`, `selection` its `--select`.
  init(
    _ configuration: ReplayConfiguration, hidesTypes: Bool, hasRange: Bool,
    selection: ReplaySelection?
  ) {
    if configuration.isFinal {
      let keepsEvent = configuration.includesEvent || selection?.isOfEvent == true
      self = hasRange || hidesTypes || keepsEvent ? .written : .none
    } else if configuration.selection == nil, configuration.emit != .diff,
      !configuration.includesEvent, configuration.keyPath == nil, !hidesTypes,
      configuration.since == nil
    {
      self = .snapshot
    } else {
      self = .written
    }
  }
}
