import Foundation
import RaspTestSupport

@testable import rasp_bench

/// jq as the tests find it, and how they run it: a program of `fixtures/bench` over a log
/// written to a temporary file.
enum JQ {
  /// The jq program installed, or `nil`: the tests that need it are then skipped.
  static let path: String? = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// The log the programs are tested on: three thousand generated events, seed 11.
  static let log: [UInt8] = {
    var generator = BenchLogGenerator(seed: 11)
    return generator.makeLog(events: 3_000)
  }()

  /// The package's root directory.
  static let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
  }()

  /// Runs `jq <options> -f fixtures/bench/<program> <file>` over `log` and returns its output.
  ///
  /// - Parameters:
  ///   - program: The file name of a program in `fixtures/bench`.
  ///   - options: jq's options, such as `-nc`.
  ///   - log: The input, written to a temporary file.
  /// - Returns: jq's standard output and its exit status.
  /// - Throws: When the log cannot be written or jq cannot start.
  static func run(
    _ program: String, options: [String], log: [UInt8]
  ) async throws -> (output: String, status: Int32) {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-bench-\(getpid())-\(UUID().uuidString)-\(program).jsonl")
    try Data(log).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await TestProcess.run(
      path ?? "jq", options + ["-f", root + "/fixtures/bench/" + program, file.path])
    return (result.text, result.status)
  }
}
