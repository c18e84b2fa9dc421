import RaspDomains
import RaspJSON

/// The count of every line a replay read, so that nothing is lost silently.
///
/// Every line read is exactly one of: applied (hidden ones, `--hide`, and those before
/// `--since` among them), skipped (a bad line, reported; when it stops the replay it is the
/// last line read), ignored (an event of unknown type, of a domain left out, of a type the log
/// format or `--drop` drops) or blank: `read == applied + skipped + ignored + blank`.
/// Lines after `--until` are not read.
///
/// ```swift
/// statistics.summary   // rasp: 12 lines read: 9 applied, 1 skipped, 1 ignored, 1 blank
/// ```
public struct ReplayStatistics: Sendable, Equatable {
  /// An event of unknown type, for the warning about them.
  ///
  /// ```swift
  /// statistics.firstUnknown?.type   // "zzz.event"
  /// ```
  public struct UnknownType: Sendable, Equatable {
    /// Its type, such as `zzz.event`.
    public let type: String
    /// The name of its input, such as `events.jsonl`.
    public let inputName: String
    /// Its line in its input.
    public let line: Int
    /// The nearest type of its domain, when the domain is known (`geo.heading` for
    /// `geo.headin`).
    public var nearest: String?
  }

  /// A payload field that an event's type does not define, for the warning about it: the
  /// first event of its type that has it.
  ///
  /// ```swift
  /// statistics.unknownFields.first?.field   // "payload.acuracy"
  /// ```
  public struct UnknownField: Sendable, Equatable {
    /// The event's type, such as `geo.location`.
    public let type: String
    /// The field's path, such as `payload.acuracy`.
    public let field: String
    /// The name of the event's input, such as `events.jsonl`.
    public let inputName: String
    /// The event's line in its input.
    public let line: Int
    /// The column of the field's key in the line.
    public let column: Int
    /// The type's field nearest to it (`payload.accuracy`), if one is near.
    public let nearest: String?
  }

  /// How many ``unknownFields`` are kept: the events of further ones are counted in
  /// ``withUnknownField`` only.
  public static let unknownFieldLimit = 20

  /// Lines read.
  ///
  /// ```swift
  /// statistics.read   // 12
  /// ```
  public internal(set) var read = 0
  /// Events applied to the snapshot.
  ///
  /// ```swift
  /// statistics.applied   // 9
  /// ```
  public internal(set) var applied = 0
  /// Bad lines reported and skipped.
  ///
  /// ```swift
  /// statistics.skipped   // 1
  /// ```
  public internal(set) var skipped = 0
  /// Events of a type no domain defines.
  ///
  /// ```swift
  /// statistics.unknownType   // 1
  /// ```
  public internal(set) var unknownType = 0
  /// Events of a type the log's format drops (a map file's `drop`, such as Redux's `@@INIT`).
  ///
  /// ```swift
  /// statistics.dropped   // 1
  /// ```
  public internal(set) var dropped = 0
  /// Events of a type `--drop` matches (``ReplayConfiguration/droppedTypes``), not applied.
  ///
  /// ```swift
  /// statistics.droppedByOption   // 2
  /// ```
  public internal(set) var droppedByOption = 0
  /// Events of a type `--hide` matches (``ReplayConfiguration/hiddenTypes``): applied, and
  /// counted in ``applied`` too, but without a record.
  ///
  /// ```swift
  /// statistics.hidden   // 3
  /// ```
  public internal(set) var hidden = 0
  /// Actions of a Redux DevTools export that its `skippedActionIds` skips: each a line read,
  /// and ignored (``DevToolsExport/skippedCount``).
  ///
  /// ```swift
  /// statistics.skippedInExport   // 1
  /// ```
  public internal(set) var skippedInExport = 0
  /// Events of a domain left out of the snapshot.
  ///
  /// ```swift
  /// statistics.otherDomain   // 0
  /// ```
  public internal(set) var otherDomain = 0
  /// Lines of whitespace only.
  ///
  /// ```swift
  /// statistics.blank   // 1
  /// ```
  public internal(set) var blank = 0
  /// Lines that held a batch of events (a CloudEvents batch, an OTLP request), each counted
  /// once in ``read``; their events are counted in ``applied``, ``skipped`` and ``ignored``.
  ///
  /// ```swift
  /// statistics.batchLines   // 2
  /// ```
  public internal(set) var batchLines = 0
  /// The events those batch lines held.
  ///
  /// ```swift
  /// statistics.batchEvents   // 11
  /// ```
  public internal(set) var batchEvents = 0
  /// The first event of unknown type.
  ///
  /// ```swift
  /// statistics.firstUnknown?.line   // 4
  /// ```
  public internal(set) var firstUnknown: UnknownType?
  /// Events applied with a payload field that their type does not define (outside
  /// `--strict`, where such an event is a bad line): the field is ignored, and counted in
  /// ``applied`` too.
  ///
  /// ```swift
  /// statistics.withUnknownField   // 1
  /// ```
  public internal(set) var withUnknownField = 0
  /// The first event of each type and unknown payload field, in the order the replay came to
  /// them, at most ``unknownFieldLimit``.
  ///
  /// ```swift
  /// statistics.unknownFields.map(\.field)   // ["payload.acuracy"]
  /// ```
  public internal(set) var unknownFields: [UnknownField] = []
  /// Events before ``ReplayConfiguration/since``: applied, and counted in ``applied`` too,
  /// but without a record.
  ///
  /// ```swift
  /// statistics.beforeSince   // 9
  /// ```
  public internal(set) var beforeSince = 0
  /// Events of domains the output does not show (``ReplayConfiguration/selection`` of
  /// another domain): counted in ``applied`` too, their payloads checked to be JSON, but
  /// neither decoded against their types nor applied, as nothing printed depends on them.
  ///
  /// ```swift
  /// statistics.passedOver   // 16, for --select nav.tab
  /// ```
  public internal(set) var passedOver = 0
  /// Whether ``passedOver`` counts the events of domains that assertions or `rasp find`'s
  /// expression do not read, rather than those of domains `--select` does not read.
  ///
  /// ```swift
  /// statistics.passesOverForObserver   // true, for rasp check --assert '.geo.heading < 360'
  /// ```
  public internal(set) var passesOverForObserver = false
  /// The option that stopped the reading before the inputs' end, `--until` or `--at`; `nil`
  /// when it did not.
  ///
  /// ```swift
  /// statistics.stoppingOption   // "--until"
  /// ```
  public internal(set) var stoppingOption: String?
  /// In a keyed replay, how many keys there are, `null` among them when some event had none.
  public internal(set) var keys = 0
  /// In a keyed replay, how many events had no value at the key's path: their key is `null`.
  public internal(set) var withoutKey = 0
  /// In a replay with a range (`--since`, `--until`, `--at`), the earliest time of the lines it
  /// came to, the one `--until` stopped before among them; `nil` when none had a time.
  ///
  /// ```swift
  /// statistics.earliestTime?.description   // "2026-11-22T09:00:00Z"
  /// ```
  public internal(set) var earliestTime: RaspTimestamp?
  /// In a replay with a range, the latest time of the lines it came to; `nil` when none had
  /// a time.
  ///
  /// ```swift
  /// statistics.latestTime?.description   // "2026-11-22T09:00:05Z"
  /// ```
  public internal(set) var latestTime: RaspTimestamp?

  /// Notes that the replay came to a line of `time`, for ``earliestTime`` and ``latestTime``.
  mutating func noteTime(_ time: RaspTimestamp) {
    if earliestTime.map({ time < $0 }) ?? true { earliestTime = time }
    if latestTime.map({ time > $0 }) ?? true { latestTime = time }
  }

  /// Statistics of nothing read.
  ///
  /// ```swift
  /// ReplayStatistics().read   // 0
  /// ```
  public init() {}

  /// Adds the counts of `other`, a replay of other keys (``KernelPool``); the first event of
  /// unknown type and the ``unknownFields`` are the caller's to choose.
  mutating func add(_ other: ReplayStatistics) {
    read += other.read
    applied += other.applied
    skipped += other.skipped
    unknownType += other.unknownType
    dropped += other.dropped
    droppedByOption += other.droppedByOption
    hidden += other.hidden
    beforeSince += other.beforeSince
    passedOver += other.passedOver
    passesOverForObserver = passesOverForObserver || other.passesOverForObserver
    otherDomain += other.otherDomain
    skippedInExport += other.skippedInExport
    blank += other.blank
    batchLines += other.batchLines
    batchEvents += other.batchEvents
    keys += other.keys
    withoutKey += other.withoutKey
    withUnknownField += other.withUnknownField
    if let time = other.earliestTime { noteTime(time) }
    if let time = other.latestTime { noteTime(time) }
  }

  /// Events ignored, for any reason.
  ///
  /// ```swift
  /// statistics.ignored   // unknownType + otherDomain + dropped + droppedByOption
  /// ```
  public var ignored: Int {
    unknownType + otherDomain + dropped + droppedByOption + skippedInExport
  }

  /// Counts actions that a DevTools export skips (``DevToolsExport/skippedCount``) as lines
  /// read and ignored: the replay never sees them.
  ///
  /// ```swift
  /// statistics.addSkippedInExport(export.skippedCount)
  /// ```
  ///
  /// - Parameter count: How many actions the export skips.
  public mutating func addSkippedInExport(_ count: Int) {
    read += count
    skippedInExport += count
  }

  /// The summary line, with its line end.
  ///
  /// ```swift
  /// statistics.summary   // rasp: 12 lines read: 9 applied, 1 skipped, 1 ignored, 1 blank
  /// ```
  public var summary: String {
    var ignoredText = "\(ignored) ignored"
    var reasons: [String] = []
    if unknownType > 0 { reasons.append("\(unknownType) of unknown type") }
    if otherDomain > 0 { reasons.append("\(otherDomain) of other domains") }
    if dropped > 0 { reasons.append("\(dropped) dropped by the log format") }
    if droppedByOption > 0 { reasons.append("\(droppedByOption) dropped by --drop") }
    if skippedInExport > 0 { reasons.append("\(skippedInExport) skipped in the export") }
    if !reasons.isEmpty { ignoredText += " (" + reasons.joined(separator: ", ") + ")" }
    var lines = read == 1 ? "1 line read" : "\(read) lines read"
    if let stoppingOption { lines += " (stopped at \(stoppingOption))" }
    if batchLines > 0 {
      let batches = batchLines == 1 ? "1 of them a batch" : "\(batchLines) of them batches"
      let events = batchEvents == 1 ? "1 event" : "\(batchEvents) events"
      lines += ", \(batches) of \(events)"
    }
    var appliedText = "\(applied) applied"
    var notes: [String] = []
    if keys > 0 {
      appliedText += " to \(keys == 1 ? "1 key" : "\(keys) keys")"
      if withoutKey > 0 {
        notes.append(
          "\(withoutKey == 1 ? "1 event" : "\(withoutKey) events") without one, under null")
      }
    }
    if withUnknownField > 0 {
      notes.append(
        withUnknownField == 1
          ? "1 event's unknown payload field ignored"
          : "\(withUnknownField) events' unknown payload fields ignored")
    }
    if beforeSince > 0 { notes.append("\(beforeSince) before --since") }
    if hidden > 0 { notes.append("\(hidden) hidden by --hide") }
    if passedOver > 0 {
      let reader = passesOverForObserver ? "the expressions do" : "--select does"
      notes.append("\(passedOver) of domains \(reader) not read, not decoded")
    }
    if !notes.isEmpty { appliedText += " (" + notes.joined(separator: "; ") + ")" }
    return
      "rasp: \(lines): \(appliedText), \(skipped) skipped, \(ignoredText), "
      + "\(blank) blank\n"
  }

  /// The warning about a payload field that its type does not define, one for each type and
  /// field, naming the first event that has it at `place` (`events.jsonl:2:87`, or the place
  /// of an action in a DevTools export).
  ///
  /// ```swift
  /// statistics.unknownFieldWarning(statistics.unknownFields[0], at: "events.jsonl:2:87")
  /// // rasp: warning: unknown field 'payload.acuracy' of 'geo.location' ignored, first at
  /// // events.jsonl:2:87 (did you mean 'payload.accuracy'?); --strict makes this an error
  /// ```
  ///
  /// - Parameters:
  ///   - field: One of ``unknownFields``.
  ///   - place: Where its event is.
  /// - Returns: The warning, with its line end.
  public func unknownFieldWarning(_ field: UnknownField, at place: String) -> String {
    let near = field.nearest.map { " (did you mean '\(JSONError.abbreviated($0))'?)" } ?? ""
    return "rasp: warning: unknown field '\(JSONError.abbreviated(field.field))' of "
      + "'\(JSONError.abbreviated(field.type))' ignored, first at \(place)\(near); --strict "
      + "makes this an error\n"
  }

  /// The warning that more payload fields were unknown than ``unknownFieldLimit`` warnings
  /// name, or `nil` when there were no more.
  public var moreUnknownFieldsWarning: String? {
    guard unknownFields.count >= Self.unknownFieldLimit else { return nil }
    return "rasp: warning: more unknown payload fields may have been ignored than the "
      + "\(Self.unknownFieldLimit) named; --strict makes the first an error\n"
  }

  /// The warning about ignored events of unknown type, or `nil` when there were none.
  ///
  /// ```swift
  /// statistics.unknownTypeWarning
  /// // rasp: warning: 1 event of unknown type ignored, the first 'zzz.event' at a.jsonl:4; …
  /// ```
  public var unknownTypeWarning: String? {
    guard let first = firstUnknown else { return nil }
    return unknownTypeWarning(at: "\(first.inputName):\(first.line)")
  }

  /// The warning about ignored events of unknown type, naming the first one's place as the
  /// caller knows it (an action of a DevTools export, rather than the line it made), or `nil`
  /// when there were none.
  ///
  /// ```swift
  /// statistics.unknownTypeWarning(at: #"session.json:12:7 (actionsById["3"].action)"#)
  /// ```
  ///
  /// - Parameters:
  ///   - place: Where the first event of unknown type is.
  ///   - hint: What to do, after the place: `--strict` by default.
  /// - Returns: The warning, with its line end.
  public func unknownTypeWarning(
    at place: String, hint: String = "use --strict to reject them"
  ) -> String? {
    guard let first = firstUnknown else { return nil }
    let count = unknownType == 1 ? "1 event" : "\(unknownType) events"
    let type = JSONError.abbreviated(first.type)
    let near = first.nearest.map { " (did you mean '\($0)'?)" } ?? ""
    return "rasp: warning: \(count) of unknown type ignored, the first '\(type)' at "
      + "\(place)\(near); \(hint)\n"
  }
}
