import RaspDomains
import RaspJSON

/// What a replay applies and what it yields: the domains, the record each event produces, and
/// what to do with bad lines.
///
/// The defaults are those of `rasp replay` without options: every snapshot, of the given
/// domains, stopping at the first bad line.
///
/// ```swift
/// var configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
/// configuration.selection = try JSONPath("geo.heading")
/// configuration.errorMode = .skip
/// ```
public struct ReplayConfiguration {
  /// What to do with a bad line.
  ///
  /// ```swift
  /// configuration.errorMode = .skip   // report each bad line and go on
  /// ```
  public enum ErrorMode: String, Sendable {
    /// Stop at the first bad line, after every record before it.
    case fail
    /// Report each bad line and go on.
    case skip
  }

  /// What each record holds.
  ///
  /// ```swift
  /// configuration.emit = .diff   // [{"op":"replace","path":"/geo/heading","value":273}]
  /// ```
  public enum Emit: String, Sendable {
    /// The whole snapshot (or the selected value).
    case snapshot
    /// An RFC 6902 JSON Patch from the previous record's value to this one's.
    case diff
  }

  /// How the work of reading one log is spread over threads. Every way yields the same
  /// outcomes; only the speed differs.
  package enum Threading: Sendable {
    /// Read ahead on a second thread, and decode a share of the lines there, adjusted so that
    /// neither thread waits for the other (``DecodeShare``).
    case automatic
    /// Everything on the calling thread.
    case single
    /// Read and parse envelopes on a second thread; decode and apply on the calling one.
    case readAhead
    /// Read, parse and decode on a second thread; apply on the calling one.
    case decodeAhead
  }

  /// The path of each event's key, for a keyed replay (`--key-by`): each key has its own state
  /// of every domain, as if its events were replayed alone; records say their key
  /// (`{"key":…,"state":…}`), and `--final` writes one per key, in key order. `nil` replays
  /// one stream.
  ///
  /// ```swift
  /// configuration.keyPath = try JSONPath("payload.deviceId")
  /// ```
  public var keyPath: JSONPath?
  /// How many threads apply the events of a keyed replay (``keyPath``), each the events of a
  /// share of the keys. What the replay yields is the same byte for byte for every number; a
  /// replay without keys applies its events on one thread whatever the number.
  ///
  /// ```swift
  /// configuration.jobs = 2   // on two cores
  /// ```
  public var jobs = 1

  /// Whether several inputs are read one after another, as the parts of one log (rotated
  /// files, a recorder's parts), instead of merged by their events' `ts`.
  ///
  /// ```swift
  /// configuration.concatenatesInputs = true   // session.jsonl, then session.1.jsonl
  /// ```
  public var concatenatesInputs = false

  /// The domains in the snapshot, in any order: the snapshot orders them by name.
  ///
  /// ```swift
  /// configuration.domains = [NavDomain(), GeoDomain()]   // {"geo":{…},"nav":{…}}
  /// ```
  public var domains: [any RaspDomain]
  /// Domains known but left out of the snapshot: their events are counted as ignored
  /// (``ReplayStatistics/otherDomain``) rather than as of unknown type.
  ///
  /// ```swift
  /// configuration.excludedDomains = [RestDomain()]   // rest.* events: of another domain
  /// ```
  public var excludedDomains: [any RaspDomain] = []
  /// The path of the value each record holds instead of the whole snapshot, such as
  /// `geo.heading` or `rest.links|length`; a record is then yielded only when the value
  /// changes. Its first key must be a domain's name.
  ///
  /// A path with jq's filters (parsed with `allowsFilters`) may select several values, with
  /// `[]`: a record then holds them one per line, compared as a whole, and none when there are
  /// none (`[]` of an empty array). Such a path is for records that are the value alone: not
  /// with ``includesEvent``, ``keyPath`` or ``Emit/diff``, which wrap or diff one value.
  ///
  /// ```swift
  /// configuration.selection = try JSONPath("nav.stack[-1]")
  /// configuration.selection = try JSONPath("nav.stack[]", allowsFilters: true)
  /// ```
  public var selection: JSONPath?
  /// Whether to yield only one record, after the last event.
  ///
  /// ```swift
  /// configuration.isFinal = true   // one record: the state after the whole log
  /// ```
  public var isFinal = false
  /// Whether to wrap each record with the event that produced it:
  /// `{"event":…,"file":…,"line":…,"seq":…,"state":…}` (`value` with a selection, `diff` with
  /// ``Emit/diff``).
  ///
  /// ```swift
  /// configuration.includesEvent = true
  /// ```
  public var includesEvent = false
  /// With ``includesEvent``, whether each record's event is the event as rasp read it, in
  /// rasp's own format — `{"payload":…,"ts":…,"type":"domain.event"}`, the time in RFC 3339 —
  /// rather than as the log wrote it: what a Redux DevTools export (`--emit devtools`) makes its
  /// actions of, and what a report reads each event's type and time from, whatever the log's
  /// format (`--log-format`, `--map`). Records of every event, with or without a
  /// ``selection`` or ``keyPath``: not with ``isFinal``.
  ///
  /// ```swift
  /// configuration.format = LogFormat.preset(named: "cloudevents")!
  /// configuration.includesEvent = true
  /// configuration.includesEventAsRead = true
  /// // "event":{"payload":{"sku":"A-1"},"ts":"2026-11-22T09:30:00Z","type":"cart.add"}
  /// ```
  public var includesEventAsRead = false
  /// What each record holds.
  ///
  /// ```swift
  /// configuration.emit = .diff
  /// ```
  public var emit = Emit.snapshot
  /// With ``Emit/diff``, whether to leave out the records of events that changed nothing.
  ///
  /// ```swift
  /// configuration.changesOnly = true   // no `[]` records
  /// ```
  public var changesOnly = false
  /// Patterns of event types, `*` for any text (`nav.*`, `geo.heading`), whose events are not
  /// applied: the state is what it is without them, and they write no record (`--drop`, as
  /// Redux DevTools' "skip"). Counted in ``ReplayStatistics/droppedByOption``, among the
  /// ignored. Their lines must still be JSON, but their payloads are not decoded, as for an
  /// event of a domain left out.
  ///
  /// A pattern matches a type as rasp names it, `domain.event` (after a map file's `rename`),
  /// and is matched once per type the domains define, not per event.
  ///
  /// ```swift
  /// configuration.droppedTypes = ["nav.*"]   // the state without any nav event
  /// ```
  public var droppedTypes: [String] = []
  /// Patterns of event types, as ``droppedTypes``, whose events are applied but write no
  /// record (`--hide`, as Redux DevTools' "hide"); a type both match is dropped. Counted in
  /// ``ReplayStatistics/hidden``, among the applied.
  ///
  /// The next record written holds the state after every event applied so far, hidden ones
  /// included: a selected value is compared with the last one written, and a diff is from the
  /// last record written, so that applying the diffs in order rebuilds each state written.
  /// `--final` writes what it does without them: the state after the last event.
  ///
  /// ```swift
  /// configuration.hiddenTypes = ["geo.heading"]   // applied, never printed
  /// ```
  public var hiddenTypes: [String] = []
  /// Where records start: the events before it are applied, so that the state is right, but
  /// write no record, as if ``hiddenTypes`` matched them (`--since`). The first record written
  /// holds the state after all of them: a selected value is written whatever it was, and a
  /// diff is from the initial state. Counted in ``ReplayStatistics/beforeSince``.
  ///
  /// ```swift
  /// configuration.since = .event(10)   // records from the 10th event on
  /// ```
  public var since: ReplayPosition?
  /// Where the replay stops reading, after the event there, whose record is written
  /// (`--until`): after the event numbered so, after the line, or before the first line whose
  /// time is past the time. Nothing after it is read or counted.
  ///
  /// ```swift
  /// configuration.until = .line(input: 0, line: 12)   // lines 1 to 12
  /// ```
  public var until: ReplayPosition?
  /// The position whose state is the one record (`--at`): ``until`` with ``isFinal``, which
  /// the replay sets. Before the first event, the record is the initial state.
  ///
  /// ```swift
  /// configuration.at = .time(try RaspTimestamp(rfc3339: "2026-11-22T09:30:00Z"))
  /// ```
  public var at: ReplayPosition?
  /// Whether to yield ``ReplayOutcome/ignored(_:)`` for each line not applied that is not bad
  /// either: an event of unknown type, of a domain left out, or dropped by the log format or
  /// ``droppedTypes``. Off, they are only counted (``ReplayStatistics/ignored``).
  ///
  /// ```swift
  /// configuration.reportsIgnoredLines = true   // rasp report lists them
  /// ```
  public var reportsIgnoredLines = false
  /// Whether an event of unknown type is a bad line rather than ignored.
  ///
  /// ```swift
  /// configuration.isStrict = true   // zzz.event: a bad line
  /// ```
  public var isStrict = false
  /// What to do with bad lines.
  ///
  /// ```swift
  /// configuration.errorMode = .skip
  /// ```
  public var errorMode = ErrorMode.fail
  /// How the logs' lines are written: rasp's own format by default, a preset
  /// (``LogFormat/preset(named:)``) or a map file of the user's.
  ///
  /// ```swift
  /// configuration.format = LogFormat.preset(named: "cloudevents") ?? .rasp
  /// ```
  public var format = LogFormat.rasp
  /// The first key of a ``selection`` that reads each event's line, as written, rather than
  /// the snapshot: `event.meta.user`, `event.source` (when no domain is named `event`).
  ///
  /// ```swift
  /// configuration.selection = try JSONPath("\(ReplayConfiguration.eventRoot).meta.user")
  /// ```
  public static let eventRoot = "event"
  /// Where a request to stop comes from (Ctrl-C), if anywhere.
  ///
  /// ```swift
  /// configuration.interruption = interruption   // its request(signal:) stops the replay
  /// ```
  public var interruption: ReplayInterruption?
  /// Where the replay counts what it has read, for a progress display; `nil` (no counting)
  /// by default.
  ///
  /// ```swift
  /// configuration.progress = ReplayProgress(totalBytes: size)
  /// ```
  public var progress: ReplayProgress?
  /// Yield a ``ReplayOutcome/checkpoint(_:)`` at the first line boundary after every this many
  /// events applied; `nil` (the default) for none along the way.
  ///
  /// A replay that yields checkpoints applies its events on one thread, whatever ``jobs``
  /// says.
  ///
  /// ```swift
  /// configuration.checkpointInterval = 1_000_000
  /// ```
  public var checkpointInterval: Int?
  /// Yield a ``ReplayOutcome/checkpoint(_:)`` at the end — after the last line, or where
  /// `--until` or a request to stop ended the replay, but not after a bad line that stopped
  /// it — before the `--final` records and ``ReplayOutcome/end(_:)``.
  ///
  /// ```swift
  /// configuration.checkpointsAtEnd = true
  /// ```
  public var checkpointsAtEnd = false
  /// How the work is spread over threads.
  package var threading = Threading.automatic
  /// What sees the state after every event applied (`rasp check --assert`), or `nil`. With
  /// one, a keyed replay's kernel runs on one thread, whatever ``jobs``.
  package var stateObserver: (any ReplayStateObserver)?
  /// Whether the records are thrown away, the ``stateObserver`` being what the replay is for
  /// (`rasp check --assert` without a golden file, `rasp find`): then the events of domains
  /// the observer reads nothing of are passed over (``DomainDemand``).
  package var discardsRecords = false

  /// A configuration with the defaults.
  ///
  /// ```swift
  /// let configuration = ReplayConfiguration(domains: [GeoDomain()])
  /// ```
  ///
  /// - Parameter domains: The domains in the snapshot.
  public init(domains: [any RaspDomain]) {
    self.domains = domains
  }
}
