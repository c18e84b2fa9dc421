import Foundation
import Testing

@testable import RaspCLI
import RaspTestSupport

/// `rasp --version`, `-V` and `rasp version` name the version, the commit the build is from and
/// the Swift that built it — checked against `git` and `swift` themselves.
@Suite struct VersionTests {
  /// The first line `command` prints, run in the repository.
  private func firstLine(_ command: String, _ arguments: [String]) async throws -> String {
    let result = try await TestProcess.run(
      "/usr/bin/env", [command] + arguments, in: Repository.root)
    return result.text.split(separator: "\n").first.map(String.init) ?? ""
  }

  @Test(arguments: [["--version"], ["-V"], ["version"]])
  func namesTheVersionTheCommitAndTheSwift(arguments: [String]) async throws {
    let run = CommandRun.run(arguments)
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let commit = try await firstLine("git", ["rev-parse", "--short=12", "HEAD"])
    let swift = try await firstLine("swift", ["--version"])
    // "Swift version 6.3.1 (swift-6.3.1-RELEASE)": the major and minor version.
    let swiftVersion = try #require(
      swift.split(separator: " ").first { $0.first?.isNumber == true }?
        .split(separator: ".").prefix(2).joined(separator: "."))
    #expect(commit.count == 12)
    let expected = ["", "+changes"].map {
      "rasp \(RaspCommandLine.version) (commit \(commit)\($0), Swift \(swiftVersion))\n"
    }
    #expect(expected.contains(run.standardOutput), "\(run.standardOutput)")
  }
}
