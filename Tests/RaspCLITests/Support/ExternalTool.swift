import Foundation
import RaspTestSupport

/// A program of the machine — bash, zsh, fish, groff, mandoc, man — that a test runs on what
/// rasp wrote, to check it the way its users' tools will read it.
///
/// ```swift
/// let result = try ExternalTool.run("bash", ["-n", scriptPath])
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
  ) throws -> BuiltBinary.Result {
    // Output goes to files, so that neither stream can fill a pipe while the other is read.
    let directory = try TemporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory.file("stdout"), contents: nil)
    _ = FileManager.default.createFile(atPath: directory.file("stderr"), contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stdout")))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stderr")))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path(name) ?? name)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: Repository.root)
    process.environment = BuiltBinary.environment.merging(variables) { $1 }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try output.close()
    try errors.close()
    return BuiltBinary.Result(
      status: process.terminationStatus,
      standardOutput: Data(directory.bytes("stdout") ?? []),
      standardError: String(decoding: directory.bytes("stderr") ?? [], as: UTF8.self))
  }
}
