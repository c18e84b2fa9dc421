import Foundation
#if canImport(Glibc)
  import Glibc
#endif
import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI
import RaspTestSupport

@Suite struct CheckCommandTests {
  let log = try! String(
    contentsOfFile: Repository.path("fixtures/golden-docs/events.jsonl"), encoding: .utf8)

  /// Runs `rasp <arguments>` in `directory` with `variables` and, optionally, a failing writer.
  func run(
    _ arguments: [String], in directory: TemporaryDirectory, variables: [String: String] = [:],
    fault: RaspWriteFault? = nil, interruption: ReplayInterruption? = nil
  ) -> CommandRun {
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output, standardError: errors,
      variables: variables, workingDirectory: directory.path)
    environment.writeFault = fault
    environment.interruption = interruption
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    return CommandRun(status: status, standardOutput: output.text, standardError: errors.text)
  }

  /// A directory holding the docs' log as `events.jsonl`.
  func directoryWithLog() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log)
    return directory
  }

  @Test func updateWritesWhatReplayPrintsAndASecondCheckPasses() throws {
    let directory = try directoryWithLog()
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"], in: directory)
    #expect(update.status == 0)
    #expect(update.standardOutput == "")
    #expect(update.standardError == "rasp: recorded 6 snapshots in 'expected.jsonl'\n")
    let replay = run(["replay", "events.jsonl"], in: directory)
    #expect(directory.bytes("expected.jsonl") == Array(replay.standardOutput.utf8))
    #expect(directory.names == ["events.jsonl", "expected.jsonl"], "no temporary file is left")
    let check = run(["check", "--golden", "expected.jsonl", "events.jsonl"], in: directory)
    #expect(check.status == 0)
    #expect(check.standardOutput == "")
    #expect(check.standardError == "rasp: 6 snapshots match 'expected.jsonl'\n")
  }

  /// The replay of the docs' log, one snapshot per line.
  func snapshots(in directory: TemporaryDirectory) -> [String] {
    run(["replay", "events.jsonl"], in: directory).standardOutput.split(separator: "\n")
      .map(String.init)
  }

  /// The inode of a file, which an atomic rewrite changes.
  func inode(_ path: String) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
  }

  @Test func updateSaysWhichSnapshotsChangedWereAddedOrRemoved() throws {
    let directory = try directoryWithLog()
    let new = snapshots(in: directory)
    let update = ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"]
    // Lines 2 and 3 changed (one is not even JSON), the last two are missing.
    try directory.write(
      "expected.jsonl", ([new[0], "{}", "{oops"] + new[3..<4]).joined(separator: "\n") + "\n")
    let changed = run(update, in: directory)
    #expect(changed.status == 0)
    #expect(changed.standardOutput == "")
    #expect(
      changed.standardError
        == "rasp: updated 'expected.jsonl': 2 snapshots changed (lines 2-3), "
        + "2 added (lines 5-6), 2 unchanged\n")
    #expect(directory.bytes("expected.jsonl") == Array(new.map { $0 + "\n" }.joined().utf8))
    // Snapshots beyond the end of the replay are removed, by their lines in the old file.
    try directory.write(
      "expected.jsonl", (new + ["", "[1]", "[2]"]).joined(separator: "\n") + "\n")
    #expect(
      run(update, in: directory).standardError
        == "rasp: updated 'expected.jsonl': 2 snapshots removed (old lines 8-9), 6 unchanged\n")
    #expect(directory.names == ["events.jsonl", "expected.jsonl"], "no temporary file is left")
  }

  @Test func updateLeavesAnUnchangedGoldenFileAsItWas() throws {
    let directory = try directoryWithLog()
    let update = ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"]
    #expect(
      run(update, in: directory).standardError
        == "rasp: recorded 6 snapshots in 'expected.jsonl'\n")
    let before = try inode(directory.file("expected.jsonl"))
    let again = run(update, in: directory)
    #expect(again.status == 0)
    #expect(
      again.standardError
        == "rasp: 6 snapshots match 'expected.jsonl': nothing to update, the file is left as it "
        + "was\n")
    #expect(try inode(directory.file("expected.jsonl")) == before, "not rewritten")
    #expect(directory.names == ["events.jsonl", "expected.jsonl"], "no temporary file is left")
    // Equal by meaning is equal: a hand-formatted golden file stays as it is.
    let formatted = snapshots(in: directory)
      .map { $0.replacingOccurrences(of: "{\"", with: "{ \"") }
      .joined(separator: "\r\n\n")
    try directory.write("expected.jsonl", formatted)
    #expect(run(update, in: directory).standardError.hasPrefix("rasp: 6 snapshots match"))
    #expect(directory.bytes("expected.jsonl") == Array(formatted.utf8))
  }

  @Test func anInterruptedUpdateRecordsNothing() throws {
    // Stopped before its first line, or after its last: either way, a replay that was asked to
    // stop is not recorded, and the status is the signal's.
    let directory = try directoryWithLog()
    try directory.write("expected.jsonl", "{}\n")
    let interruption = ReplayInterruption()
    interruption.request(signal: SIGINT)
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      interruption: interruption)
    #expect(update.status == 130)
    #expect(
      update.standardError
        == "rasp: not recording 'expected.jsonl' after an interruption: it is unchanged\n")
    #expect(directory.bytes("expected.jsonl") == Array("{}\n".utf8))
    #expect(directory.names == ["events.jsonl", "expected.jsonl"], "no temporary file is left")
    let check = run(
      ["check", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      interruption: interruption)
    #expect(check.status == 130, "no report for a comparison cut short")
    #expect(check.standardOutput == "")
  }

  @Test func updateAcceptsAnIntendedChange() throws {
    let directory = try directoryWithLog()
    try directory.write("expected.jsonl", "{\"stale\":true}\n")
    #expect(
      run(["check", "--golden", "expected.jsonl", "events.jsonl"], in: directory).status == 1)
    #expect(
      run(["check", "--golden", "expected.jsonl", "--update", "events.jsonl"], in: directory).status
        == 0)
    #expect(
      run(["check", "--golden", "expected.jsonl", "events.jsonl"], in: directory).status == 0)
  }

  @Test func updateRecordsTheOutputOfTheSameReplayOptions() throws {
    let directory = try directoryWithLog()
    for options in [
      ["--select", "nav.stack"], ["--emit", "diff", "--with-event"],
      ["--final", "--domain", "geo"],
    ] {
      let update = run(
        ["check", "--update", "--golden", "g.jsonl"] + options + ["events.jsonl"], in: directory)
      #expect(update.status == 0, "\(options): \(update.standardError)")
      let replay = run(["replay"] + options + ["events.jsonl"], in: directory)
      #expect(directory.bytes("g.jsonl") == Array(replay.standardOutput.utf8), "\(options)")
      #expect(
        run(["check", "--golden", "g.jsonl"] + options + ["events.jsonl"], in: directory).status
          == 0)
    }
  }

  @Test func recordMissingWritesOnlyWhenTheGoldenFileIsAbsent() throws {
    let directory = try directoryWithLog()
    let first = run(
      ["check", "--record", "missing", "--golden", "expected.jsonl", "events.jsonl"], in: directory)
    #expect(first.status == 0)
    #expect(first.standardError == "rasp: recorded 6 snapshots in 'expected.jsonl'\n")
    let changed = Array("{}\n".utf8)
    try Data(changed).write(to: URL(fileURLWithPath: directory.file("expected.jsonl")))
    let second = run(
      ["check", "--record", "missing", "--golden", "expected.jsonl", "events.jsonl"], in: directory)
    #expect(second.status == 1, "an existing file is checked, not rewritten")
    #expect(
      second.standardError == "rasp: 1 of 1 snapshot differs from 'expected.jsonl', 5 extra\n")
    #expect(directory.bytes("expected.jsonl") == changed)
  }

  @Test func aMissingGoldenFileIsAnErrorThatSuggestsRecordMissing() throws {
    let directory = try directoryWithLog()
    let check = run(["check", "--golden", "expected.jsonl", "events.jsonl"], in: directory)
    #expect(check.status == 2)
    #expect(
      check.standardError
        == "rasp: error: golden file 'expected.jsonl' does not exist; "
        + "run with '--record missing' to record it\n")
    #expect(directory.bytes("expected.jsonl") == nil)
  }

  @Test func anUpdateStoppedByABadLineKeepsTheOldFileByteForByte() throws {
    let directory = try directoryWithLog()
    let old = "{ \"hand\" : \"written\" }\n"
    try directory.write("expected.jsonl", old)
    let lines = log.split(separator: "\n")
    try directory.write(
      "broken.jsonl",
      lines[0..<4].joined(separator: "\n") + "\n{\"type\":\n" + lines[4...].joined(separator: "\n"))
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "broken.jsonl"], in: directory)
    #expect(update.status == 2)
    #expect(
      update.standardError == """
        broken.jsonl:5:9: error: unexpected end of input, expected a value
        rasp: not recording 'expected.jsonl' after errors: it is unchanged

        """)
    #expect(directory.bytes("expected.jsonl") == Array(old.utf8))
    #expect(directory.names == ["broken.jsonl", "events.jsonl", "expected.jsonl"])
    let skip = run(
      ["check", "--update", "--on-error", "skip", "--golden", "expected.jsonl", "broken.jsonl"],
      in: directory)
    #expect(skip.status == 2, "skipped lines are errors too")
    #expect(directory.bytes("expected.jsonl") == Array(old.utf8))
    let record = run(
      ["check", "--record", "missing", "--golden", "new.jsonl", "broken.jsonl"], in: directory)
    #expect(record.status == 2)
    #expect(
      record.standardError.hasSuffix(
        "rasp: not recording 'new.jsonl' after errors: it was not created\n"))
    #expect(directory.bytes("new.jsonl") == nil)
  }

  @Test(arguments: [
    (RaspWriteFault.create, "Permission denied"), (.write, "No space left on device"),
    (.sync, "Input/output error"), (.rename, "Permission denied"),
  ])
  func aFailedWriteKeepsTheOldFileByteForByte(_ fault: RaspWriteFault, _ reason: String) throws {
    let directory = try directoryWithLog()
    let old = "old golden file\n"
    try directory.write("expected.jsonl", old)
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      fault: fault)
    #expect(update.status == 2)
    #expect(update.standardError == "rasp: error: cannot write 'expected.jsonl': \(reason)\n")
    #expect(directory.bytes("expected.jsonl") == Array(old.utf8))
    #expect(directory.names == ["events.jsonl", "expected.jsonl"], "no temporary file is left")
  }

  @Test func aGoldenFileInAMissingDirectoryIsAnErrorThatCreatesNothing() throws {
    // A real failure to create the temporary file, whoever runs the tests (root writes into
    // read-only directories; the injected faults above cover the other steps).
    let directory = try directoryWithLog()
    let update = run(
      ["check", "--update", "--golden", "golden/expected.jsonl", "events.jsonl"], in: directory)
    #expect(update.status == 2)
    #expect(
      update.standardError
        == "rasp: error: cannot write 'golden/expected.jsonl': No such file or directory\n")
    #expect(directory.names == ["events.jsonl"])
  }

  @Test func updateFollowsASymbolicLinkAndKeepsIt() throws {
    let directory = try directoryWithLog()
    try directory.write("real.jsonl", "old\n")
    try FileManager.default.createSymbolicLink(
      atPath: directory.file("link.jsonl"), withDestinationPath: "real.jsonl")
    let update = run(
      ["check", "--update", "--golden", "link.jsonl", "events.jsonl"], in: directory)
    #expect(update.status == 0)
    let replay = run(["replay", "events.jsonl"], in: directory)
    #expect(
      directory.bytes("real.jsonl") == Array(replay.standardOutput.utf8),
      "the link's target is updated")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: directory.file("link.jsonl"))
        == "real.jsonl",
      "the link stays a link")
    #expect(directory.names == ["events.jsonl", "link.jsonl", "real.jsonl"])
  }

  @Test func recordingRefusesToReplaceTheEventLogItself() throws {
    let directory = try directoryWithLog()
    for golden in ["events.jsonl", "./events.jsonl", directory.file("events.jsonl")] {
      for mode in [["--update"], ["--record", "all"]] {
        let update = run(["check"] + mode + ["--golden", golden, "events.jsonl"], in: directory)
        #expect(update.status == 2, "\(golden) \(mode)")
        #expect(
          update.standardError
            == "rasp: error: refusing to record '\(golden)': it is the event log 'events.jsonl', "
            + "which recording would replace\n")
      }
    }
    #expect(directory.bytes("events.jsonl") == Array(log.utf8), "the log is intact")
  }

  @Test func inCIRecordingIsRefusedSoAMissingGoldenFileFailsTheBuild() throws {
    let directory = try directoryWithLog()
    let ci = ["CI": "true"]
    let record = run(
      ["check", "--record", "missing", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      variables: ci)
    #expect(record.status == 2)
    #expect(record.standardError.contains("recording is refused in CI (CI=true)"))
    #expect(directory.bytes("expected.jsonl") == nil)
    try directory.write("expected.jsonl", "old\n")
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      variables: ci)
    #expect(update.status == 2)
    #expect(
      update.standardError
        == "rasp: error: refusing to update 'expected.jsonl' in CI (CI=true); "
        + "set RASP_ALLOW_RECORD=1 to allow it\n")
    #expect(directory.bytes("expected.jsonl") == Array("old\n".utf8))
  }

  @Test func RASP_ALLOW_RECORDAllowsAnUpdateInCI() throws {
    let directory = try directoryWithLog()
    let update = run(
      ["check", "--update", "--golden", "expected.jsonl", "events.jsonl"], in: directory,
      variables: ["CI": "true", "RASP_ALLOW_RECORD": "1"])
    #expect(update.status == 0)
    #expect(directory.bytes("expected.jsonl") != nil)
  }

  /// An `--ignore` path is one of the record as printed, as the golden file holds it: with
  /// `--with-event` or `--key-by`, the snapshot is under `state`; with `--select`, the record is
  /// the selected value.
  @Test func anIgnoredPathIsOneOfTheRecordAsPrinted() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "a.jsonl", #"{"type":"lifecycle.launch","ts":"2026-11-22T09:30:00Z"}"# + "\n")
    try directory.write(
      "b.jsonl", #"{"type":"lifecycle.launch","ts":"2026-11-22T09:40:00Z"}"# + "\n")
    for shape in [["--with-event"], ["--key-by", "source"], ["--select", "lifecycle"]] {
      #expect(
        run(["check", "--update", "--golden", "g.jsonl", "a.jsonl"] + shape, in: directory).status
          == 0)
      let unignored = run(["check", "--golden", "g.jsonl", "b.jsonl"] + shape, in: directory)
      #expect(unignored.status == 1, "\(shape): the times differ")
      let path = shape[0] == "--select" ? "changedAt" : "state.lifecycle.changedAt"
      var ignoring = ["--ignore", path]
      if shape[0] == "--with-event" { ignoring += ["--ignore", "event.ts", "--ignore", "file"] }
      let ignored = run(
        ["check", "--golden", "g.jsonl", "b.jsonl"] + shape + ignoring, in: directory)
      #expect(ignored.status == 0, "\(shape): \(ignored.standardError)")
    }
    // The snapshot's own path, which no such record has, is refused with the right one.
    let wrong = run(
      [
        "check", "--golden", "g.jsonl", "--key-by", "source", "--ignore", "lifecycle.changedAt",
        "b.jsonl",
      ],
      in: directory)
    #expect(wrong.status == 64)
    #expect(
      wrong.standardError.hasPrefix(
        "rasp: error: unknown member 'lifecycle' of a record in '--ignore lifecycle.changedAt': "
          + "with --key-by, each record has 'key' and 'state'; did you mean "
          + "'state.lifecycle.changedAt'?\n"))
    let typo = run(
      [
        "check", "--golden", "g.jsonl", "--with-event", "--ignore", "state.lifecycle.changedAtt",
        "b.jsonl",
      ],
      in: directory)
    #expect(typo.status == 64)
    #expect(
      typo.standardError.contains("did you mean 'state.lifecycle.changedAt'?"),
      "\(typo.standardError)")
  }

  @Test func exitStatusesFollowDiff() throws {
    let directory = try directoryWithLog()
    #expect(
      run(["check", "--update", "--golden", "g.jsonl", "events.jsonl"], in: directory).status == 0)
    #expect(run(["check", "--golden", "g.jsonl", "events.jsonl"], in: directory).status == 0)
    try directory.write("different.jsonl", "{}\n")
    #expect(
      run(["check", "--golden", "different.jsonl", "events.jsonl"], in: directory).status == 1)
    try directory.write("bad.jsonl", "{\n")
    #expect(run(["check", "--golden", "bad.jsonl", "events.jsonl"], in: directory).status == 2)
    try FileManager.default.createDirectory(
      atPath: directory.file("folder"), withIntermediateDirectories: false)
    let folder = run(["check", "--golden", "folder", "events.jsonl"], in: directory)
    #expect(folder.status == 2)
    #expect(folder.standardError == "rasp: error: cannot open 'folder': Is a directory\n")
    #expect(run(["check", "events.jsonl"], in: directory).status == 64)
    #expect(
      run(["check", "--golden", "g.jsonl", "--bogus", "events.jsonl"], in: directory).status == 64)
  }

  @Test func theReportGoesToStandardOutputAndTheSummaryToStandardError() throws {
    let directory = try directoryWithLog()
    try directory.write("g.jsonl", "{}\n")
    let check = run(
      ["check", "--format", "json", "--golden", "g.jsonl", "events.jsonl"], in: directory)
    let report = try JSONParser.parse(check.standardOutput.trimmingCharacters(in: .newlines))
    #expect(report["differing"] == 1)
    #expect(report["extra"] == 5)
    #expect(check.standardError == "rasp: 1 of 1 snapshot differs from 'g.jsonl', 5 extra\n")
  }
}
