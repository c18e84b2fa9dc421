import Foundation
import RaspTestSupport

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
  struct Result {
    let status: Int32
    let standardOutput: Data
    let standardError: String
    var text: String { String(decoding: standardOutput, as: UTF8.self) }
  }

  /// Runs `/bin/sh -c command` in the repository's root with the built `rasp` first on the PATH.
  static func shell(_ command: String, mergingErrors: Bool = false) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", mergingErrors ? "{ \(command) ; } 2>&1" : command]
    process.currentDirectoryURL = URL(fileURLWithPath: Repository.root)
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, standardOutput: outputData,
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
