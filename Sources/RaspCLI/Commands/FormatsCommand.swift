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
      the type becomes 'domain.event'. The formats it lists are map files that ship with \
      rasp; 'rasp formats <name> > mine.json' starts a map of your own (see docs/formats.md).
      """,
    usage: "rasp formats [--json] [<name>]",
    arguments: [
      RaspArgumentSpec(
        name: "name", help: "Print this format's map file instead of the list.")
    ],
    options: [
      RaspOptionSpec(
        name: "json",
        help: "Print the list as one JSON document, for tools: {\"formats\":[{\"name\":…,…}]}.")
    ])

  static func run(_ arguments: [String], environment: RaspEnvironment)
    throws(RaspCommandError) -> RaspExitCode
  {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    let formats = LogFormat.presets
    if let name = parsed.positionals.first {
      guard let format = formats.first(where: { $0.name == name }) else {
        var message = "Unknown format '\(name)'"
        if let near = RaspSpelling.nearest(to: name, among: formats.map(\.name)) {
          message += ". Did you mean '\(near)'?"
        } else {
          message += ": rasp reads \(formats.map { "'\($0.name)'" }.joined(separator: ", "))"
        }
        throw .usage(message, usage: spec.usage, command: spec.name)
      }
      if parsed.flag("json") {
        throw .usage(
          "Option '--json' lists the formats; a format's map file is JSON already",
          usage: spec.usage, command: spec.name)
      }
      try RaspCommandLine.printOutput(format.text, environment: environment)
      return .success
    }
    if parsed.flag("json") {
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
}
