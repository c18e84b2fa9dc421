import RaspDomains
import RaspJSON
import RaspReplay

/// `rasp formats`: the log formats `--log-format` reads, and the map file of each.
///
/// Without a name it lists the formats and what logs each reads, laid out like `--help`; with
/// one it prints that format's map file, which is JSON to copy and edit into a map of your own:
///
/// ```
/// $ rasp formats fsa > my-actions.json
/// $ rasp replay --map my-actions.json actions.jsonl
/// ```
enum FormatsCommand {
  static let spec = RaspCommandSpec(
    name: "rasp formats",
    abstract: "List the log formats --log-format reads, or print the map file of one.",
    discussion: """
      rasp reads its own lines by default: {"type":"geo.heading","payload":{…}}. Logs written \
      by other tools are read with --log-format <name>, or with --map <file> for any other \
      shape: a map file says where a line keeps its type, payload, time and source, and how \
      the type becomes 'domain.event'. A map can also keep lines by a field ("keep": \
      {"class": "TPV"}), make several events of one line ("emit": [{"type": \
      "geo.location"}, {"type": "geo.heading"}]), leave an event out when a field is absent \
      or holds a sentinel ("absentIs": "skip", "skipIf": -1), and skip lines that are not \
      events ("ignoreLines": ["$*"]). The formats it lists are map files that ship with \
      rasp; 'rasp formats <name> > mine.json' starts a map of your own (see docs/formats.md).
      """,
    usage: "rasp formats [--json] [<name>]\n       rasp formats --check <file> ...",
    arguments: [
      RaspArgumentSpec(
        name: "name",
        help: "Print this format's map file instead of the list; with --check, map files.",
        isRepeatable: true)
    ],
    options: [
      RaspOptionSpec(
        name: .json,
        help: "Print the list as one JSON document, for tools: {\"formats\":[{\"name\":…,…}]}."),
      RaspOptionSpec(
        name: .check,
        help:
          "Check map files without reading a log: report every mistake, or print one 'ok' "
          + "line per file on standard error."),
      RaspColorChoice.optionSpec(coloring: "the labels of errors and warnings on standard error"),
    ])

  static func run(_ arguments: [String], environment: RaspEnvironment)
    throws(RaspCommandError) -> RaspExitCode
  {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    if parsed.flag(.check) { return try check(parsed, environment: environment) }
    if parsed.positionals.count > 1 {
      throw .usage(
        "Give one format's name, or check map files with '--check'", usage: spec.usage,
        command: spec.name)
    }
    let formats = LogFormat.presets
    if let name = parsed.positionals.first {
      guard let format = formats.first(where: { $0.name == name }) else {
        var message = "Unknown format '\(name)'"
        if name.hasSuffix(".json") || name.contains("/") {
          message += ": to check a map file, use 'rasp formats --check \(name)'"
        } else if let near = RaspSpelling.nearest(to: name, among: formats.map(\.name)) {
          message += ". Did you mean '\(near)'?"
        } else {
          message += ": rasp reads \(formats.map { "'\($0.name)'" }.joined(separator: ", "))"
        }
        throw spec.usageError(message)
      }
      if parsed.flag(.json) {
        throw spec.usageError(
          "Option '--json' lists the formats; a format's map file is JSON already")
      }
      try RaspCommandLine.printOutput(format.text, environment: environment)
      return .success
    }
    if parsed.flag(.json) {
      var writer = JSONWriter()
      writer.writeRaw("{\"formats\":[")
      for (index, format) in formats.enumerated() {
        if index > 0 { writer.writeRaw(",") }
        writer.writeRaw("{\"name\":")
        writer.writeString(format.name)
        writer.writeRaw(",\"summary\":")
        writer.writeString(format.summary)
        writer.writeRaw("}")
      }
      writer.writeRaw("]}\n")
      try RaspCommandLine.printOutput(writer.bytes, environment: environment)
    } else {
      let text = formats.map { DomainsCommand.entry($0.name, $0.summary, indent: 0) }.joined()
      try RaspCommandLine.printOutput(text, environment: environment)
    }
    return .success
  }

  /// `--check`: reads each map file as `--map` would, reporting every mistake.
  private static func check(_ parsed: RaspParsedArguments, environment: RaspEnvironment)
    throws(RaspCommandError) -> RaspExitCode
  {
    guard !parsed.positionals.isEmpty else {
      throw spec.usageError(
        "Option '--check' needs map files to check")
    }
    var status = RaspExitCode.success
    for file in parsed.positionals {
      do {
        let format = try ReplayOptions.mapFile(file, environment: environment)
        RaspDiagnostics.write("\(file): ok: the format '\(format.name)'\n", to: environment)
      } catch {
        RaspDiagnostics.report(error, to: environment)
        status = .failure
      }
    }
    return status
  }
}
