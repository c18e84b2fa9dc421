import Foundation
import Testing

@testable import RaspCLI

/// `rasp compare`'s directories, read without Foundation: the same answers as Foundation's
/// `FileManager`, which the tests may use.
@Suite struct RaspDirectoryTests {
  @Test func namesAreThoseFileManagerListsDotsLeftOut() throws {
    let directory = try TemporaryDirectory()
    let names = ["a.jsonl", ".hidden", "é.jsonl", "b c", String(repeating: "n", count: 200)]
    for name in names { try directory.write(name, "{}\n") }
    try FileManager.default.createDirectory(
      atPath: directory.file("inner"), withIntermediateDirectories: false)
    try directory.write("inner/not-listed.jsonl", "{}\n")
    let listed = try RaspDirectory.names(atPath: directory.path)
    #expect(listed.sorted() == (names + ["inner"]).sorted())
    let byFoundation = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(listed.sorted() == byFoundation.sorted())
  }

  @Test func anEmptyDirectoryHasNoNames() throws {
    let directory = try TemporaryDirectory()
    #expect(try RaspDirectory.names(atPath: directory.path) == [])
  }

  @Test func aDirectoryIsOneAndALinkToOneToo() throws {
    let directory = try TemporaryDirectory()
    try directory.write("file.jsonl", "{}\n")
    try FileManager.default.createDirectory(
      atPath: directory.file("logs"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: directory.file("link"), withDestinationPath: directory.file("logs"))
    #expect(RaspDirectory.exists(atPath: directory.path))
    #expect(RaspDirectory.exists(atPath: directory.file("logs")))
    #expect(RaspDirectory.exists(atPath: directory.file("link")))
    #expect(!RaspDirectory.exists(atPath: directory.file("file.jsonl")))
    #expect(!RaspDirectory.exists(atPath: directory.file("missing")))
  }

  @Test func aMissingDirectoryOrAFileIsAnErrorOfItsErrno() throws {
    let directory = try TemporaryDirectory()
    try directory.write("file.jsonl", "{}\n")
    #expect(throws: RaspDirectoryError(code: ENOENT)) {
      try RaspDirectory.names(atPath: directory.file("missing"))
    }
    #expect(throws: RaspDirectoryError(code: ENOTDIR)) {
      try RaspDirectory.names(atPath: directory.file("file.jsonl"))
    }
  }
}
