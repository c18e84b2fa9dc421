import Foundation
import RaspCLI
import RaspDomains
import RaspJSON
import RaspRecording

/// A fresh directory for one test's files, removed when the value is released.
final class ScratchDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "rasp-recording-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func lines(of name: String) -> [String] {
    let text = (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}

/// A clock that starts at 2026-11-22T08:30:00Z and moves on by 250 ms at each reading.
func steppingClock() -> RaspManualClock {
  RaspManualClock(
    start: RaspTimestamp(seconds: 1_795_336_200, nanoseconds: 0), step: .milliseconds(250))
}

/// Runs `rasp` in-process, with `domains`, and returns what it printed.
func runRasp(
  _ arguments: [String], domains: [any RaspDomain] = RaspBuiltinDomains.all
) -> (status: Int32, output: String, errors: String) {
  let output = RaspMemoryOutput()
  let errors = RaspMemoryOutput()
  let environment = RaspEnvironment(
    standardInput: .memory(JSONMemorySource([])), standardOutput: output, standardError: errors,
    variables: [:], workingDirectory: nil)
  let status = RaspCommandLine.run(arguments: arguments, environment: environment, domains: domains)
  return (status, output.text, errors.text)
}

/// A state's snapshot as `rasp replay --domain <name>` prints it: `{"<name>":<state>}`.
func snapshot<Domain: RaspDomain>(_ state: Domain.State, of domain: Domain) -> String {
  var writer = JSONWriter()
  writer.writeRaw("{")
  writer.writeString(domain.name)
  writer.writeRaw(":")
  domain.encode(state, into: &writer)
  writer.writeRaw("}")
  return String(decoding: writer.bytes, as: UTF8.self)
}
