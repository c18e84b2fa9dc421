import Foundation
import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct RaspEnvironmentWritingTests {
  func environment(in directory: String? = nil, variables: [String: String] = [:])
    -> RaspEnvironment
  {
    RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), variables: variables, workingDirectory: directory)
  }

  @Test func writeFileAtomicallyResolvesAgainstTheWorkingDirectory() throws {
    let directory = try TemporaryDirectory()
    try environment(in: directory.path).writeFileAtomically("a.jsonl", bytes: Array("1\n".utf8))
    #expect(directory.bytes("a.jsonl") == Array("1\n".utf8))
    #expect(directory.names == ["a.jsonl"])
  }

  @Test func writeFileAtomicallyKeepsTheOldFileWhenTheWriteFails() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.jsonl", "old\n")
    var failing = environment(in: directory.path)
    failing.writeFault = .write
    #expect(throws: RaspCommandError.self) {
      try failing.writeFileAtomically("a.jsonl", bytes: Array("new\n".utf8))
    }
    #expect(directory.bytes("a.jsonl") == Array("old\n".utf8))
    #expect(directory.names == ["a.jsonl"])
  }

  @Test(
    arguments: [
      (nil, false), ("", false), ("false", false), ("FALSE", false), ("0", false),
      ("true", true), ("1", true), ("yes", true), ("github-actions", true),
    ] as [(String?, Bool)])
  func continuousIntegrationIsCIUnlessEmptyZeroOrFalse(_ value: String?, _ expected: Bool) {
    let variables = value.map { ["CI": $0] } ?? [:]
    #expect(environment(variables: variables).isContinuousIntegration == expected)
  }
}
