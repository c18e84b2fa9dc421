import RaspJSON

/// An assertion that stopped holding at an event, or that the last state does not satisfy:
/// what the report says of it.
struct AssertionViolation {
  /// A path the assertion reads, and its values before the event and after it.
  struct PathValues {
    /// The path, as jq spells it (`.cart.total`).
    let path: String
    /// Its value before the event; `nil` for a final assertion, or when it could not be
    /// read.
    let before: JSONValue?
    /// Its value after the event; `nil` when it could not be read.
    let after: JSONValue?
  }

  /// The assertion as written.
  let assertion: String
  /// Whether it is an `--assert-final`.
  let isFinal: Bool
  /// The event's number (the last event of its key for a final assertion), or `nil` when no
  /// event was applied.
  let seq: Int?
  /// The event's file and line, when there is an event.
  let file: String?
  let line: Int?
  /// The event's key under `--key-by`, or `nil`.
  let key: JSONValue?
  /// The event as read, or `nil`.
  let event: JSONValue?
  /// The paths the assertion reads.
  let paths: [PathValues]
  /// The whole state after the event, when asked for (`rasp find --with-state`).
  var state: JSONValue? = nil

  /// The violation as one JSON object, for `--format json`.
  var json: JSONValue {
    var object = JSONObject()
    object["assertion"] = .string(assertion)
    object["final"] = .bool(isFinal)
    object["seq"] = seq.map { .number(JSONNumber($0)) } ?? .null
    object["file"] = file.map { .string($0) } ?? .null
    object["line"] = line.map { .number(JSONNumber($0)) } ?? .null
    object["key"] = key ?? .null
    object["event"] = event ?? .null
    object["paths"] = .array(
      paths.map { path in
        var member = JSONObject()
        member["path"] = .string(path.path)
        if !isFinal { member["before"] = path.before ?? .null }
        member["after"] = path.after ?? .null
        return .object(member)
      })
    return .object(object)
  }

  /// The violation as lines for people: what failed where, the event, then each path's
  /// value, `-` before and `+` after when the event changed it, once when it did not.
  var text: String {
    var place: [String] = []
    if let seq { place.append("event \(seq)") }
    if let file, let line { place.append("\(file):\(line)") }
    if let key { place.append("key \(PredicateExpression.text(of: key))") }
    let placeText = place.isEmpty ? "" : " (" + place.joined(separator: ", ") + ")"
    var lines: [String]
    if isFinal {
      lines = ["final assertion failed: \(assertion)\(placeText)"]
    } else {
      lines = ["assertion failed: \(assertion)\(placeText)"]
      if let event { lines.append("  event: \(PredicateExpression.text(of: event))") }
    }
    for path in paths {
      let after = path.after.map(PredicateExpression.text) ?? "(cannot be read)"
      if isFinal || path.before == path.after {
        lines.append("    \(path.path): \(after)")
      } else {
        let before = path.before.map(PredicateExpression.text) ?? "(cannot be read)"
        lines.append("  - \(path.path): \(before)")
        lines.append("  + \(path.path): \(after)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
