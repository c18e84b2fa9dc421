import RaspJSON
import RaspReplay

/// The report as one HTML file: the builder's data with the summary and the command line,
/// written as JSON safe to sit inside a `<script>` element, in the page.
///
/// ```swift
/// let html = ReportDocument.html(
///   builder: sink.builder, skipped: sink.skipped, statistics: result.statistics,
///   logs: options.displayNames, domains: names, command: arguments)
/// ```
enum ReportDocument {
  /// How many columns the timeline and the plots are reduced to: about the pixels of a wide
  /// screen.
  static let columns = 1200
  /// The most points of the geo track drawn; more are thinned evenly.
  static let trackLimit = 20_000

  /// The page, whole.
  static func html(
    builder: ReportBuilder, skipped: [ReplayDiagnostic], ignored: [ReplayDiagnostic],
    statistics: ReplayStatistics,
    logs: [String], domains: [String], command: [String], selection: String?,
    assertions: AssertionObserver? = nil
  ) -> [UInt8] {
    var writer = JSONWriter(capacity: 1 << 20)
    writer.writeRaw(#"{"version":1,"logs":"#)
    writer.write(.array(logs.map { .string($0) }))
    writer.writeRaw(#","command":"#)
    writer.writeString(command.map(shellQuoted).joined(separator: " "))
    writer.writeRaw(#","select":"#)
    if let selection { writer.writeString(selection) } else { writer.writeNull() }
    writer.writeRaw(#","domains":"#)
    writer.write(.array(domains.map { .string($0) }))
    writer.writeRaw(#","summary":"#)
    writeSummary(statistics, skipped: skipped, ignored: ignored, to: &writer)
    writer.writeRaw(#","assertions":"#)
    if let assertions { writeAssertions(assertions, to: &writer) } else { writer.writeNull() }
    writer.writeRaw(",")
    builder.writeMembers(
      to: &writer, domains: domains, columns: columns, trackLimit: trackLimit)
    writer.writeRaw("}")
    return ReportPage.markup(data: scriptSafe(writer.bytes))
  }

  /// `{"count":…,"total":…,"violations":[…]}`: how many assertions were checked, how many
  /// violations there were, and those kept, each as `rasp check --format json` gives it with
  /// its text as `rasp check` prints it.
  private static func writeAssertions(_ observer: AssertionObserver, to writer: inout JSONWriter) {
    var object = JSONObject()
    object["count"] = .number(JSONNumber(observer.assertionCount))
    object["total"] = .number(JSONNumber(observer.violationCount))
    object["violations"] = .array(
      observer.violations.map { violation in
        guard case .object(var members) = violation.json else { return violation.json }
        members["text"] = .string(violation.text)
        return .object(members)
      })
    writer.write(.object(object))
  }

  private static func writeSummary(
    _ statistics: ReplayStatistics, skipped: [ReplayDiagnostic], ignored: [ReplayDiagnostic],
    to writer: inout JSONWriter
  ) {
    let figures: [(String, Int)] = [
      ("read", statistics.read), ("applied", statistics.applied),
      ("skipped", statistics.skipped), ("ignored", statistics.ignored),
      ("blank", statistics.blank), ("hidden", statistics.hidden),
    ]
    writer.writeRaw("{")
    for (name, value) in figures {
      writer.writeString(name)
      writer.writeRaw(":")
      writer.writeInteger(Int64(value))
      writer.writeRaw(",")
    }
    writer.writeRaw(#""line":"#)
    var line = statistics.summary
    if line.hasSuffix("\n") { line.removeLast() }
    writer.writeString(line)
    writer.writeRaw(#","problems":"#)
    writer.write(
      .array(skipped.map { .string("\($0.inputName):\($0.line):\($0.column): \($0.reason)") }))
    writer.writeRaw(#","ignoredLines":"#)
    writer.write(.array(ignored.map { .string("\($0.inputName):\($0.line): \($0.reason)") }))
    writer.writeRaw(#","ignoredNote":"#)
    var note = ""
    if let first = statistics.firstUnknown {
      let count = statistics.unknownType
      note =
        "\(count == 1 ? "1 event" : "\(count) events") of unknown type ignored, the first "
        + "'\(first.type)' at \(first.inputName):\(first.line)."
    }
    if statistics.otherDomain > 0 {
      note += (note.isEmpty ? "" : " ") + "\(statistics.otherDomain) of domains left out."
    }
    if statistics.dropped + statistics.droppedByOption > 0 {
      note +=
        (note.isEmpty ? "" : " ")
        + "\(statistics.dropped + statistics.droppedByOption) dropped (by the format or --drop)."
    }
    writer.writeString(note)
    writer.writeRaw("}")
  }

  /// JSON that cannot end the `<script>` element it sits in, nor open a comment there:
  /// `<`, `>` and `&` — which occur only inside strings — written as `\u003c`, `\u003e` and
  /// `\u0026`, and U+2028 and U+2029 as `\u2028` and `\u2029`.
  static func scriptSafe(_ json: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(json.count + json.count / 64)
    var index = 0
    while index < json.count {
      let byte = json[index]
      switch byte {
      case UInt8(ascii: "<"): output += Array(#"\u003c"#.utf8)
      case UInt8(ascii: ">"): output += Array(#"\u003e"#.utf8)
      case UInt8(ascii: "&"): output += Array(#"\u0026"#.utf8)
      case 0xE2
      where index + 2 < json.count && json[index + 1] == 0x80
        && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
        output += Array((json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        index += 2
      default: output.append(byte)
      }
      index += 1
    }
    return output
  }

  /// An argument as a shell reads it back: bare when it is plain, in single quotes otherwise.
  static func shellQuoted(_ argument: String) -> String {
    let plain =
      !argument.isEmpty
      && argument.utf8.allSatisfy { byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || Array("-_./=:,@%+".utf8).contains(byte)
      }
    if plain { return argument }
    return "'"
      + argument.split(separator: "'", omittingEmptySubsequences: false).joined(
        separator: #"'\''"#) + "'"
  }
}
