import Foundation
import RaspTestSupport
import Testing

/// The `rasp` executable that `swift build` put beside the test bundle, and a way to run shell
/// commands with it on the `PATH`.
enum BuiltBinary {
  /// The directory holding the built products (the test bundle's own directory).
  static let directory: String = {
    let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").standardizedFileURL
    var candidate = runner.deletingLastPathComponent()
    for _ in 0..<3 {
      if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("rasp").path)
      {
        return candidate.path
      }
      candidate = candidate.deletingLastPathComponent()
    }
    return Repository.path(".build/debug")
  }()

  /// The path of the `rasp` executable.
  static var path: String { directory + "/rasp" }

  /// Whether the executable exists.
  static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// The environment the executable runs in: this process's, with the built `rasp` first on the
  /// `PATH`, and without the variables that change what `rasp` does — `NO_COLOR`, and `CI` and
  /// `RASP_ALLOW_RECORD`, which refuse or allow `--update`. A test of the binary then behaves
  /// the same on a laptop and in CI; the refusal in CI has its own in-process tests.
  static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    for name in ["NO_COLOR", "CI", "RASP_ALLOW_RECORD"] {
      environment.removeValue(forKey: name)
    }
    return environment
  }

  /// The result of a process.
  typealias Result = TestProcess.Result

  /// Runs `/bin/sh -c command` in the repository's root with the built `rasp` first on the PATH,
  /// waiting on a thread of its own.
  static func shell(_ command: String, mergingErrors: Bool = false) async throws -> Result {
    try await TestProcess.run(
      "/bin/sh", ["-c", mergingErrors ? "{ \(command) ; } 2>&1" : command], in: Repository.root,
      environment: environment)
  }

  /// Runs `/bin/sh -c command` as ``shell(_:mergingErrors:)`` does, records an issue when it
  /// fails, and returns its standard output.
  static func output(_ command: String) async throws -> String {
    let result = try await shell(command)
    #expect(result.status == 0, "\(command): \(result.standardError)")
    return result.text
  }
}
