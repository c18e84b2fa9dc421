import Testing

/// What rasp writes, it reads back: a value as deep as an event may hold (510 levels in its
/// payload) is written a few levels deeper in a key's record, a checkpoint or an export.
@Suite struct DeepValueRoundTripTests {
  /// A `data.set` of a value 510 arrays deep: its line is 512 levels, the most a line may be.
  private static let deepest =
    #"{"type":"data.set","source":"s","payload":{"key":"k","value":"#
    + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}}\n"

  private func run(_ arguments: [String], in directory: TemporaryDirectory) -> CommandRun {
    CommandRun.run(arguments, in: directory.path)
  }

  @Test func aKeyedGoldenFileWithEventsChecksAgainstItsOwnReplay() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.deepest)
    let options = ["--golden", "g.jsonl", "--domain", "data", "--key-by", "source", "--with-event"]
    let update = run(["check", "--update"] + options + ["events.jsonl"], in: directory)
    #expect(update.status == 0, "\(update.standardError)")
    let check = run(["check"] + options + ["events.jsonl"], in: directory)
    #expect(check.status == 0, "\(check.standardError)")
    #expect(check.standardError == "rasp: 1 snapshot matches 'g.jsonl'\n")
  }

  @Test func aKeyedCheckpointResumes() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.deepest)
    let options = ["--domain", "data", "--key-by", "source", "--final"]
    let whole = run(["replay"] + options + ["events.jsonl"], in: directory)
    let saving = run(
      ["replay", "--save-state", "s.json"] + options + ["events.jsonl"], in: directory)
    #expect(saving.status == 0, "\(saving.standardError)")
    let resumed = run(["replay", "--resume", "s.json"] + options + ["events.jsonl"], in: directory)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(resumed.standardOutput == whole.standardOutput)
  }

  @Test func aDevToolsExportReplaysAsItsLogDoes() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", Self.deepest)
    let options = ["replay", "--domain", "data"]
    let export = run(options + ["--emit", "devtools", "events.jsonl"], in: directory)
    #expect(export.status == 0, "\(export.standardError)")
    try directory.write("export.json", export.standardOutput)
    let fromLog = run(options + ["events.jsonl"], in: directory)
    let fromExport = run(options + ["--log-format", "devtools", "export.json"], in: directory)
    #expect(fromExport.status == 0, "\(fromExport.standardError)")
    #expect(fromExport.standardOutput == fromLog.standardOutput)
    #expect(fromLog.standardOutput.hasPrefix(#"{"data":{"k":[[["#))
  }
}
