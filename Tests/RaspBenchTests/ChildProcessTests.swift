import Foundation
import Testing

@testable import rasp_bench

@Suite struct ChildProcessTests {
  /// A directory of its own for each test, for the child's standard error and memory report.
  func makeScratch() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-bench-\(getpid())-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func quotesWordsForTheShellOnlyWhenNeeded() {
    #expect(shellQuoted("bench-output/events-fsa.jsonl") == "bench-output/events-fsa.jsonl")
    #expect(shellQuoted("my logs/it's.jsonl") == #"'my logs/it'\''s.jsonl'"#)
    #expect(shellQuoted("a | b") == "'a | b'")
    #expect(shellQuoted("") == "''")
  }

  @Test func aQuietCommandFailsWhenItWritesOnStandardError() throws {
    let scratch = try makeScratch()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    #expect(throws: BenchError.self) {
      try ChildProcess.runChecked(
        "sh", ["-c", "echo oops >&2"], output: .null, scratch: scratch, quiet: true)
    }
    do {
      _ = try ChildProcess.runChecked(
        "sh", ["-c", "echo oops >&2"], output: .null, scratch: scratch, quiet: true)
    } catch {
      #expect(error.description == "'sh -c 'echo oops >&2'' wrote on standard error:\noops\n")
      #expect(error.exitStatus == 1)
    }
  }

  @Test func hashesWhatTheCommandPrints() throws {
    let scratch = try makeScratch()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let result = try ChildProcess.runChecked(
      "printf", ["a"], output: .pipe(sampleLimit: 1, hashing: true), scratch: scratch)
    #expect(result.output.hash == 0xAF63_DC4C_8601_EC8C)
    #expect(result.output.lineCount == 1)
  }
}
