import Foundation
import RaspTestSupport
import Testing

/// `-o` names a named pipe (as a shell's `>(gzip > out.gz)` does, through `/dev/fd/N`): every
/// command that writes its output atomically writes the pipe in place, the same bytes as to a
/// regular file, and leaves it a pipe (renaming over `/dev/null` replaced it with a regular file
/// for the whole machine).
@Suite struct OutputToSpecialFilesTests {
  static let vault = Repository.path("fixtures/shrink-vault")

  static let commands: [[String]] = [
    ["report", Repository.path("fixtures/example/events.jsonl"), "-o"],
    [
      "shrink", vault + "/events.jsonl", "--spec", vault + "/vault.json", "--domain", "vault",
      "--key-by", "source", "--fails-with", "2", "-o",
    ],
    [
      "redact", vault + "/events.jsonl", "--policy", vault + "/pii.json", "--key-file",
      vault + "/docs.key", "-o",
    ],
  ]

  @Test(arguments: commands)
  func writesANamedPipeInPlaceWithTheBytesItWritesToAFile(_ command: [String]) async throws {
    let directory = try TemporaryDirectory()
    // One path for both runs: a report names its command, output included.
    let pipe = directory.file("out")
    let toFile = CommandRun.run(command + [pipe])
    try #require(toFile.status == 0, "\(toFile.standardError)")
    let expected = try #require(directory.bytes("out"))
    #expect(!expected.isEmpty)

    try FileManager.default.removeItem(atPath: pipe)
    let named = try NamedPipe("out", in: directory)
    async let read = onThreadOfItsOwn { try FileReading.all(pipe) }
    let toPipe = try await onThreadOfItsOwn { CommandRun.run(command + [pipe]) }
    named.release()
    #expect(toPipe.status == 0, "\(toPipe.standardError)")
    #expect(try await read == expected)
    #expect(FileKind.of(pipe) == S_IFIFO, "the pipe is still a pipe")
    #expect(directory.names == [".spare", "out"], "no temporary file is left")
  }
}
