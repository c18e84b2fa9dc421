import Foundation
import RaspTestSupport

/// A program of the machine — bash, zsh, fish, groff, mandoc, man — that a test runs on what
/// rasp wrote, to check it the way its users' tools will read it.
///
/// ```swift
/// let result = try await ExternalTool.run("bash", ["-n", scriptPath])
/// #expect(result.status == 0, "\(result.standardError)")
/// ```
enum ExternalTool {
  /// The path of `name` in a folder of the `PATH`, or `nil` when the machine does not have it.
  static func path(_ name: String) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    return folders.map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Whether the machine has `name`.
  static func exists(_ name: String) -> Bool { path(name) != nil }

  /// Runs `name` with `arguments` in the repository's root, in ``BuiltBinary/environment``
  /// with `variables` added, and returns what it printed.
  static func run(
    _ name: String, _ arguments: [String], variables: [String: String] = [:]
  ) async throws -> BuiltBinary.Result {
    try await TestProcess.run(
      path(name) ?? name, arguments, in: Repository.root,
      environment: BuiltBinary.environment.merging(variables) { $1 })
  }
}
