import RaspJSON
import RaspReplay

/// `rasp shrink` of a Redux DevTools export (`--log-format devtools`): the search goes over
/// the lines the export makes, one per staged action, and the result is the export again,
/// with the kept actions only (``DevToolsExport/edited(_:_:)``).
///
/// A lifted state's first action, `@@INIT`, is kept whatever the search finds: DevTools takes
/// the first staged action for it. With `--payloads`, an action is shrunk as it is written in
/// the export, without the `meta.timestamp` its line has from the entry's `timestamp`, and
/// written back in its place as plain JSON.
///
/// ```swift
/// let devTools = try ShrinkDevTools(bytes: bytes, name: "session.json")
/// let log = ShrinkLog(bytes: devTools.lines, pinned: devTools.pinnedLines)
/// let shrunk = try devTools.export(keeping: [0, 4], actions: [:])
/// ```
struct ShrinkDevTools {
  /// The export, read.
  let document: ImportedDocument
  /// How many of the first lines every candidate keeps: 1 for a lifted state's `@@INIT`.
  let pinnedLines: Int

  /// Reads the export.
  ///
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` at the place of
  ///   the mistake, for a file that is not an export.
  init(bytes: [UInt8], name: String) throws(RaspCommandError) {
    document = try ImportedDocument.read(bytes, name: name)
    let export = document.export
    pinnedLines =
      export.shape == .liftedState && export.places.first?.type == "@@INIT" ? 1 : 0
  }

  /// The lines the export makes, as `rasp replay --log-format devtools` reads them.
  var lines: [UInt8] { document.export.lines }

  /// The export of the lines at `kept` (positions in ``lines``, ascending), with the actions
  /// of `actions` (by line) written as they say.
  ///
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` when a `$jsan`
  ///   reference of the export leads into itself.
  func export(keeping kept: [Int], actions: [Int: JSONValue]) throws(RaspCommandError)
    -> [UInt8]
  {
    var edit = DevToolsExportEdit()
    edit.keptLines = Array(Set(kept + Array(0..<pinnedLines))).sorted()
    for (line, action) in actions {
      var writer = JSONWriter()
      writer.write(action)
      edit.actions[line] = writer.bytes
    }
    do {
      return try document.export.edited(document.bytes, edit)
    } catch {
      let place = error.position(in: document.bytes)
      throw .invalidFile(
        document.name, line: place.line, column: place.column, path: error.path,
        reason: error.reason)
    }
  }

  /// A line's event as the action written in the export: without the `meta.timestamp` that
  /// the line has from the entry's `timestamp` (and without `meta`, then empty).
  func action(ofLine line: Int, _ value: JSONValue) -> JSONValue {
    guard line < document.export.places.count, document.export.places[line].timestamp != nil,
      case .object(var object) = value, case .object(var meta)? = object["meta"]
    else { return value }
    meta["timestamp"] = JSONValue?.none
    object["meta"] = meta.isEmpty ? JSONValue?.none : .object(meta)
    return .object(object)
  }

  /// The line an action written in the export makes: with its entry's `timestamp` in its
  /// `meta.timestamp`, as ``DevToolsExport`` reads it.
  func line(ofLine line: Int, _ action: JSONValue) -> JSONValue {
    guard line < document.export.places.count,
      let timestamp = document.export.places[line].timestamp, case .object(var object) = action
    else { return action }
    var meta = JSONObject()
    if case .object(let existing)? = object["meta"] { meta = existing }
    meta["timestamp"] = .number(JSONNumber(timestamp))
    object["meta"] = .object(meta)
    return .object(object)
  }
}
