import Foundation
import Testing

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
