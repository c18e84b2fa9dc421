import Foundation
import Testing

import RaspTestSupport

@testable import RaspCLI

@Suite struct RaspAtomicFileWriterTests {
  let old = Array("{\"old\":true}\n".utf8)
  let new = Array("{\"new\":true}\n".utf8)

  @Test func temporaryFileIsAHiddenSiblingNamedAfterTheProcess() {
    #expect(
      RaspAtomicFileWriter.temporaryPath(for: "golden/expected.jsonl", processID: 42)
        == "golden/.expected.jsonl.tmp-42")
    #expect(
      RaspAtomicFileWriter.temporaryPath(for: "expected.jsonl", processID: 7)
        == ".expected.jsonl.tmp-7")
    #expect(
      RaspAtomicFileWriter.temporaryPath(for: "/a/b.jsonl", processID: 1) == "/a/.b.jsonl.tmp-1")
  }

  @Test func commitReplacesTheFileAndLeavesNoTemporaryFile() throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", String(decoding: old, as: UTF8.self))
    let file = try RaspAtomicFileWriter(
      path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"))
    try file.write(Array(new.prefix(5)))
    try file.write(Array(new.dropFirst(5)))
    #expect(directory.bytes("expected.jsonl") == old, "nothing changes before the commit")
    try file.commit()
    #expect(file.isCommitted)
    #expect(directory.bytes("expected.jsonl") == new)
    #expect(directory.names == ["expected.jsonl"])
  }

  @Test func commitCreatesAMissingFile() throws {
    let directory = try TemporaryDirectory()
    let file = try RaspAtomicFileWriter(
      path: "new.jsonl", resolvedPath: directory.file("new.jsonl"))
    try file.write(new)
    try file.commit()
    #expect(directory.bytes("new.jsonl") == new)
  }

  @Test func discardKeepsTheOldFileByteForByte() throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", String(decoding: old, as: UTF8.self))
    let file = try RaspAtomicFileWriter(
      path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"))
    try file.write(new)
    #expect(directory.names.count == 2, "the temporary file exists while writing")
    file.discard()
    #expect(directory.bytes("expected.jsonl") == old)
    #expect(directory.names == ["expected.jsonl"])
  }

  @Test func releasingAnUncommittedWriterRemovesTheTemporaryFile() throws {
    let directory = try TemporaryDirectory()
    do {
      let file = try RaspAtomicFileWriter(path: "x.jsonl", resolvedPath: directory.file("x.jsonl"))
      try file.write(new)
    }
    #expect(directory.names.isEmpty)
  }

  @Test(arguments: [RaspWriteFault.create, .write, .sync, .rename])
  func aFailureAtAnyStepKeepsTheOldFileByteForByte(_ fault: RaspWriteFault) throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", String(decoding: old, as: UTF8.self))
    let expectedMessages: [RaspWriteFault: String] = [
      .create: "Permission denied", .write: "No space left on device", .sync: "Input/output error",
      .rename: "Permission denied",
    ]
    #expect(throws: RaspCommandError.self) {
      let file = try RaspAtomicFileWriter(
        path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"), fault: fault)
      try file.write(new)
      try file.commit()
    }
    do {
      let file = try RaspAtomicFileWriter(
        path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"), fault: fault)
      try file.write(new)
      try file.commit()
    } catch {
      #expect(
        error.description
          == "rasp: error: cannot write 'expected.jsonl': \(expectedMessages[fault]!)\n")
    }
    #expect(directory.bytes("expected.jsonl") == old)
    #expect(directory.names == ["expected.jsonl"], "no temporary file is left behind")
  }

  @Test func aMissingDirectoryIsAnErrorNamingTheFile() throws {
    let directory = try TemporaryDirectory()
    #expect(throws: RaspCommandError.self) {
      _ = try RaspAtomicFileWriter(
        path: "nowhere/x.jsonl", resolvedPath: directory.file("nowhere/x.jsonl"))
    }
    do {
      _ = try RaspAtomicFileWriter(
        path: "nowhere/x.jsonl", resolvedPath: directory.file("nowhere/x.jsonl"))
    } catch {
      #expect(
        error.description
          == "rasp: error: cannot write 'nowhere/x.jsonl': No such file or directory\n")
    }
  }

  @Test func aLeftoverTemporaryFileOfTheSameProcessMakesTheWriteFailSafely() throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", String(decoding: old, as: UTF8.self))
    let temporary = RaspAtomicFileWriter.temporaryPath(
      for: directory.file("expected.jsonl"), processID: getpid())
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
    #expect(throws: RaspCommandError.self) {
      _ = try RaspAtomicFileWriter(
        path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"))
    }
    #expect(directory.bytes("expected.jsonl") == old)
  }

  @Test func replacingAFileKeepsItsPermissions() throws {
    let directory = try TemporaryDirectory()
    try directory.write("expected.jsonl", "{}\n")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o640], ofItemAtPath: directory.file("expected.jsonl"))
    let file = try RaspAtomicFileWriter(
      path: "expected.jsonl", resolvedPath: directory.file("expected.jsonl"))
    try file.write(new)
    try file.commit()
    let attributes = try FileManager.default.attributesOfItem(
      atPath: directory.file("expected.jsonl"))
    #expect((attributes[.posixPermissions] as? Int) == 0o640)
  }

  @Test func aCommittedWriterCannotBeWrittenAgain() throws {
    let directory = try TemporaryDirectory()
    let file = try RaspAtomicFileWriter(path: "x.jsonl", resolvedPath: directory.file("x.jsonl"))
    try file.commit()
    #expect(throws: RaspCommandError.self) { try file.write(new) }
    #expect(directory.bytes("x.jsonl") == [])
  }
}

/// Targets that are not regular files: written in place, never replaced.
@Suite struct RaspAtomicFileWriterSpecialFileTests {
  let new = Array("{\"new\":true}\n".utf8)

  @Test func aNamedPipeIsWrittenInPlaceAndStaysAPipe() async throws {
    let directory = try TemporaryDirectory()
    let named = try NamedPipe("out", in: directory)
    let pipe = named.path
    let bytes = new
    async let read = onThreadOfItsOwn { try FileReading.all(pipe) }
    try await onThreadOfItsOwn {
      // rasp shrink and redact look first (and discard), then write: the reader must see one
      // whole output, not the end of its input at the look.
      try RaspAtomicFileWriter(path: "out", resolvedPath: pipe).discard()
      let file = try RaspAtomicFileWriter(path: "out", resolvedPath: pipe)
      try file.write(Array(bytes.prefix(4)))
      try file.write(Array(bytes.dropFirst(4)))
      try file.commit()
    }
    named.release()
    #expect(try await read == new)
    #expect(FileKind.of(pipe) == S_IFIFO)
    #expect(directory.names == [".spare", "out"], "no temporary file beside a pipe")
  }

  @Test func aNamedPipeGetsItsEndWhenNothingIsWritten() async throws {
    let directory = try TemporaryDirectory()
    let named = try NamedPipe("out", in: directory)
    let pipe = named.path
    async let read = onThreadOfItsOwn { try FileReading.all(pipe) }
    try await onThreadOfItsOwn {
      try RaspAtomicFileWriter(path: "out", resolvedPath: pipe).commit()
    }
    named.release()
    #expect(FileKind.of(pipe) == S_IFIFO)
    #expect(try await read == [])
  }

  @Test func aDirectoryIsRefusedAndLeftAsItWas() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.file("out"), withIntermediateDirectories: false)
    #expect(throws: RaspCommandError.self) {
      _ = try RaspAtomicFileWriter(path: "out", resolvedPath: directory.file("out"))
    }
    do {
      _ = try RaspAtomicFileWriter(path: "out", resolvedPath: directory.file("out"))
    } catch {
      #expect(error.description == "rasp: error: cannot write 'out': Is a directory\n")
    }
    #expect(FileKind.of(directory.file("out")) == S_IFDIR)
    #expect(directory.names == ["out"])
  }
}

/// What a test reads from special files.
enum FileReading {
  /// Every byte of a file (or a named pipe, until its writer closes it).
  static func all(_ path: String) throws -> [UInt8] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    return Array(try handle.readToEnd() ?? Data())
  }
}

/// A named pipe a test reads on a thread of its own, which cannot hang the test: if the code
/// under test never opens the pipe (it renamed a file over it, say), ``release()`` opens the
/// pipe's other name for writing and closes it, so the read ends with nothing.
struct NamedPipe {
  /// The pipe's path.
  let path: String
  /// A second name of the same pipe, in a folder of its own.
  let spare: String

  /// Makes the pipe `name` in `directory`, and its spare name in `directory/.spare/`.
  init(_ name: String, in directory: TemporaryDirectory) throws {
    path = directory.file(name)
    let folder = directory.file(".spare")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    spare = folder + "/" + name
    try #require(mkfifo(path, 0o600) == 0)
    try #require(link(path, spare) == 0)
  }

  /// Ends a read still waiting for a writer (none if the pipe was written and closed).
  func release() {
    let descriptor = open(spare, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    if descriptor >= 0 { close(descriptor) }
  }
}

/// The kind of a file (`S_IFIFO`, `S_IFREG`, …), `0` when it does not exist.
enum FileKind {
  static func of(_ path: String) -> mode_t {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return status.st_mode & S_IFMT
  }
}
