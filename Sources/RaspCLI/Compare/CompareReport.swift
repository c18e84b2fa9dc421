import RaspJSON
import RaspReplay

/// The report of `rasp compare`: one entry per log, in the order the logs were given (a
/// directory's in name order), as text for people or one JSON document for tools, and the
/// one-line summary for standard error.
///
/// The text gives each log's verdict on one line; a divergent log's line is followed by the
/// event as rasp read it and a tree of the states after it, `-` the old version's and `+` the
/// new one's, only the unintended differences expanded and everything else collapsed, as
/// `rasp check` shows a snapshot that differs from its golden line:
///
/// ```
/// logs/b.jsonl: divergent at event 3 (logs/b.jsonl:3):
///   event {"payload":{"price":20,"sku":"A-1"},"ts":"2026-11-22T10:01:00Z","type":"cart.remove"}
///   {
///     "cart": {
/// -     "total": 5.5,
/// +     "total": 25.5,
///       ... (2 unchanged)
///     }
///   }
/// logs/c.jsonl: identical
/// ```
///
/// The JSON report has `logs`, each with `file` and `status` (`identical`, `allowed`,
/// `divergent`, `failed`, `interrupted`) and what that status has; `domains`, the domains only
/// one version has; and the counts of the summary.
struct CompareReport {
  /// One log and its verdict.
  struct Entry {
    let file: String
    let verdict: LogVerdict
  }

  let entries: [Entry]
  /// The domains only the old version has, and only the new one.
  let onlyOld: [String]
  let onlyNew: [String]
  /// What to ignore and how close numbers must be, for the trees.
  let options: JSONDiffOptions
  /// Whether the replays are keyed, so that a divergence names its key.
  let isKeyed: Bool

  /// How many logs have each status.
  var counts: (identical: Int, allowed: Int, divergent: Int, failed: Int, interrupted: Int) {
    var counts = (identical: 0, allowed: 0, divergent: 0, failed: 0, interrupted: 0)
    for entry in entries {
      switch entry.verdict {
      case .identical: counts.identical += 1
      case .allowed: counts.allowed += 1
      case .divergent: counts.divergent += 1
      case .failed: counts.failed += 1
      case .interrupted: counts.interrupted += 1
      }
    }
    return counts
  }

  /// The line about domains only one version has, or `nil` when both have the same.
  var domainsLine: String? {
    guard !onlyOld.isEmpty || !onlyNew.isEmpty else { return nil }
    func list(_ names: [String]) -> String {
      names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
    return "domains only in the old version: \(list(onlyOld)); only in the new version: "
      + "\(list(onlyNew))"
  }

  /// The report for people: lines ending in `\n`.
  var text: String {
    var lines: [String] = domainsLine.map { [$0] } ?? []
    for entry in entries {
      switch entry.verdict {
      case .identical:
        lines.append("\(entry.file): identical")
      case .allowed(let events):
        lines.append("\(entry.file): only allowed differences (\(events))")
      case .failed(let reason):
        lines.append("\(entry.file): error: \(reason)")
      case .interrupted:
        lines.append("\(entry.file): not compared to its end: interrupted")
      case .divergent(let divergence):
        lines += text(of: divergence)
      }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  /// A divergence's lines: where, the event, what each version did, the tree.
  private func text(of divergence: Divergence) -> [String] {
    var head = "\(divergence.file): divergent at event \(divergence.event) "
    if let (position, path) = divergence.place {
      head += "(\(divergence.file):\(position), at \(path))"
    } else {
      head += "(\(divergence.file):\(divergence.line))"
    }
    if isKeyed, divergence.keys == nil {
      head += ", key " + String(decoding: divergence.key ?? Array("null".utf8), as: UTF8.self)
    }
    var lines = [head + ":"]
    if let event = divergence.eventAsRead {
      lines.append("  event " + String(decoding: event, as: UTF8.self))
    }
    if let keys = divergence.keys {
      lines.append("- key " + String(decoding: keys.old, as: UTF8.self))
      lines.append("+ key " + String(decoding: keys.new, as: UTF8.self))
    }
    for (sign, name, side) in [("-", "old", divergence.old), ("+", "new", divergence.new)] {
      switch side {
      case .rejected(let diagnostic):
        lines.append("\(sign) the \(name) version rejects it: \(diagnostic)")
      case .ignored where divergence.old.rejection != nil || divergence.new.rejection != nil:
        lines.append("\(sign) the \(name) version ignores it")
      case .ended where divergence.old.rejection != nil || divergence.new.rejection != nil:
        lines.append("\(sign) the \(name) version had stopped before it")
      default:
        break
      }
    }
    if let old = divergence.oldState, let new = divergence.newState {
      var shown = options
      shown.ignoring += divergence.allowedDifferences.map(\.path)
      let tree = JSONDiffReport.render(expected: old, actual: new, options: shown)
      if !tree.isEmpty { lines.append(tree) }
    }
    return lines
  }

  /// The report for tools: one canonical JSON document and a line end.
  var json: [UInt8] {
    var report = JSONObject()
    report["domains"] = .object(
      JSONObject(sortedMembers: [
        ("new", .array(onlyNew.map { .string($0) })),
        ("old", .array(onlyOld.map { .string($0) })),
      ]))
    report["logs"] = .array(entries.map(json))
    let counts = self.counts
    report["compared"] = .number(JSONNumber(entries.count))
    report["identical"] = .number(JSONNumber(counts.identical))
    report["allowed"] = .number(JSONNumber(counts.allowed))
    report["divergent"] = .number(JSONNumber(counts.divergent))
    report["failed"] = .number(JSONNumber(counts.failed + counts.interrupted))
    var writer = JSONWriter()
    writer.write(.object(report))
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  private func json(_ entry: Entry) -> JSONValue {
    var object = JSONObject()
    object["file"] = .string(entry.file)
    switch entry.verdict {
    case .identical:
      object["status"] = "identical"
    case .allowed(let events):
      object["status"] = "allowed"
      object["events"] = .number(JSONNumber(events))
    case .failed(let reason):
      object["status"] = "failed"
      object["error"] = .string(reason)
    case .interrupted:
      object["status"] = "interrupted"
    case .divergent(let divergence):
      object["status"] = "divergent"
      object["divergence"] = json(divergence)
    }
    return .object(object)
  }

  private func json(_ divergence: Divergence) -> JSONValue {
    func parsed(_ bytes: [UInt8]?) -> JSONValue {
      bytes.flatMap { try? JSONParser.parse($0) } ?? .null
    }
    func side(_ side: Divergence.Side) -> JSONValue {
      var object = JSONObject()
      switch side {
      case .applied(let seq):
        object["did"] = "applied"
        object["seq"] = .number(JSONNumber(seq))
      case .ignored: object["did"] = "ignored"
      case .ended: object["did"] = "stopped"
      case .rejected(let diagnostic):
        object["did"] = "rejected"
        object["error"] = .string(diagnostic.description)
      }
      return .object(object)
    }
    var object = JSONObject()
    object["event"] = .number(JSONNumber(divergence.event))
    object["file"] = .string(divergence.file)
    if let (position, path) = divergence.place {
      object["line"] = .number(JSONNumber(position.line))
      object["column"] = .number(JSONNumber(position.column))
      object["path"] = .string(path)
    } else {
      object["line"] = .number(JSONNumber(divergence.line))
    }
    object["key"] = parsed(divergence.key)
    object["eventAsRead"] = parsed(divergence.eventAsRead)
    object["old"] = side(divergence.old)
    object["new"] = side(divergence.new)
    if let keys = divergence.keys {
      object["keys"] = .object(
        JSONObject(sortedMembers: [("new", parsed(keys.new)), ("old", parsed(keys.old))]))
    }
    object["differences"] = .array(divergence.differences.map(ComparisonReport.operation))
    return .object(object)
  }

  /// The one-line summary for standard error: `rasp: 812 logs: 809 identical, 3 divergent`,
  /// with the logs that differ only as allowed and those not compared when there are any.
  var summary: String {
    let counts = self.counts
    var parts = ["\(counts.identical) identical"]
    if counts.allowed > 0 { parts.append("\(counts.allowed) with only allowed differences") }
    parts.append("\(counts.divergent) divergent")
    if counts.failed > 0 { parts.append("\(counts.failed) failed") }
    if counts.interrupted > 0 { parts.append("\(counts.interrupted) interrupted") }
    return "rasp: \(ComparisonReport.count(entries.count, "log")): "
      + parts.joined(separator: ", ") + "\n"
  }
}
