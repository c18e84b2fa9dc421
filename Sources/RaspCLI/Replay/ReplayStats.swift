import RaspJSON

/// The count of every line a replay read, so that nothing is lost silently.
///
/// Every line read is exactly one of: applied, skipped (a bad line, reported; with
/// `--on-error fail` it is the last line read), ignored (an event of unknown type, or of a
/// domain left out with `--domain`) or blank: `read == applied + skipped + ignored + blank`.
struct ReplayStats: Equatable {
  /// Lines read.
  var read = 0
  /// Events applied to the snapshot.
  var applied = 0
  /// Bad lines reported and skipped.
  var skipped = 0
  /// Events of a type no domain defines.
  var unknownType = 0
  /// Events of a domain left out of the snapshot with `--domain`.
  var otherDomain = 0
  /// Lines of whitespace only.
  var blank = 0
  /// The first event of unknown type: its type, file and line.
  var firstUnknown: (type: String, file: String, line: Int)?

  /// Events ignored, for either reason.
  var ignored: Int { unknownType + otherDomain }

  static func == (a: ReplayStats, b: ReplayStats) -> Bool {
    (a.read, a.applied, a.skipped, a.unknownType, a.otherDomain, a.blank)
      == (b.read, b.applied, b.skipped, b.unknownType, b.otherDomain, b.blank)
  }

  /// The summary line: `rasp: 12 lines read: 9 applied, 1 skipped, 1 ignored, 1 blank`.
  var summary: String {
    var ignoredText = "\(ignored) ignored"
    var reasons: [String] = []
    if unknownType > 0 { reasons.append("\(unknownType) of unknown type") }
    if otherDomain > 0 { reasons.append("\(otherDomain) of other domains") }
    if !reasons.isEmpty { ignoredText += " (" + reasons.joined(separator: ", ") + ")" }
    let lines = read == 1 ? "1 line" : "\(read) lines"
    return "rasp: \(lines) read: \(applied) applied, \(skipped) skipped, \(ignoredText), \(blank) blank\n"
  }

  /// The warning about ignored events of unknown type, or `nil` when there were none.
  var unknownTypeWarning: String? {
    guard let first = firstUnknown else { return nil }
    let count = unknownType == 1 ? "1 event" : "\(unknownType) events"
    return "rasp: warning: \(count) of unknown type ignored, the first '\(JSONError.abbreviated(first.type))' at \(first.file):\(first.line); use --strict to reject them\n"
  }
}
