import RaspDomains
import RaspJSON

/// The message of a bad line: what is wrong, at which column of the line as the log wrote it.
///
/// A line that is not JSON is reported at its first syntax error, as a JSON parser reports it
/// (jq, Python's `json`), whatever else is wrong with it: the fast readers of the replay's path
/// stop at the first thing they cannot use, which may come before a syntax error later in the
/// line (a payload that is a string, in `"payload":"a":1}`), or read past a closing bracket they
/// were not looking for (`{]` where a key belongs). Only bad lines are read again, so the good
/// ones pay nothing for it. A line with text before its event (a map's `skipTo`) is JSON from
/// there on.
///
/// The column is the line's own: an event that is a member of a batch line (`at
/// batch[2]: …`) or emitted by a map (`at emit[1]: …`) is placed in its line by its
/// ``EventOrigin``, and a field a map renamed is named as the line names it, at its place. In a
/// keyed replay, the key whose state refused the event ends the message.
///
/// ```swift
/// let report = BadLineReport(format: .rasp, inputNames: ["a.jsonl"])
/// let diagnostic = report.diagnostic(
///   error, line: bytes, input: 0, lineNumber: 3, origin: EventOrigin(), key: nil)
/// print(diagnostic)  // a.jsonl:3:12: …
/// ```
struct BadLineReport {
  /// The log's format, for its `skipTo`, members and emits, and fields it moves.
  let format: LogFormat
  /// The inputs' names, by number.
  let inputNames: [String]

  /// The diagnostic of `item`'s line for `error`.
  func diagnostic(
    _ error: RaspEventError, item: ReplayItem, origin: EventOrigin, key: ArraySlice<UInt8>?
  ) -> ReplayDiagnostic {
    diagnostic(
      error, line: item.bytes, input: item.input, lineNumber: item.lineNumber, origin: origin,
      key: key)
  }

  /// The diagnostic of line `lineNumber` of input `input`, whose bytes are `line`, for
  /// `error`, whose offset is in the event `origin` places in the line.
  func diagnostic(
    _ error: RaspEventError, line: UnsafeBufferPointer<UInt8>, input: Int, lineNumber: Int,
    origin: EventOrigin, key: ArraySlice<UInt8>?
  ) -> ReplayDiagnostic {
    var checked = line
    if let skipTo = format.skipTo, let start = checked.firstIndex(of: skipTo) {
      checked = UnsafeBufferPointer(rebasing: checked[start...])
    }
    var error = Self.firstSyntaxError(in: checked, instead: error) ?? error
    var offset = origin.lineOffset(of: error.offset ?? 0, in: line)
    if let named = namingMovedField(in: error, origin: origin, line: line) {
      error = named.error
      offset = named.lineOffset ?? offset
    }
    let column = JSONTextPosition(offset: offset, in: line).column
    var reason = error.description
    if origin.isMember, let path = format.events {
      reason = "at \(path.member(origin.indices)): " + reason
    } else if origin.isMember, !format.emits.isEmpty {
      reason = "at emit[\(origin.indices.0)]: " + reason
    }
    if let key {
      // The key as it prints in a record's "key", cut short when long.
      let text = String(decoding: key, as: UTF8.self)
      reason += " (key \(text.count > 60 ? text.prefix(57) + "..." : text))"
    }
    return ReplayDiagnostic(
      input: input, inputName: inputNames[input], line: lineNumber, column: column,
      reason: reason)
  }

  /// An error in a payload whose fields the map moved (`fields`), naming the field as the
  /// line names it, at its place in the line; `nil` for a format that moves none.
  private func namingMovedField(
    in error: RaspEventError, origin: EventOrigin, line: UnsafeBufferPointer<UInt8>
  ) -> (error: RaspEventError, lineOffset: Int?)? {
    let emit = format.emits.isEmpty ? nil : Int(origin.indices.0)
    let moving =
      emit.flatMap { format.emits.indices.contains($0) ? format.emits[$0] : nil }
      ?? format.effective
    guard let moves = moving.fieldMoves else { return nil }
    let payload = moving.payload.first?.description ?? "payload"
    return moves.naming(error, payload: payload, at: origin.movedPayload, in: line)
  }

  /// The first place where a bad line is not valid JSON, found by the strict parser, when it
  /// is not where `reported` is; `nil` when the line is valid JSON, too long to read, or wrong
  /// where `reported` says (whose reason, naming the field, says more).
  static func firstSyntaxError(
    in line: UnsafeBufferPointer<UInt8>, instead reported: RaspEventError
  ) -> RaspEventError? {
    if case .syntax(.lineTooLong) = reported.reason { return nil }
    do {
      _ = try JSONParser.parse(line)
      return nil
    } catch {
      guard error.offset != reported.offset else { return nil }
      return RaspEventError(offset: error.offset, reason: .syntax(error.reason))
    }
  }
}
