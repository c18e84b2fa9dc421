import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct SnapshotLinesTests {
  func lines(_ text: String, chunkSize: Int = 5) -> SnapshotLines {
    SnapshotLines(
      name: "expected.jsonl",
      source: .memory(JSONMemorySource(Array(text.utf8), chunkSize: chunkSize)))
  }

  @Test func skipsBlankLinesButKeepsTheirNumbers() throws {
    var golden = lines("{\"a\":1}\n\n  \r\n[2]\r\n3")
    var seen: [(Int, String)] = []
    while let line = try golden.next() {
      seen.append((line.number, String(decoding: line.bytes, as: UTF8.self)))
    }
    #expect(seen.map(\.0) == [1, 4, 5])
    #expect(seen.map(\.1) == ["{\"a\":1}", "[2]", "3"])
    #expect(golden.count == 3)
    #expect(try golden.next() == nil, "stays at the end")
  }

  @Test func validateNamesTheLineAndColumn() throws {
    var golden = lines("{}\n{\"a\":1,}\n")
    _ = try golden.next()
    let line = try #require(try golden.next())
    #expect(throws: RaspCommandError.self) { try golden.validate(line) }
    do {
      try golden.validate(line)
    } catch {
      #expect(error.description == "expected.jsonl:2:7: error: trailing comma before '}'\n")
    }
  }

  @Test func aLineTooLongIsAtColumnOne() throws {
    let long = "[\"" + String(repeating: "x", count: 16 * 1024 * 1024) + "\"]"
    var golden = lines("{}\n" + long + "\n", chunkSize: 1 << 16)
    _ = try golden.next()
    do {
      _ = try golden.next()
      Issue.record("a line over the limit was read")
    } catch {
      #expect(
        error.description
          == "expected.jsonl:2:1: error: line is longer than the limit of 16777216 bytes\n")
    }
  }

  @Test func validateRejectsTwoValuesOnALine() throws {
    var golden = lines("{} {}\n")
    let line = try #require(try golden.next())
    #expect(throws: RaspCommandError.self) { try golden.validate(line) }
  }

  @Test func standardInputIsNamedStdin() throws {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(Array("1\n".utf8))),
      standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput())
    var golden = try SnapshotLines(file: "-", environment: environment)
    #expect(golden.name == "<stdin>")
    #expect(try golden.next()?.number == 1)
  }

  @Test func aMissingFileCannotBeOpened() {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), workingDirectory: "/nonexistent-rasp-directory")
    #expect(throws: RaspCommandError.self) {
      _ = try SnapshotLines(file: "x.jsonl", environment: environment)
    }
  }
}
