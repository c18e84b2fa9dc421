import RaspDomains
import RaspJSON

/// How `rasp replay` (and `rasp check`, which replays too) reads logs and prints snapshots.
///
/// ```swift
/// let options = try ReplayOptions(
///   parsed: parsed, domains: RaspBuiltinDomains.all, spec: spec, environment: environment)
/// ```
struct ReplayOptions {
  /// What to do with a bad line.
  enum ErrorMode: String {
    /// Stop at the first bad line, after printing every snapshot before it.
    case fail
    /// Report each bad line and go on.
    case skip
  }

  /// The logs, as the user named them; `-` is standard input.
  var files: [String] = ["-"]
  /// The spec files given with `--spec`, in order.
  var specFiles: [String] = []
  /// The domains in the snapshot: the command's own and those of the spec files.
  var domains: [any RaspDomain] = []
  /// The domains known but left out of the snapshot by `--domain`.
  var excludedDomains: [any RaspDomain] = []
  /// The path selected with `--select`.
  var select: JSONPath?
  /// Whether to print only the last snapshot.
  var isFinal = false
  /// Whether to wrap each output line with the event that produced it.
  var withEvent = false
  /// Whether to indent the output.
  var isPretty = false
  /// Whether an event of unknown type is an error.
  var isStrict = false
  /// What to do with bad lines.
  var errorMode = ErrorMode.fail
  /// Whether to print a summary on standard error.
  var showsStats = false
  /// How the work of reading one log is spread over threads; `ReplayThreadingTests` pins each
  /// way and checks that all of them print the same.
  var threading = Threading.automatic

  /// How the work of reading one log is spread over threads.
  enum Threading {
    /// Read ahead on a second thread, and decode a share of the lines there, adjusted so that
    /// neither thread waits for the other (``ReplayDecodeShare``).
    case automatic
    /// Everything on one thread.
    case single
    /// Read and parse envelopes on a second thread; decode and apply on this one.
    case readAhead
    /// Read, parse and decode on a second thread; apply on this one.
    case decodeAhead
  }
  /// What each record holds: the snapshot, or its difference from the one before.
  var emit = Emit.snapshot
  /// Whether to leave out records of events that changed nothing (with `--emit diff`).
  var changesOnly = false

  /// What each record holds.
  enum Emit: String {
    /// The whole snapshot (or selected value).
    case snapshot
    /// An RFC 6902 patch from the previous snapshot (or selected value) to this one.
    case diff
  }

  /// The options `replay` and `check` share, in help order.
  static let specs: [RaspOptionSpec] = [
    RaspOptionSpec(
      name: "select", valueName: "path",
      help: "Print only the value at <path> (such as geo.heading, nav.stack[-1] or rest.links|length), and only when it changes."),
    RaspOptionSpec(
      name: "domain", valueName: "name", isRepeatable: true,
      help: "Put only this domain in the snapshots; repeat for several. Events of other domains are ignored."),
    RaspOptionSpec(
      name: "spec", valueName: "file", isRepeatable: true,
      help: "Add the domains that a spec file defines (see docs/spec.md); repeat for several files."),
    RaspOptionSpec(name: "final", help: "Print only the snapshot after the last event."),
    RaspOptionSpec(
      name: "with-event",
      help: "Wrap each output line as {\"event\":…,\"file\":…,\"line\":…,\"seq\":…,\"state\":…} (\"value\" instead of \"state\" with --select, \"diff\" with --emit diff)."),
    RaspOptionSpec(
      name: "emit", valueName: "what", allowedValues: ["snapshot", "diff"],
      help: "Print the whole 'snapshot' after each event (the default), or the 'diff' from the one before: an RFC 6902 JSON Patch, [] when nothing changed."),
    RaspOptionSpec(
      name: "changes-only", help: "With --emit diff, leave out the events that changed nothing."),
    RaspOptionSpec(name: "pretty", help: "Indent the output for people."),
    RaspOptionSpec(name: "strict", help: "Treat an event of unknown type as a bad line instead of ignoring it."),
    RaspOptionSpec(
      name: "on-error", valueName: "mode", allowedValues: ["fail", "skip"],
      help: "On a bad line, 'fail' (the default) stops after printing every snapshot before it; 'skip' reports the line and goes on."),
    RaspOptionSpec(
      name: "stats",
      help: "End with a summary on standard error: lines read = applied + skipped + ignored + blank."),
  ]

  /// Reads the options from a parsed command line, and the spec files it names.
  ///
  /// Spec files are read and validated before any event: every mistake in them is reported.
  init(
    parsed: RaspParsedArguments, domains builtIn: [any RaspDomain], spec: RaspCommandSpec,
    environment: RaspEnvironment
  ) throws(RaspCommandError) {
    func fail(_ message: String) -> RaspCommandError {
      .usage(message, usage: spec.usage, command: spec.name)
    }
    if !parsed.positionals.isEmpty { files = parsed.positionals }
    if files.filter({ $0 == "-" }).count > 1 {
      throw fail("Standard input ('-') can be read only once")
    }
    specFiles = parsed.all("spec")
    if specFiles.contains("-") {
      throw fail("A spec cannot be read from standard input ('-'): it is where event logs are read")
    }
    let specDomains = try SpecFiles.domains(of: SpecFiles.load(specFiles, after: builtIn, environment: environment))
    let available = builtIn + specDomains
    let names = available.map(\.name)
    let chosen = parsed.all("domain")
    if chosen.isEmpty {
      domains = available
    } else {
      for name in chosen where !names.contains(name) {
        var message = "Unknown domain '\(name)' for '--domain <name>'"
        if let near = RaspSpelling.nearest(to: name, among: names) { message += ". Did you mean '\(near)'?" }
        throw fail(message)
      }
      domains = available.filter { chosen.contains($0.name) }
      excludedDomains = available.filter { !chosen.contains($0.name) }
    }
    if let text = parsed.value("select") {
      let path: JSONPath
      do {
        path = try JSONPath(text)
      } catch {
        throw fail("Invalid path '\(text)' for '--select <path>': \(error)")
      }
      if let first = path.firstKey, !domains.contains(where: { $0.name == first }) {
        let enabled = domains.map(\.name)
        var message = "Unknown domain '\(first)' in '--select \(text)'"
        if let near = RaspSpelling.nearest(to: first, among: enabled) {
          message += ". Did you mean '\(near)'?"
        } else {
          message += ": the snapshot holds \(enabled.map { "'\($0)'" }.joined(separator: ", "))"
        }
        throw fail(message)
      } else if path.firstKey == nil, !path.components.isEmpty {
        throw fail("Invalid path '\(text)' for '--select <path>': it must start with a domain name")
      }
      select = path
    }
    isFinal = parsed.flag("final")
    withEvent = parsed.flag("with-event")
    isPretty = parsed.flag("pretty")
    isStrict = parsed.flag("strict")
    errorMode = parsed.value("on-error").flatMap(ErrorMode.init(rawValue:)) ?? .fail
    showsStats = parsed.flag("stats")
    emit = parsed.value("emit").flatMap(Emit.init(rawValue:)) ?? .snapshot
    changesOnly = parsed.flag("changes-only")
    if changesOnly, emit != .diff {
      throw fail("Option '--changes-only' needs '--emit diff'")
    }
  }
}
