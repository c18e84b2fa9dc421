/// The shapes of line `rasp-bench generate --format` writes the benchmark's events in: rasp's
/// own, and those of other tools that `rasp replay --log-format` reads.
///
/// Every format carries the same events; only the layout of a line differs. The other formats
/// are written by ``BenchLogConverter`` from rasp's own line, so that each holds exactly what
/// rasp's line holds (FSA has no place for the source, and leaves it out):
///
/// | Format        | A line                                                                  |
/// |---------------|-------------------------------------------------------------------------|
/// | `rasp`        | `{"ts":"T","source":"S","type":"D.E","payload":P}`                      |
/// | `fsa`         | `{"type":"D/E","payload":P,"meta":{"timestamp":"T"}}`                   |
/// | `cloudevents` | `{"specversion":"1.0","id":"N","source":"S","type":"com.example.D.E",`  |
/// |               | `"time":"T","datacontenttype":"application/json","data":P}`             |
/// | `kcat`        | `{"topic":"events","partition":0,"offset":O,"tstype":"create","ts":M,`  |
/// |               | `"broker":1,"key":"S","payload":"L"}`                                   |
///
/// A line without a payload has no `payload` (FSA), or no `data` and `datacontenttype`
/// (CloudEvents); `N` is the line's number, from 1, and `O` from 0. A Kafka message holds
/// rasp's whole line `L` as a JSON string, and its time `T` as `M`, milliseconds since the epoch.
///
/// ```swift
/// BenchLogFormat(rawValue: "fsa")?.rewriteProgram   // "fsa-to-rasp.jq"
/// ```
enum BenchLogFormat: String, CaseIterable {
  /// rasp's own lines, as ``BenchLogGenerator`` writes them.
  case rasp
  /// Redux and Flux Standard Actions, `rasp replay --log-format fsa`.
  case fsa
  /// CloudEvents 1.0 in structured JSON mode, `rasp replay --log-format cloudevents`.
  case cloudevents
  /// Kafka messages as `kcat -C -J` prints them, `rasp replay --log-format kcat`.
  case kcat

  /// The formats other than rasp's own, which the formats benchmark compares with it.
  static let others = allCases.filter { $0 != .rasp }

  /// The names, quoted and separated by commas, for messages: `'rasp', 'fsa', 'cloudevents', …`.
  static func quotedNames(_ formats: [BenchLogFormat] = allCases) -> String {
    formats.map { "'\($0.rawValue)'" }.joined(separator: ", ")
  }

  /// What the format is, for the report's headings.
  var title: String {
    switch self {
    case .rasp: "rasp's own lines"
    case .fsa: "Redux / Flux Standard Actions"
    case .cloudevents: "CloudEvents 1.0, structured JSON"
    case .kcat: "Kafka messages as kcat -C -J prints them"
    }
  }

  /// The file name of the jq program in `fixtures/bench` that rewrites a line of this format
  /// into rasp's own line.
  var rewriteProgram: String { rawValue + "-to-rasp.jq" }
}
