import Foundation
import Testing
import RaspTestSupport

/// A handful of tests that run the built `rasp` executable, for what only a real process shows:
/// pipes, signals, exit statuses, and output that other tools must accept.
@Suite(.serialized) struct BinaryTests {
  @Test func executableWasBuilt() {
    #expect(BuiltBinary.exists, "expected the rasp executable at \(BuiltBinary.path)")
  }

  @Test func outputIsValidJSONLinesForJQ() async throws {
    let result = try await BuiltBinary.shell(
      "rasp replay fixtures/example/events.jsonl | jq -c 'keys' | sort -u")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.text.split(separator: "\n")
    #expect(lines.count == 1, "every snapshot has the same domains")
    let count = try await BuiltBinary.shell(
      "rasp replay fixtures/example/events.jsonl | jq -s 'length'")
    let events = try String(
      contentsOfFile: Repository.path("fixtures/example/events.jsonl"), encoding: .utf8
    )
    .split(separator: "\n").count
    #expect(count.text == "\(events)\n", "jq reads one value per snapshot")
  }

  @Test func selectedValuesParseInJQ() async throws {
    let result = try await BuiltBinary.shell(
      "rasp replay --select geo.location fixtures/example/events.jsonl"
        + " | jq -e 'select(. != null) | .latitude' > /dev/null")
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func brokenPipeEndsQuietlyAndSuccessfully() async throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rasp-big-\(getpid()).jsonl")
    defer { try? FileManager.default.removeItem(at: log) }
    let line = #"{"type":"geo.heading","payload":{"heading":90}}"# + "\n"
    try String(repeating: line, count: 200_000).write(to: log, atomically: true, encoding: .utf8)
    let result = try await BuiltBinary.shell(
      "bash -c \"set -o pipefail; rasp replay '\(log.path)' | head -1\"")
    #expect(result.status == 0, "rasp must exit 0 when its reader goes away")
    #expect(result.standardError.isEmpty, "rasp printed on stderr: \(result.standardError)")
    #expect(result.text.split(separator: "\n").count == 1)
  }

  @Test func exitStatusesReachTheShell() async throws {
    #expect(
      try await BuiltBinary.shell("rasp replay fixtures/example/events.jsonl > /dev/null").status
        == 0)
    #expect(
      try await BuiltBinary.shell(
        "rasp replay fixtures/replay-error-fail/events.jsonl > /dev/null 2>&1"
      )
      .status == 2)
    #expect(try await BuiltBinary.shell("rasp replay --bogus 2> /dev/null").status == 64)
    let stdin = try await BuiltBinary.shell(
      "rasp replay --select 'rest.links|length' < fixtures/example/events.jsonl | tail -1")
    #expect(stdin.status == 0)
    #expect(!stdin.text.isEmpty)
  }

  @Test func diagnosticsGoToStandardErrorOnly() async throws {
    let result = try await BuiltBinary.shell("rasp replay fixtures/replay-error-fail/events.jsonl")
    #expect(result.status == 2)
    #expect(result.text.split(separator: "\n").count == 2, "two snapshots before the bad line")
    #expect(
      result.standardError
        == "fixtures/replay-error-fail/events.jsonl:3:47: error: trailing comma before '}'\n")
  }

  @Test func checkAndDiffStatusesReachTheShell() async throws {
    let golden = "fixtures/golden-docs/expected.jsonl"
    #expect(
      try await BuiltBinary.shell(
        "rasp check --golden \(golden) fixtures/golden-docs/events.jsonl 2> /dev/null"
      ).status == 0)
    let differs = try await BuiltBinary.shell(
      "rasp check --golden \(golden) fixtures/golden-docs/events-v2.jsonl")
    #expect(differs.status == 1)
    #expect(
      differs.text.hasPrefix("snapshot 4 (fixtures/golden-docs/events-v2.jsonl:4) differs"),
      "the report is on stdout")
    #expect(differs.standardError == "rasp: 3 of 6 snapshots differ from '\(golden)', 1 extra\n")
    #expect(
      try await BuiltBinary.shell(
        "rasp check --golden missing.jsonl fixtures/golden-docs/events.jsonl 2> /dev/null"
      ).status == 2)
    let piped = try await BuiltBinary.shell(
      "rasp replay fixtures/golden-docs/events.jsonl | rasp diff \(golden) -")
    #expect(piped.status == 0)
    #expect(piped.standardError == "rasp: 6 snapshots of '<stdin>' match '\(golden)'\n")
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func anInterruptedUpdateKeepsThePreviousGoldenFile(signal: Int32) async throws {
    let directory = try TemporaryDirectory()
    let previous = #"{"geo":{"accuracy":null,"heading":7,"location":null}}"# + "\n"
    try directory.write("expected.jsonl", previous)
    let command = try SpawnedCommand(
      ["check", "-", "--domain", "geo", "--golden", directory.file("expected.jsonl"), "--update"],
      outputDirectory: directory.path)
    try command.write(#"{"type":"geo.heading","payload":{"heading":90}}"# + "\n")
    let temporary = ".expected.jsonl.tmp-\(command.processID)"
    #expect(
      try await waitUntil(in: directory) { directory.names.contains(temporary) },
      "the update is under way")
    command.signal(signal)
    #expect(try await command.ending() == .signaled(signal), "the signal still ends the command")
    #expect(directory.bytes("expected.jsonl") == Array(previous.utf8), "the golden file is intact")
    #expect(directory.names == ["expected.jsonl", "stderr", "stdout"], "no temporary file is left")
  }

  @Test func anUpdateThatIsNotInterruptedReplacesTheGoldenFile() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", "{}\n")
    let command = try SpawnedCommand(
      ["check", "-", "--domain", "geo", "--golden", directory.file("expected.jsonl"), "--update"],
      outputDirectory: directory.path)
    try command.write(#"{"type":"geo.heading","payload":{"heading":90}}"# + "\n")
    command.closeInput()
    #expect(try await command.ending() == .exited(0))
    let expected = #"{"geo":{"accuracy":null,"heading":90,"location":null}}"# + "\n"
    #expect(directory.bytes("expected.jsonl") == Array(expected.utf8))
    #expect(directory.names == ["expected.jsonl", "stderr", "stdout"])
  }

  @Test func everySnapshotReachesAFileOnANormalExitAndOnAnError() async throws {
    let directory = try TemporaryDirectory()
    let line = #"{"type":"geo.heading","payload":{"heading":90}}"# + "\n"
    try directory.write("good.jsonl", String(repeating: line, count: 100_000))
    try directory.write("bad.jsonl", String(repeating: line, count: 100_000) + "{\n")
    for (name, status) in [("good", Int32(0)), ("bad", 2)] {
      let result = try await BuiltBinary.shell(
        "rasp replay --domain geo '\(directory.file(name)).jsonl' > '\(directory.file(name)).out'")
      #expect(result.status == status, "\(name)")
      let output = directory.bytes("\(name).out") ?? []
      #expect(output.count(where: { $0 == 0x0A }) == 100_000, "\(name): every snapshot was flushed")
      #expect(output.last == 0x0A, "\(name): the last line is whole")
    }
  }

  @Test func aLineFromAPipeIsReplayedAsItArrives() async throws {
    // Each snapshot must be out before the next line is written: a replay that waited for a
    // block, or for the end, would leave the first wait to time out.
    let directory = try TemporaryDirectory()
    let command = try SpawnedCommand(
      ["replay", "--select", "geo.heading", "--stats", "-"], outputDirectory: directory.path)
    try command.write(#"{"type":"geo.heading","payload":{"heading":90}}"# + "\n")
    #expect(
      try await waitUntil(in: directory) { directory.bytes("stdout") == Array("90\n".utf8) },
      "the first snapshot")
    // Half a line is held until its end arrives, never parsed half.
    try command.write(#"{"type":"geo.heading","#)
    try command.write(#""payload":{"heading":91}}"# + "\n")
    #expect(
      try await waitUntil(in: directory) { directory.bytes("stdout") == Array("90\n91\n".utf8) },
      "the second")
    command.closeInput()
    #expect(try await command.ending() == .exited(0))
    #expect(
      directory.bytes("stderr")
        == Array("rasp: 2 lines read: 2 applied, 0 skipped, 0 ignored, 0 blank\n".utf8))
  }

  @Test func aFollowedFileIsReplayedAsItGrowsUntilInterrupted() async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("app.log")
    try directory.write("app.log", #"{"type":"geo.heading","payload":{"heading":90}}"# + "\n")
    let command = try SpawnedCommand(
      ["replay", "--follow", "--select", "geo.heading", "--stats", log],
      outputDirectory: directory.path)
    #expect(try await waitUntil(in: directory) { directory.bytes("stdout") == Array("90\n".utf8) })
    let handle = try #require(FileHandle(forWritingAtPath: log))
    try handle.seekToEnd()
    try handle.write(
      contentsOf: Data((#"{"type":"geo.heading","payload":{"heading":91}}"# + "\n").utf8))
    try handle.close()
    #expect(
      try await waitUntil(in: directory) { directory.bytes("stdout") == Array("90\n91\n".utf8) })
    // Rotated: the old file moved away, a new one in its place.
    try FileManager.default.moveItem(atPath: log, toPath: directory.file("app.log.1"))
    try directory.write("app.log", #"{"type":"geo.heading","payload":{"heading":92}}"# + "\n")
    #expect(
      try await waitUntil(in: directory) { directory.bytes("stdout") == Array("90\n91\n92\n".utf8) }
    )
    command.signal(SIGINT)
    #expect(
      try await command.ending() == .signaled(SIGINT), "stopped as by the signal, after its summary"
    )
    #expect(
      String(decoding: directory.bytes("stderr") ?? [], as: UTF8.self) == """
        rasp: note: '\(log)' was replaced; reading the new file from its start
        rasp: 3 lines read: 3 applied, 0 skipped, 0 ignored, 0 blank

        """)
  }

  /// A line that never ends (`/dev/zero`) is reported once it is past the limit, and
  /// `--on-error fail` stops there, rather than reading for ever in silence.
  @Test func aLineThatNeverEndsIsReportedAtTheLimit() async throws {
    let result = try await BuiltBinary.shell("timeout 60 rasp replay /dev/zero")
    #expect(result.status == 2, "124 is the timeout's: the replay read on")
    #expect(
      result.standardError
        == "/dev/zero:1:1: error: line is longer than the limit of 16777216 bytes\n")
  }

  /// A replay of more parts than the soft limit on open files allows: rasp raises the limit to
  /// the hard one, and where the hard one is too low too, says what it is and how to raise it.
  @Test func moreLogsThanTheSoftLimitOnOpenFilesAreReplayed() async throws {
    let directory = try TemporaryDirectory()
    let parts = (1...100).map { "part\($0).jsonl" }
    for (number, part) in zip(1..., parts) {
      try directory.write(part, #"{"type":"geo.heading","payload":{"heading":"# + "\(number)}}\n")
    }
    let files = parts.map { "'\(directory.file($0))'" }.joined(separator: " ")
    let raised = try await BuiltBinary.shell(
      "ulimit -S -n 40 && rasp replay --concat --select geo.heading \(files)")
    #expect(raised.status == 0, "\(raised.standardError)")
    #expect(raised.text == (1...100).map { "\($0)\n" }.joined())

    let limited = try await BuiltBinary.shell(
      "ulimit -n 40 && rasp replay --concat --select geo.heading \(files)")
    #expect(limited.status == 2)
    #expect(limited.text.isEmpty, "nothing is replayed when an input cannot be opened")
    #expect(
      limited.standardError.contains(
        "Too many open files (a replay keeps each of its inputs open, and this process may have"
          + " 40 files open: raise the limit with 'ulimit -n')"), "\(limited.standardError)")
  }

  /// Waits for `condition` to hold, looking again whenever a file in `directory` changes: a
  /// synchronisation point, not a timing assertion (on a thread of its own, not the pool's).
  private func waitUntil(
    in directory: TemporaryDirectory, _ condition: @escaping @Sendable () -> Bool
  ) async throws -> Bool {
    let watch = try DirectoryWatch(directory.path)
    return try await onThreadOfItsOwn { watch.wait(until: condition) }
  }
}
