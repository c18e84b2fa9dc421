import RaspJSON

/// What the report takes from one `--with-event --emit diff` record: the patch, the event's
/// type and time, its place, and its key — read with a scanner that skips the event's payload
/// rather than building it.
///
/// ```swift
/// let record = try ReportRecord(bytes)   // {"diff":[…],"event":{…},"file":…,"line":3,"seq":3}
/// record.type   // "geo.heading"
/// ```
struct ReportRecord {
  /// The patch's operations.
  var operations: [JSONValue] = []
  /// The event's type.
  var type = ""
  /// The event's `ts`, as written.
  var time: JSONValue?
  /// The event's input, line and number.
  var file: String?
  var line: Int?
  var seq: Int?
  /// The event's key, in a keyed replay.
  var key: JSONValue?

  /// Reads a record.
  ///
  /// - Throws: ``RaspJSON/JSONError`` when the bytes are not JSON, which the replay's own
  ///   records always are.
  init(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
    var scanner = JSONScanner(bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
    var members = try scanner.beginObject()
    while let name = try scanner.nextMember(&members) {
      switch Self.name(name, in: bytes) {
      case "diff":
        if case .array(let list) = try scanner.readValue() { operations = list }
      case "event":
        var event = try scanner.beginObject()
        while let field = try scanner.nextMember(&event) {
          switch Self.name(field, in: bytes) {
          case "type":
            if case .string(let text) = try scanner.readValue() { type = text }
          case "ts":
            time = try scanner.readValue()
          default:
            _ = try scanner.skipValue()
          }
        }
      case "file":
        if case .string(let text) = try scanner.readValue() { file = text }
      case "line":
        line = try scanner.readNumber().integerValue.map { Int($0) }
      case "seq":
        seq = try scanner.readNumber().integerValue.map { Int($0) }
      case "key":
        key = try scanner.readValue()
      default:
        _ = try scanner.skipValue()
      }
    }
  }

  /// A member's name, when it is one the report reads; other names are not decoded.
  private static func name(_ raw: JSONRawString, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    let length = raw.end - raw.start
    guard !raw.hasEscapes, (2...5).contains(length) else { return "" }
    return String(
      decoding: UnsafeBufferPointer(rebasing: bytes[raw.start..<raw.end]), as: UTF8.self)
  }
}
