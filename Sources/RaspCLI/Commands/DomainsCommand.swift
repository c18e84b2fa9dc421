import RaspDomains
import RaspJSON

/// `rasp domains`: what each domain holds, its event types and their payload fields.
///
/// Lists the domains the command line was built with — the built-in ones and any of the
/// user's own — and those of the spec files given with `--spec`, in name order, as the
/// snapshot holds them. The text is laid out like `--help`;
/// `--json` prints the same as one canonical JSON document, for tools:
///
/// ```
/// {"domains":[{"events":[{"fields":[{"name":"heading","required":true,"summary":…,
///   "type":"number (0–360)"}],"summary":…,"type":"geo.heading"},…],"initialState":{…},
///   "name":"geo","summary":…},…]}
/// ```
enum DomainsCommand {
  static let spec = RaspCommandSpec(
    name: "rasp domains",
    abstract: "List the domains: their event types, payload fields and initial states.",
    discussion: """
      Each event of a log has a type 'domain.event', such as 'geo.heading', and a payload \
      object whose fields the domain checks before its reducer applies the event. The \
      snapshot holds every domain listed here, by name.
      """,
    usage: "rasp domains [--json | --names] [--domain <name> ...] [--spec <file> ...]",
    options: [
      RaspOptionSpec(
        name: .domain, valueName: "name", isRepeatable: true,
        help: "List only this domain; repeat, or separate names with commas, for several."),
      RaspOptionSpec(
        name: .spec, valueName: "file", isRepeatable: true,
        help:
          "Add the domains that a spec file defines (see docs/spec.md); repeat for several files."
      ),
      RaspOptionSpec(
        name: .json,
        help: "Print the same as one canonical JSON document, for tools, instead of text."),
      RaspOptionSpec(
        name: .names,
        help:
          "Print only the domains' names, one a line: what shell completion offers after "
          + "--domain."),
      RaspColorChoice.optionSpec(coloring: "the labels of errors and warnings on standard error"),
    ])

  static func run(
    _ arguments: [String], environment: RaspEnvironment, domains available: [any RaspDomain]
  ) throws(RaspCommandError) -> RaspExitCode {
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    if parsed.flag(.names), parsed.flag(.json) {
      throw spec.usageError(
        "Options '--names' and '--json' cannot be used together: '--names' prints the names "
          + "only")
    }
    let specDomains = try SpecFiles.domains(
      of: SpecFiles.load(parsed.all(.spec), after: available, environment: environment))
    var seen = Set<String>()
    var domains = (available + specDomains).filter { seen.insert($0.name).inserted }
    domains.sort { JSONObject.keyPrecedes($0.name, $1.name) }
    let chosen = try parsed.domainNames(among: domains.map(\.name), spec: spec)
    if !chosen.isEmpty {
      domains = domains.filter { chosen.contains($0.name) }
    }
    if parsed.flag(.names) {
      let text = domains.map { $0.name + "\n" }.joined()
      try RaspCommandLine.printOutput(Array(text.utf8), environment: environment)
    } else if parsed.flag(.json) {
      var writer = JSONWriter()
      writer.writeRaw("{\"domains\":[")
      for (index, domain) in domains.enumerated() {
        if index > 0 { writer.writeRaw(",") }
        writeJSON(domain, into: &writer)
      }
      writer.writeRaw("]}\n")
      try RaspCommandLine.printOutput(writer.bytes, environment: environment)
    } else {
      let text = domains.map { describe($0) }.joined(separator: "\n")
      try RaspCommandLine.printOutput(Array(text.utf8), environment: environment)
    }
    return .success
  }

  /// The text of one domain: its summary, initial state, events and their fields.
  static func describe(_ domain: some RaspDomain) -> String {
    var text = entry(domain.name, domain.summary, indent: 0)
    text += entry(
      "initial state", String(decoding: initialStateJSON(domain), as: UTF8.self), indent: 2)
    for event in domain.events {
      // An event that stands for other domains' types is listed by them.
      let on = event.listensTo.joined(separator: ", ")
      if event.name.isEmpty {
        text += entry("on \(on)", event.summary, indent: 2)
      } else if !on.isEmpty {
        text += entry("\(domain.name).\(event.name)", event.summary + " Also on \(on).", indent: 2)
      } else {
        text += entry("\(domain.name).\(event.name)", event.summary, indent: 2)
      }
      for field in event.fields {
        let requirement = field.isRequired ? "required" : "optional"
        text += entry(field.name, "\(field.type), \(requirement). \(field.summary)", indent: 4)
      }
    }
    return text
  }

  /// Writes `{"events":[…],"initialState":…,"name":…,"summary":…}`.
  static func writeJSON(_ domain: some RaspDomain, into writer: inout JSONWriter) {
    writer.writeRaw("{\"events\":[")
    for (index, event) in domain.events.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeRaw("{\"fields\":[")
      for (fieldIndex, field) in event.fields.enumerated() {
        if fieldIndex > 0 { writer.writeRaw(",") }
        writer.writeRaw("{\"name\":")
        writer.writeString(field.name)
        writer.writeRaw(",\"required\":")
        writer.writeBool(field.isRequired)
        writer.writeRaw(",\"summary\":")
        writer.writeString(field.summary)
        writer.writeRaw(",\"type\":")
        writer.writeString(field.type)
        writer.writeRaw("}")
      }
      writer.writeRaw("]")
      if !event.listensTo.isEmpty {
        writer.writeRaw(",\"on\":")
        writer.write(.array(event.listensTo.map { .string($0) }))
      }
      writer.writeRaw(",\"summary\":")
      writer.writeString(event.summary)
      writer.writeRaw(",\"type\":")
      if event.name.isEmpty {
        writer.writeNull()
      } else {
        writer.writeString("\(domain.name).\(event.name)")
      }
      writer.writeRaw("}")
    }
    writer.writeRaw("],\"initialState\":")
    writer.writeRaw(initialStateJSON(domain))
    writer.writeRaw(",\"name\":")
    writer.writeString(domain.name)
    writer.writeRaw(",\"summary\":")
    writer.writeString(domain.summary)
    writer.writeRaw("}")
  }

  /// The canonical JSON of the domain's initial state.
  static func initialStateJSON(_ domain: some RaspDomain) -> [UInt8] {
    var writer = JSONWriter()
    domain.encode(domain.initialState, into: &writer)
    return writer.bytes
  }

  /// A name indented by `indent` and its description in the help column, wrapped.
  static func entry(_ name: String, _ description: String, indent: Int) -> String {
    let column = RaspHelpFormatter.column
    var text = String(repeating: " ", count: indent) + name
    guard !description.isEmpty else { return text + "\n" }
    if text.count + 2 > column {
      text += "\n" + String(repeating: " ", count: column)
    } else {
      text += String(repeating: " ", count: column - text.count)
    }
    let lines = RaspHelpFormatter.wrap(description, width: RaspHelpFormatter.width - column)
    return text + lines.joined(separator: "\n" + String(repeating: " ", count: column)) + "\n"
  }
}
