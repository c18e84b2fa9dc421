import RaspDomains
import RaspJSON
import RaspReplay

/// An input read whole as one Redux DevTools export (`--log-format devtools`), and replayed
/// as the JSON lines it makes: one per staged action.
///
/// The replay's messages name the lines it made; ``error(for:)`` names the export instead,
/// with the line and column of the action and its JSON path:
/// `session.json:12:7: error: at actionsById["3"].action: missing required field 'type'`.
///
/// ```swift
/// let document = try ImportedDocument.open("session.json", name: "session.json",
///   environment: environment)
/// var replay = Replay(configuration: configuration, inputs: [document.input])
/// ```
struct ImportedDocument {
  /// The input's name in messages.
  let name: String
  /// The export's text, for the places of messages.
  let bytes: [UInt8]
  /// The export, read.
  let export: DevToolsExport

  /// The lines the export makes, as an input.
  var input: ReplayInput {
    ReplayInput(name: name, source: .memory(JSONMemorySource(export.lines)), isLive: false)
  }

  /// Reads the export of a file, or of standard input (`-`).
  ///
  /// - Throws: ``RaspCommandError/cannotOpen(_:reason:)``, or
  ///   ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` for a file that is not an
  ///   export, at the place of the mistake.
  static func open(_ file: String, name: String, environment: RaspEnvironment)
    throws(RaspCommandError) -> ImportedDocument
  {
    let bytes =
      file == "-"
      ? try SpecFiles.readAll(environment.standardInput, name: name)
      : try environment.readFile(file)
    return try read(bytes, name: name)
  }

  /// Reads the export of bytes already read (standard input, read once for two replays).
  ///
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` for bytes that are
  ///   not an export, at the place of the mistake.
  static func read(_ bytes: [UInt8], name: String) throws(RaspCommandError) -> ImportedDocument {
    do {
      return ImportedDocument(name: name, bytes: bytes, export: try DevToolsExport(bytes: bytes))
    } catch {
      let place = error.position(in: bytes)
      throw .invalidFile(
        name, line: place.line, column: place.column, path: error.path, reason: error.reason)
    }
  }

  /// The domains a replay of the export starts with: a spec domain that the export's start
  /// state (``DevToolsExport/startState``) has a member of the same name for starts from that
  /// member instead of the spec's `initial`; the others are as they were.
  ///
  /// A session longer than DevTools' `maxAge` has lost its first actions to `committedState`:
  /// only from there do its recorded states follow.
  func startingDomains(_ domains: [any RaspDomain]) -> [any RaspDomain] {
    guard case .object(let members)? = export.startState else { return domains }
    return domains.map { domain in
      guard let spec = domain as? RaspSpecDomain, let state = members[spec.name] else {
        return domain
      }
      return RaspSpecDomain(
        name: spec.name, summary: spec.summary, initial: state, events: spec.eventDefinitions)
    }
  }

  /// The place of a line's action, for messages: `session.json:12:7 (actionsById["3"].action)`.
  func place(ofLine number: Int) -> String? {
    guard let (position, path) = position(ofLine: number) else { return nil }
    return "\(name):\(position) (\(path))"
  }

  /// Where a line's action is in the export: its line and column, and its JSON path.
  func position(ofLine number: Int) -> (JSONTextPosition, path: String)? {
    let places = export.places
    guard number >= 1, number <= places.count else { return nil }
    let line = places[number - 1]
    return (JSONTextPosition(offset: line.offset, in: bytes), line.path)
  }

  /// The message about a bad line of the replay: at the place of its action in the export,
  /// with its JSON path, and the reason the export gave when it could not read the action.
  func error(for diagnostic: ReplayDiagnostic) -> RaspCommandError? {
    let places = export.places
    guard diagnostic.line >= 1, diagnostic.line <= places.count else { return nil }
    let line = places[diagnostic.line - 1]
    let place = JSONTextPosition(offset: line.offset, in: bytes)
    var reason = line.problem ?? diagnostic.reason
    // The place is the string's: say where in it the action is.
    if let inner = export.positionInPayload(of: line) {
      reason += " (at \(inner) of the payload string)"
    }
    return .invalidFile(
      name, line: place.line, column: place.column, path: line.path, reason: reason)
  }
}
