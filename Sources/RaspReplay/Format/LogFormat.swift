import RaspDomains
import RaspJSON

/// Where a log's lines keep their event's type, time, payload and source, and how a foreign
/// type becomes a `domain.event` of rasp: `--log-format NAME` and `--map FILE`.
///
/// A format is a map file: a small JSON document that people can read, copy and edit. rasp's
/// own line, Redux actions, CloudEvents and Segment calls are presets — map files that ship
/// with rasp (``presets``) — and any other shape is a map file of the user's.
///
/// ```json
/// {"format": "fsa", "type": "{type}", "separator": "/", "payload": "payload",
///  "drop": ["@@INIT", "@@redux/*"]}
/// ```
///
/// The fields, each optional:
/// - `type`: a template of the line's fields, `{type}` by default; `{event|name}` takes the
///   first of the fields that is there (Segment: `{type}.{event|name|type}`).
/// - `separator` (`.`) and `split` (`first`, or `last`: the event is what follows the last
///   separator, and the domain the segment before it: `com.example.cart.add` → `cart.add`).
/// - `defaultDomain`: the domain of a type without a separator; without one, such a type is
///   a bad line.
/// - `rename`: `[{"from": "com.example.cart.*", "to": "cart.*"}]`, tried in order before the
///   split; `*` stands for any text, and the `to` side's `*` for what it stood for.
/// - `drop`: types left out, counted in the summary (`["@@INIT", "@@redux/*"]`); `keep`, its
///   complement: the types kept (`["geo.*"]`), or a test of the line's fields
///   (`{"class": "TPV"}`), every other line left out and counted.
/// - `emit`: the events of a line that holds several, each with its own `type`, `payload`
///   and `fields`: a gpsd report's position and course, `geo.location` then `geo.heading`.
/// - `ignoreLines`: lines that are not events, by their text (`["$*"]`, NMEA sentences),
///   left out and counted; `skipTo`: `{`, where a line's event starts after text of its
///   own (an OwnTracks Recorder's time and tab).
/// - `payload`, `time`, `source`: the paths of those fields (`data`, `meta.timestamp`), with
///   `|` between alternatives (`properties|traits`); `timeUnit`: `auto` (an RFC 3339 string or
///   a number of seconds), `rfc3339`, `s`, `ms`, `us` or `ns` (numbers, or digits in a string).
/// - `fields`: payload fields renamed or scaled before a domain reads them:
///   `[{"from": "latitudeE7", "to": "latitude", "scale": 1e-7}]`; `"absentIs": "skip"` and
///   `"skipIf": -1` say when the event is not emitted.
/// - `untyped`: `error` (the default) or `drop`: what becomes of an event that lacks every
///   field its type is made of.
/// - `events`: where a line keeps several events, a path with `[]` after each array: `[]`
///   (the line is an array of events), `batch[]`, `resourceLogs[].scopeLogs[].logRecords[]`.
/// - `inherit`: fields of a batch line that each of its events gets, merged under the event's
///   own (objects key by key): Segment's `["context", "integrations"]`.
/// - `decode`: `otlp` when each event is an OpenTelemetry log record, made plain JSON first.
/// - `inner` and `innerFormat`: the string field that holds the event's JSON text (a Kafka
///   message's `payload`), and the format that text is written in: a preset's name (`rasp`,
///   the default, `fsa`, …) or a map of its own (`{"type": "{event}", "payload": "."}`), which
///   says where the event keeps its type and payload. The outer map's `time` and `source` are
///   then the message's, for events without their own.
/// - `document`: `devtools` when each input is one Redux DevTools export, a JSON document
///   whose actions are the events (``DevToolsExport``), read with the rest of the map.
///
/// ```swift
/// var configuration = ReplayConfiguration(domains: domains)
/// configuration.format = LogFormat.preset(named: "fsa") ?? .rasp
/// ```
public struct LogFormat: Sendable {
  /// How a line's time is written.
  public enum TimeUnit: String, Sendable, CaseIterable {
    /// An RFC 3339 string, or a number of seconds (up to the year 5138: a larger number is
    /// taken for milliseconds written without a unit, and refused).
    case auto
    /// An RFC 3339 string.
    case rfc3339
    /// Seconds, milliseconds, microseconds or nanoseconds since the Unix epoch, as a number or
    /// as digits in a string.
    case s, ms, us, ns
  }

  /// How each event of a line is written, when it is not plain JSON.
  enum Decoding: String, Sendable, CaseIterable {
    /// An OpenTelemetry log record in OTLP/JSON, made plain JSON first (``OTLPLogRecord``).
    case otlp
  }

  /// What each input is, when it is one JSON document rather than lines: a map's `document`.
  ///
  /// ```swift
  /// LogFormat.preset(named: "devtools")?.document   // .devtools
  /// ```
  public enum Document: String, Sendable, CaseIterable {
    /// A Redux DevTools export (``DevToolsExport``): its actions, one line each.
    case devtools
  }

  /// How a type is split into domain and event.
  enum Split: String, Sendable, CaseIterable {
    /// At the first separator: the domain is before it, the event the rest.
    case first
    /// At the last separator: the event follows it, the domain is the segment before it.
    case last
  }

  /// The format's name, as `--log-format` takes it: `fsa`.
  ///
  /// ```swift
  /// LogFormat.rasp.name   // "rasp"
  /// ```
  public let name: String
  /// One sentence saying which logs it reads, for `rasp formats`.
  ///
  /// ```swift
  /// LogFormat.rasp.summary   // "rasp's own lines: …"
  /// ```
  public let summary: String
  /// The map file's text, as `rasp formats NAME` prints it.
  ///
  /// ```swift
  /// print(LogFormat.rasp.text)
  /// ```
  public let text: String

  let type: TypeTemplate
  let separator: [UInt8]
  let split: Split
  let defaultDomain: String?
  let renames: [(from: TypeGlob, to: String)]
  let drops: [TypeGlob]
  let payload: [JSONPath]
  let time: [JSONPath]
  let timeUnit: TimeUnit
  let source: [JSONPath]
  /// Whether an event without the fields its type is made of is dropped (and counted), rather
  /// than a bad line: OpenTelemetry's plain log records, beside its events.
  let dropsUntyped: Bool
  /// The string field that holds each line's event as JSON text, and the format that event
  /// is written in: a Kafka message's `payload`, as `kcat -J` writes it.
  let inner: InnerEvents?
  /// Where a nested event's time is read when it has none of its own — the message's — and
  /// in which unit (see ``nested(under:in:)``).
  let fallbackTime: [JSONPath]
  let fallbackTimeUnit: TimeUnit
  /// Payload fields renamed or scaled before a domain reads them, if any.
  let fieldMoves: PayloadFieldMoves?
  /// Where a line keeps several events, if it may.
  let events: EventsPath?
  /// The types kept, as the log writes them (a map's `keep` as a list); every other is
  /// dropped. Empty: every type not in ``drops``.
  let keptTypes: [TypeGlob]
  /// The line's fields and the values one of which each must have for its events to be
  /// kept (a map's `keep` as an object: `{"class": "TPV"}`).
  let keptFields: [(path: JSONPath, values: [JSONValue])]
  /// The events each line makes, in order, each read with its own format (a map's `emit`);
  /// empty for one event a line.
  let emits: [LogFormat]
  /// Lines that are not events, by their text: left out, and counted (a map's
  /// `ignoreLines`).
  let ignoredLines: [TypeGlob]
  /// The byte a line's event starts at, after text of the line's own (a map's `skipTo`).
  let skipTo: UInt8?
  /// The fields of a batch line that each of its events gets, under its own (`inherit`).
  let inherited: [String]
  /// How each event is written, when it is not plain JSON.
  let decoding: Decoding?

  /// What each input is, when it is one document: its events are then the lines that
  /// document makes (``DevToolsExport/lines``), read with this format.
  ///
  /// ```swift
  /// LogFormat.rasp.document   // nil
  /// ```
  public let document: Document?

  /// Whether this is rasp's own line, read by the envelope parser built for it: the preset
  /// ``rasp`` only, never a map file, whatever its name.
  let isRasp: Bool

  /// Reads a map file.
  ///
  /// Every mistake is reported, with its place: unknown keys (with the nearest known one),
  /// values of the wrong kind, templates, globs and paths that do not parse.
  ///
  /// ```swift
  /// let format = try LogFormat(mapFile: Array(text.utf8), name: "mine")
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The map file's text.
  ///   - name: The name to use when the file has no `format`.
  /// - Throws: ``RaspDomains/RaspSpecError`` with every problem, in document order.
  public init(mapFile bytes: [UInt8], name: String) throws(RaspSpecError) {
    var reader = LogFormatReader(bytes: bytes)
    let root: JSONNode
    do {
      root = try JSONNode.read(file: bytes)
    } catch {
      throw RaspSpecError(problems: [
        reader.problem(at: error.offset, path: nil, error.reason.description)
      ])
    }
    self = try reader.read(root, defaultName: name, text: String(decoding: bytes, as: UTF8.self))
  }

  /// A format from checked parts.
  init(
    name: String, summary: String, text: String, type: TypeTemplate, separator: [UInt8],
    split: Split, defaultDomain: String?, renames: [(from: TypeGlob, to: String)],
    drops: [TypeGlob], payload: [JSONPath], time: [JSONPath], timeUnit: TimeUnit,
    source: [JSONPath], dropsUntyped: Bool = false, events: EventsPath? = nil,
    inherited: [String] = [], decoding: Decoding? = nil, inner: InnerEvents? = nil,
    fallbackTime: [JSONPath] = [], fallbackTimeUnit: TimeUnit = .auto,
    fieldMoves: PayloadFieldMoves? = nil, document: Document? = nil, isRasp: Bool = false,
    keptTypes: [TypeGlob] = [], keptFields: [(path: JSONPath, values: [JSONValue])] = [],
    emits: [LogFormat] = [], ignoredLines: [TypeGlob] = [], skipTo: UInt8? = nil
  ) {
    self.isRasp = isRasp
    self.keptTypes = keptTypes
    self.keptFields = keptFields
    self.emits = emits
    self.ignoredLines = ignoredLines
    self.skipTo = skipTo
    self.document = document
    self.name = name
    self.summary = summary
    self.text = text
    self.type = type
    self.separator = separator
    self.split = split
    self.defaultDomain = defaultDomain
    self.renames = renames
    self.drops = drops
    self.payload = payload
    self.time = time
    self.timeUnit = timeUnit
    self.source = source
    self.dropsUntyped = dropsUntyped
    self.events = events
    self.inherited = inherited
    self.decoding = decoding
    self.inner = inner
    self.fallbackTime = fallbackTime
    self.fallbackTimeUnit = fallbackTimeUnit
    self.fieldMoves = fieldMoves
  }

  /// The format the lines' events are read with: this one, or for a format whose events are
  /// JSON text in a string (``inner``), its inner format under that string's path.
  var effective: LogFormat {
    guard let inner else { return self }
    return inner.format.nested(under: inner.path, in: self)
  }

  /// This format, for events found at `path` of the lines of `outer`: each path is prefixed
  /// with `path`; the outer line's time and source stand in for an event without its own.
  func nested(under path: JSONPath, in outer: LogFormat) -> LogFormat {
    func prefixed(_ paths: [JSONPath]) -> [JSONPath] {
      paths.map { JSONPath(components: path.components + $0.components) }
    }
    let parts = type.parts.map { part -> TypeTemplate.Part in
      if case .field(let paths) = part { return .field(prefixed(paths)) }
      return part
    }
    return LogFormat(
      name: outer.name, summary: outer.summary, text: outer.text, type: TypeTemplate(parts: parts),
      separator: separator, split: split, defaultDomain: defaultDomain, renames: renames,
      drops: drops, payload: prefixed(payload), time: prefixed(time), timeUnit: timeUnit,
      source: prefixed(source) + outer.source, dropsUntyped: dropsUntyped,
      fallbackTime: outer.time, fallbackTimeUnit: outer.timeUnit,
      fieldMoves: outer.fieldMoves ?? fieldMoves, document: outer.document,
      keptTypes: keptTypes, keptFields: keptFields.map { (prefixed([$0.path])[0], $0.values) })
  }

  /// The format of one of a line's events (a map's `emit`): this one with the event's own
  /// type, and its payload and fields where it has them.
  func emitting(type: TypeTemplate, payload: [JSONPath]?, fieldMoves: PayloadFieldMoves?)
    -> LogFormat
  {
    LogFormat(
      name: name, summary: summary, text: text, type: type, separator: separator, split: split,
      defaultDomain: defaultDomain, renames: renames, drops: drops,
      payload: payload ?? self.payload, time: time, timeUnit: timeUnit, source: source,
      dropsUntyped: dropsUntyped, fieldMoves: fieldMoves ?? self.fieldMoves,
      keptTypes: keptTypes, keptFields: keptFields, ignoredLines: ignoredLines, skipTo: skipTo)
  }
}

/// Where a format's lines hold their event as JSON text in a string — a Kafka message's
/// `payload` — and the format of that event: a map's `inner` and `innerFormat`.
final class InnerEvents: Sendable {
  /// The string field.
  let path: JSONPath
  /// The format of the event it holds.
  let format: LogFormat

  init(path: JSONPath, format: LogFormat) {
    self.path = path
    self.format = format
  }
}
