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
/// - `drop`: types left out, counted in the summary (`["@@INIT", "@@redux/*"]`).
/// - `payload`, `time`, `source`: the paths of those fields (`data`, `meta.timestamp`), with
///   `|` between alternatives (`properties|traits`); `timeUnit`: `auto` (an RFC 3339 string or
///   a number of seconds), `rfc3339`, `s`, `ms`, `us` or `ns` (numbers, or digits in a string).
///
/// ```swift
/// var configuration = ReplayConfiguration(domains: domains)
/// configuration.format = LogFormat.preset(named: "fsa") ?? .rasp
/// ```
public struct LogFormat: Sendable {
  /// How a line's time is written.
  public enum TimeUnit: String, Sendable, CaseIterable {
    /// An RFC 3339 string, or a number of seconds (up to the year 5000: a larger number is
    /// taken for milliseconds written without a unit, and refused).
    case auto
    /// An RFC 3339 string.
    case rfc3339
    /// Seconds, milliseconds, microseconds or nanoseconds since the Unix epoch, as a number or
    /// as digits in a string.
    case s, ms, us, ns
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

  /// Whether this is rasp's own line, read by the envelope parser built for it.
  var isRasp: Bool { name == "rasp" }

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
      root = try JSONNode.read(bytes)
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
    source: [JSONPath]
  ) {
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
  }
}
